// The instr.* families' shared Case: buffers, launch, sampled verification.
#include "kernels/instr/detail/compute_case.h"

#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels::instr_detail {
namespace {

class ComputeCase : public Case {
 public:
  explicit ComputeCase(ComputeSpec spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    const size_t n = static_cast<size_t>(s_.n);
    RETURN_IF_ERROR(d_in_.Allocate(n, s_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(n, s_.key + " output"));
    RETURN_IF_ERROR(FillSeededFloats(d_in_.get(), n, kSeed, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  // A known non-answer (all-zero bytes) before every run, so a kernel that stores nothing fails.
  Status Reset(cudaStream_t stream) override {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override { return s_.launch(d_in_.get(), d_out_.get(), stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    const cudaError_t err = cudaStreamSynchronize(stream);
    if (err != cudaSuccess) {
      result.status = CudaError(err, "cudaStreamSynchronize(stream)", __FILE__, __LINE__);
      return result;
    }
    StatusOr<std::vector<double>> got = d_out_.CopyToHost();
    if (!got.ok()) {
      result.status = got.status().Annotate(s_.key);
      return result;
    }
    int64_t mismatches = 0;
    int64_t first = -1;
    double first_expected = 0;
    const std::vector<int64_t> threads = SampledThreads(s_.n);
    for (int64_t t : threads) {
      const double expected = s_.reference(t);
      const double actual = (*got)[static_cast<size_t>(t)];
      const double diff = std::fabs(actual - expected);
      const bool ok = s_.tolerance == 0
                          ? actual == expected
                          : diff <= s_.tolerance * std::fmax(1.0, std::fabs(expected));
      if (!(diff <= result.max_error)) result.max_error = diff;
      if (!ok) {
        if (first < 0) {
          first = t;
          first_expected = expected;
        }
        ++mismatches;
      }
    }
    if (mismatches > 0) {
      std::ostringstream os;
      os.precision(17);
      os << s_.key << ": " << mismatches << " of " << threads.size()
         << " sampled threads differ from the CPU reference; first thread " << first
         << ": expected " << first_expected << ", got " << (*got)[static_cast<size_t>(first)];
      result.status = InternalError(os.str());
      return result;
    }
    if (s_.accuracy) return s_.accuracy(d_in_.get(), stream);
    return result;
  }

  LaunchShape Shape() const override {
    LaunchShape shape;
    shape.function = s_.kernel;
    shape.grid = dim3(s_.grid);
    shape.block = dim3(s_.block);
    shape.dynamic_shared_bytes = s_.dynamic_shared_bytes;
    return shape;
  }

  Work work() const override { return s_.work; }

 private:
  ComputeSpec s_;
  DeviceBuffer<float> d_in_;
  DeviceBuffer<double> d_out_;
};

}  // namespace

std::unique_ptr<Case> MakeComputeCase(ComputeSpec spec) {
  return std::make_unique<ComputeCase>(std::move(spec));
}

std::vector<int64_t> SampledThreads(int64_t n) {
  constexpr int64_t kSamples = 4096;
  std::vector<int64_t> threads;
  if (n <= kSamples) {
    for (int64_t t = 0; t < n; ++t) threads.push_back(t);
    return threads;
  }
  for (int64_t k = 0; k < kSamples; ++k) threads.push_back(k * n / kSamples);
  threads.push_back(n - 1);
  return threads;
}

}  // namespace warpwatch::kernels::instr_detail
