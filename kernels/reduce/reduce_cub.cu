// cub::DeviceReduce::Sum, the reference every reduce variant is held to.
#include <cub/device/device_reduce.cuh>

#include "kernels/core/cuda_check.h"
#include "kernels/reduce/reduce_kernels.h"

namespace warpwatch::kernels {

StatusOr<size_t> CubSumTempBytes(int64_t n) {
  size_t temp_bytes = 0;
  CUDA_RETURN_IF_ERROR(cub::DeviceReduce::Sum(nullptr, temp_bytes, static_cast<const int*>(nullptr),
                                              static_cast<int*>(nullptr), n));
  return temp_bytes;
}

Status LaunchCubSum(void* d_temp, size_t temp_bytes, const int* d_in, int* d_out, int64_t n,
                    cudaStream_t stream) {
  CUDA_RETURN_IF_ERROR(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_in, d_out, n, stream));
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
