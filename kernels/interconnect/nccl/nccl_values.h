// The values every rank of interconnect.nccl sends: small integers as floats, so that any
// reduction order NCCL picks (ring, tree, LL protocols) sums them exactly (< 2^24 for up to 2^20
// ranks), and Verify can compare bit for bit.
#ifndef WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_VALUES_H_
#define WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_VALUES_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

inline constexpr int kNcclMaxValue = 16;

// Element `index` of rank `rank`'s send buffer: in [1, 16], never zero.
WW_HOST_DEVICE inline float NcclSendValue(int rank, uint64_t index) {
  return static_cast<float>(SeededInt(kSeed + static_cast<uint64_t>(rank), index, kNcclMaxValue));
}

// d_out[i] = NcclSendValue(rank, i) for i < n, on `stream` (of the buffer's GPU); checks the launch.
Status FillNcclSendValues(float* d_out, int64_t n, int rank, cudaStream_t stream);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_NCCL_NCCL_VALUES_H_
