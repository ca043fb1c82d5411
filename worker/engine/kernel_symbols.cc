// Kernel symbols through the CUDA runtime.
#include "worker/engine/kernel_symbols.h"

#include <cuda_runtime_api.h>

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {

StatusOr<KernelName> NameOfKernel(const void* function) {
  if (function == nullptr) return InvalidArgumentError("NameOfKernel: null function");
  const char* symbol = nullptr;
  CUDA_RETURN_IF_ERROR(cudaFuncGetName(&symbol, function));
  if (symbol == nullptr) return InternalError("cudaFuncGetName returned no name");
  return NameKernel(symbol);
}

}  // namespace warpwatch::worker
