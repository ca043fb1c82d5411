// The case template for the commonest shape of the suite: one input buffer filled with the suite's
// seeded values, one output buffer the timed region writes, verified against a CPU reference of
// the whole output or of a sample of it. A family describes its point as an ElementwiseSpec in
// MakeCase (buffer sizes, the launch, the reference, shape and work) and MakeElementwiseCase
// builds the Case; Setup, Run, Verify and the buffers' lifetimes are written here once.
#ifndef WARPWATCH_KERNELS_CORE_ELEMENTWISE_CASE_H_
#define WARPWATCH_KERNELS_CORE_ELEMENTWISE_CASE_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/device_buffer.h"
#include "kernels/core/family.h"
#include "kernels/core/seeded_fill.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"

namespace warpwatch::kernels {

// FillSeeded{Floats,Bytes} by element type, with the suite's seed: the default input fill.
inline Status FillSeeded(float* d_out, size_t n, cudaStream_t stream) {
  return FillSeededFloats(d_out, n, kSeed, stream);
}
inline Status FillSeeded(uint8_t* d_out, size_t n, cudaStream_t stream) {
  return FillSeededBytes(d_out, n, kSeed, stream);
}

// Everything that differs between elementwise cases. The callbacks run on the case's thread and
// may capture the family's own configuration by value; none is called before Setup.
template <typename In, typename Out>
struct ElementwiseSpec {
  std::string key;       // the point's canonical key: names buffers and Verify's messages
  size_t in_count = 0;   // elements of the input buffer
  size_t out_count = 0;  // elements of the output buffer
  std::string in_name = "input";

  // Fills the input on `stream` (enqueued; Setup waits). Default: FillSeeded with kSeed.
  std::function<Status(In* d_in, size_t count, cudaStream_t stream)> fill;

  // The timed region: enqueues exactly one execution on `stream` and checks the launch.
  std::function<Status(const In* d_in, Out* d_out, cudaStream_t stream)> run;

  // Verification, one of two forms:
  // - `reference`: the whole expected output (out_count elements), compared exactly;
  // - `sample` and `reference_at`: the indices checked and the expected value at each, for
  //   families whose CPU reference is too slow for every element (compared exactly; a mismatch's
  //   index counts within the sample).
  std::function<std::vector<Out>()> reference;
  std::function<std::vector<int64_t>()> sample;
  std::function<std::vector<Out>(const std::vector<int64_t>& picked)> reference_at;

  LaunchShape shape;  // of run's kernel; function nullptr when it launches none of ours
  Work work;          // useful work of one run
};

// The Case an ElementwiseSpec describes. Setup allocates both buffers, fills the input, zeroes the
// output (a known non-answer, so a run that writes nothing fails Verify) and waits for the stream.
template <typename In, typename Out>
class ElementwiseCase : public Case {
 public:
  explicit ElementwiseCase(ElementwiseSpec<In, Out> spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(s_.in_count, s_.key + " " + s_.in_name));
    RETURN_IF_ERROR(d_out_.Allocate(s_.out_count, s_.key + " output"));
    if (s_.fill) {
      RETURN_IF_ERROR(s_.fill(d_in_.get(), d_in_.size(), stream));
    } else {
      RETURN_IF_ERROR(FillSeeded(d_in_.get(), d_in_.size(), stream));
    }
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override { return s_.run(d_in_.get(), d_out_.get(), stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    if (s_.sample) {
      const std::vector<int64_t> picked = s_.sample();
      return VerifyDeviceSample(d_out_, picked, s_.reference_at(picked), s_.key, stream);
    }
    return VerifyDeviceOutput(d_out_, s_.reference(), s_.key, stream);
  }

  LaunchShape Shape() const override { return s_.shape; }
  Work work() const override { return s_.work; }

 private:
  ElementwiseSpec<In, Out> s_;
  DeviceBuffer<In> d_in_;
  DeviceBuffer<Out> d_out_;
};

// MakeCase's return value for an elementwise point. INTERNAL when the spec lacks `run` or a
// verification (a family's bug, caught by its CPU test before any GPU runs it).
template <typename In, typename Out>
StatusOr<std::unique_ptr<Case>> MakeElementwiseCase(ElementwiseSpec<In, Out> spec) {
  if (!spec.run) return InternalError(spec.key + ": elementwise spec without run");
  if (!spec.reference && !(spec.sample && spec.reference_at)) {
    return InternalError(spec.key + ": elementwise spec without a reference");
  }
  return std::unique_ptr<Case>(std::make_unique<ElementwiseCase<In, Out>>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_ELEMENTWISE_CASE_H_
