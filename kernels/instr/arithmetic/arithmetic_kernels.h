// instr.arithmetic kernels behind host launchers: one loop of a single operation type per kernel
// (arithmetic_recurrence.h), so the time measures that operation's throughput.
#ifndef WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_KERNELS_H_
#define WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class ArithmeticOp {
  kFp32Fma,
  kFp64Fma,
  kHalf2Fma,
  kBf16x2Fma,
  kInt32Add,
  kInt32Mul,
  kInt32Shift
};

// Thread t < n reads d_in[t], runs kArithmeticIterations iterations of kArithmeticChains
// operations and writes one double to d_out[t] (floating point: the chains' sum in chain order;
// integer: the chains' XOR). grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchArithmetic(ArithmeticOp op, const float* d_in, double* d_out, int64_t n, unsigned grid,
                        unsigned block, cudaStream_t stream);

// The __global__ function LaunchArithmetic starts for `op`.
const void* ArithmeticKernel(ArithmeticOp op);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_KERNELS_H_
