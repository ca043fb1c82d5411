// testing.fault: the test-only family of the engine's fault tests. `ok` is a verified copy;
// `illegal_address`, `trap` and `hang` poison or stall the CUDA context on their first run, which
// the executor must survive (design.md "Measuring a case", issue 3 "Faults"); `persistent_error`
// leaves an error no sticky-error list names, which only survives a second synchronisation
// (kernels::IsContextPoisoned, issue 13 item 5). `launch_order` is a correct copy whose Run()
// launches kernels A, B, A (the engine's per-launch counter test, issue 24 item 1);
// `copy_then_memset` a correct copy whose timed region also holds a memset (the time
// cross-check's test, issue 24 item 3).
#include <memory>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "kernels/testing/fault/fault_kernels.h"

namespace warpwatch::kernels::fault {
namespace {

constexpr unsigned kBlock = 256;
// copy_then_memset's memset: about 90 us at the H100's 3 TB/s, twice the 2^24 copy.
constexpr size_t kMemsetBytes = size_t{256} << 20;

class FaultCase : public Case {
 public:
  FaultCase(FaultKind kind, int64_t n) : kind_(kind), n_(n) {}
  ~FaultCase() override {
    for (void* p : {static_cast<void*>(d_in_), static_cast<void*>(d_out_),
                    static_cast<void*>(d_flag_), d_scratch_}) {
      if (p != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(p));
    }
    // capture_stream_ is left as it is: destroying it could end the capture that
    // persistent_error must leave open for the rest of the process.
  }

  Status Setup(cudaStream_t stream) override {
    h_in_.resize(static_cast<size_t>(n_));
    for (int64_t i = 0; i < n_; ++i) h_in_[i] = 1.0f + static_cast<float>(i % 1000) * 0.5f;
    CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&d_in_), n_ * sizeof(float)));
    CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&d_out_), n_ * sizeof(float)));
    CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&d_flag_), sizeof(int)));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_flag_, 0, sizeof(int), stream));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_, 0, n_ * sizeof(float), stream));
    CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(d_in_, h_in_.data(), n_ * sizeof(float),
                                         cudaMemcpyHostToDevice, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    if (kind_ == FaultKind::kPersistentError) {
      CUDA_RETURN_IF_ERROR(cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking));
    }
    if (kind_ == FaultKind::kCopyThenMemset) {
      CUDA_RETURN_IF_ERROR(cudaMalloc(&d_scratch_, kMemsetBytes));
    }
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    if (kind_ == FaultKind::kPersistentError) {
      return LeaveStreamCaptureOpen(capture_stream_, d_in_, d_out_, n_, Grid(), kBlock);
    }
    RETURN_IF_ERROR(LaunchFault(kind_, d_in_, d_out_, d_flag_, n_, Grid(), kBlock, stream));
    if (kind_ == FaultKind::kCopyThenMemset) {
      CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_scratch_, 0, kMemsetBytes, stream));
    }
    return OkStatus();
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult r;
    std::vector<float> h_out(static_cast<size_t>(n_));
    cudaError_t err = cudaMemcpyAsync(h_out.data(), d_out_, n_ * sizeof(float),
                                      cudaMemcpyDeviceToHost, stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      r.status = CudaError(err, "copy output back", __FILE__, __LINE__);
      return r;
    }
    for (int64_t i = 0; i < n_; ++i) {
      if (h_out[i] != h_in_[i]) {
        r.status = InternalError("out[" + std::to_string(i) + "] = " + std::to_string(h_out[i]) +
                                 ", expected " + std::to_string(h_in_[i]));
        return r;
      }
    }
    return r;
  }

  LaunchShape Shape() const override {
    LaunchShape s;
    s.function = FaultKernelFunction(kind_);
    s.grid = dim3(Grid());
    s.block = dim3(kBlock);
    return s;
  }

  Work work() const override { return Work{2.0 * n_ * sizeof(float), 0}; }

 private:
  unsigned Grid() const { return static_cast<unsigned>((n_ + kBlock - 1) / kBlock); }

  FaultKind kind_;
  int64_t n_;
  std::vector<float> h_in_;
  float* d_in_ = nullptr;
  float* d_out_ = nullptr;
  int* d_flag_ = nullptr;
  cudaStream_t capture_stream_ = nullptr;  // persistent_error only
  void* d_scratch_ = nullptr;              // copy_then_memset only: what the memset clears
};

class FaultFamily : public Family {
 public:
  std::string_view name() const override { return "testing.fault"; }

  StatusOr<std::unique_ptr<Case>> MakeCase(const catalog::Point& point,
                                           const cudaDeviceProp& /*prop*/) const override {
    FaultKind kind;
    if (point.variant == "ok") {
      kind = FaultKind::kOk;
    } else if (point.variant == "illegal_address") {
      kind = FaultKind::kIllegalAddress;
    } else if (point.variant == "trap") {
      kind = FaultKind::kTrap;
    } else if (point.variant == "hang") {
      kind = FaultKind::kHang;
    } else if (point.variant == "persistent_error") {
      kind = FaultKind::kPersistentError;
    } else if (point.variant == "launch_order") {
      kind = FaultKind::kLaunchOrder;
    } else if (point.variant == "copy_then_memset") {
      kind = FaultKind::kCopyThenMemset;
    } else {
      return InvalidArgumentError("testing.fault has no variant \"" + point.variant + "\"");
    }
    auto n = point.params.find("n");
    if (n == point.params.end() || n->second <= 0) {
      return InvalidArgumentError("testing.fault needs a positive axis n");
    }
    return std::unique_ptr<Case>(std::make_unique<FaultCase>(kind, n->second));
  }
};

}  // namespace
}  // namespace warpwatch::kernels::fault

WARPWATCH_REGISTER_FAMILY(warpwatch::kernels::fault::FaultFamily);
