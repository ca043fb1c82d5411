// instr.integer_division kernels behind host launchers: i / d and i % d with a run-time divisor
// against the shift and mask the guide recommends when d is a power of two.
#ifndef WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_KERNELS_H_
#define WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"
#include "kernels/instr/integer_division/integer_division_recurrence.h"

namespace warpwatch::kernels {

// Thread t < n: out[t] = DivisionLoop<shift>(bits of d_in[t], op, kDivisionIterations) as a
// double. grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchIntegerDivision(bool shift, const DivisionOperands& op, const float* d_in,
                             double* d_out, int64_t n, unsigned grid, unsigned block,
                             cudaStream_t stream);
const void* IntegerDivisionKernel(bool shift);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_KERNELS_H_
