// instr.type_conversion kernels behind host launchers: the same loop with and without the
// conversions C++'s promotion rules hide (a double constant, char and short variables).
#ifndef WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_KERNELS_H_
#define WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

enum class ConversionKind { kDoubleConstant, kFloatConstant, kChar, kShort, kInt };

// Thread t < n runs kConversionIterations steps of kConversionChains chains and writes one double
// to d_out[t] (floating point: the chains' sum; integer: the folded chains, as ConversionIntLoop).
// grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchTypeConversion(ConversionKind kind, const float* d_in, double* d_out, int64_t n,
                            unsigned grid, unsigned block, cudaStream_t stream);
const void* TypeConversionKernel(ConversionKind kind);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_KERNELS_H_
