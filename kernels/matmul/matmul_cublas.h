// cuBLAS SGEMM for matmul's reference variant, loaded at run time with dlopen: libcublas (and the
// libcublasLt it pulls in, hundreds of MiB) is not linked into the worker, so the GPU bundle stays
// small and a host without cuBLAS still runs every other case (this one is then SKIPPED).
#ifndef WARPWATCH_KERNELS_MATMUL_MATMUL_CUBLAS_H_
#define WARPWATCH_KERNELS_MATMUL_MATMUL_CUBLAS_H_

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "common/status/status.h"

namespace warpwatch::kernels {

// One cuBLAS handle bound to a stream. Not thread-safe; destroy before the stream.
class CublasSgemm {
 public:
  // Loads libcublas.so.<toolkit major> (the loader's search path, then /usr/local/cuda/lib64) on
  // first use, once per process, and creates a handle. FAILED_PRECONDITION naming the library
  // and dlerror() when it cannot be loaded (the engine records the point SKIPPED).
  static StatusOr<std::unique_ptr<CublasSgemm>> Create();
  ~CublasSgemm();
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  // Enqueues C = A * B on `stream` for row-major side x side matrices (column-major cuBLAS
  // computes C^T = B^T * A^T: the same memory). Default math mode: FP32, no TF32.
  Status Multiply(const float* d_a, const float* d_b, float* d_c, int side, cudaStream_t stream);

 private:
  CublasSgemm() = default;
  void* handle_ = nullptr;  // cublasHandle_t
};

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MATMUL_MATMUL_CUBLAS_H_
