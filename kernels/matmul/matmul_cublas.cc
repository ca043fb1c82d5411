// cuBLAS SGEMM through dlopen (see matmul_cublas.h).
#include "kernels/matmul/matmul_cublas.h"

#include <cublas_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <string>

namespace warpwatch::kernels {
namespace {

using CreateFn = cublasStatus_t (*)(cublasHandle_t*);
using DestroyFn = cublasStatus_t (*)(cublasHandle_t);
using SetStreamFn = cublasStatus_t (*)(cublasHandle_t, cudaStream_t);
using SgemmFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const float*, const float*, int, const float*, int,
                                   const float*, float*, int);

struct CublasApi {
  Status status;  // why it is unusable, else OK
  CreateFn create = nullptr;
  DestroyFn destroy = nullptr;
  SetStreamFn set_stream = nullptr;
  SgemmFn sgemm = nullptr;
};

// Loaded once and never unloaded (cuBLAS registers itself with the CUDA runtime).
const CublasApi& Api() {
  static const CublasApi* api = [] {
    auto* a = new CublasApi;
    const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string first_error = lib == nullptr ? dlerror() : "";
    if (lib == nullptr) lib = dlopen(("/usr/local/cuda/lib64/" + soname).c_str(), RTLD_NOW);
    if (lib == nullptr) {
      a->status = FailedPreconditionError("cuBLAS not available (" + soname +
                                          " could not be loaded: " + first_error +
                                          "; nor from /usr/local/cuda/lib64)");
      return a;
    }
    a->create = reinterpret_cast<CreateFn>(dlsym(lib, "cublasCreate_v2"));
    a->destroy = reinterpret_cast<DestroyFn>(dlsym(lib, "cublasDestroy_v2"));
    a->set_stream = reinterpret_cast<SetStreamFn>(dlsym(lib, "cublasSetStream_v2"));
    a->sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "cublasSgemm_v2"));
    if (!a->create || !a->destroy || !a->set_stream || !a->sgemm) {
      a->status = FailedPreconditionError(soname +
                                          " lacks cublasCreate_v2, cublasDestroy_v2, "
                                          "cublasSetStream_v2 or cublasSgemm_v2");
    }
    return a;
  }();
  return *api;
}

Status CublasError(cublasStatus_t s, const char* call) {
  return InternalError(std::string(call) + " failed: cublasStatus_t " + std::to_string(s));
}

}  // namespace

StatusOr<std::unique_ptr<CublasSgemm>> CublasSgemm::Create() {
  const CublasApi& api = Api();
  if (!api.status.ok()) return api.status;
  std::unique_ptr<CublasSgemm> gemm(new CublasSgemm);
  cublasHandle_t handle = nullptr;
  const cublasStatus_t s = api.create(&handle);
  if (s != CUBLAS_STATUS_SUCCESS) return CublasError(s, "cublasCreate_v2");
  gemm->handle_ = handle;
  return gemm;
}

CublasSgemm::~CublasSgemm() {
  if (handle_ == nullptr) return;
  const cublasStatus_t s = Api().destroy(static_cast<cublasHandle_t>(handle_));
  if (s != CUBLAS_STATUS_SUCCESS) std::fprintf(stderr, "cublasDestroy_v2 failed: %d\n", s);
}

Status CublasSgemm::Multiply(const float* d_a, const float* d_b, float* d_c, int side,
                             cudaStream_t stream) {
  const CublasApi& api = Api();
  auto handle = static_cast<cublasHandle_t>(handle_);
  cublasStatus_t s = api.set_stream(handle, stream);
  if (s != CUBLAS_STATUS_SUCCESS) return CublasError(s, "cublasSetStream_v2");
  const float alpha = 1.0f;
  const float beta = 0.0f;
  s = api.sgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, side, side, side, &alpha, d_b, side, d_a, side,
                &beta, d_c, side);
  if (s != CUBLAS_STATUS_SUCCESS) return CublasError(s, "cublasSgemm_v2");
  return OkStatus();
}

}  // namespace warpwatch::kernels
