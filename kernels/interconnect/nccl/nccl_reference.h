// CPU reference of interconnect.nccl: what rank `rank` must hold at `index` of its receive buffer
// after one collective over `ranks` ranks of `count` (NCCL's count argument) elements.
#ifndef WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_REFERENCE_H_
#define WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/interconnect/interconnect_plan.h"

namespace warpwatch::kernels {

// all_reduce: sum over ranks q of send(q, index); all_gather: send(index / count, index % count);
// reduce_scatter: sum over q of send(q, rank * count + index).
float NcclExpected(Collective op, int rank, int ranks, int64_t count, int64_t index);

// The receive-buffer indices Verify checks out of `elements`: all of them up to `limit`, else
// every stride-th from 0 (stride = ceil(elements / limit)) plus the last one. Ascending, distinct.
std::vector<int64_t> NcclCheckedIndices(int64_t elements, int64_t limit);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_REFERENCE_H_
