// The hammer kernel (wmma half-precision MMA on register fragments) and its launch loop.
#include <cuda_fp16.h>
#include <mma.h>

#include <chrono>

#include "kernels/core/cuda_check.h"
#include "tests/worker/gpu/gpu_hammer.h"

namespace warpwatch::worker {
namespace {

__global__ void HammerKernel(int iterations, float* sink) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(a, __float2half(0.001f * (threadIdx.x & 7)));
  wmma::fill_fragment(b, __float2half(0.002f));
  wmma::fill_fragment(acc, 0.0f);
  for (int i = 0; i < iterations; ++i) wmma::mma_sync(acc, a, b, acc);
  float total = 0;
  for (int i = 0; i < acc.num_elements; ++i) total += acc.x[i];
  if (total == -1.0f) *sink = total;  // never true: keeps the loop
}

}  // namespace

StatusOr<std::unique_ptr<GpuHammer>> GpuHammer::Start(double seconds) {
  auto h = std::unique_ptr<GpuHammer>(new GpuHammer());
  int sms = 0;
  CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  GpuHammer* self = h.get();
  h->thread_ = std::thread([self, seconds, sms] {
    self->error_ = [&]() -> Status {
      CUDA_RETURN_IF_ERROR(cudaSetDevice(0));
      cudaStream_t stream = nullptr;
      float* sink = nullptr;
      CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      CUDA_RETURN_IF_ERROR(cudaMalloc(&sink, sizeof(float)));
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
      Status s = OkStatus();
      while (!self->stop_.load() && std::chrono::steady_clock::now() < deadline && s.ok()) {
        HammerKernel<<<sms * 4, 256, 0, stream>>>(50000, sink);
        cudaError_t launched = cudaPeekAtLastError();
        if (launched != cudaSuccess)
          s = kernels::CudaError(launched, "HammerKernel", __FILE__, __LINE__);
        // Keep two launches queued at most so Stop() returns within one launch.
        cudaError_t done = cudaStreamSynchronize(stream);
        if (s.ok() && done != cudaSuccess)
          s = kernels::CudaError(done, "hammer sync", __FILE__, __LINE__);
      }
      cudaFree(sink);
      cudaStreamDestroy(stream);
      return s;
    }();
  });
  return StatusOr<std::unique_ptr<GpuHammer>>(std::move(h));
}

GpuHammer::~GpuHammer() { (void)Stop(); }

Status GpuHammer::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  return error_;
}

}  // namespace warpwatch::worker
