// The case template for the commonest shape of the suite: input buffers filled with the suite's
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
inline Status FillSeeded(float* d_out, size_t n, uint64_t seed, cudaStream_t stream) {
  return FillSeededFloats(d_out, n, seed, stream);
}
inline Status FillSeeded(uint8_t* d_out, size_t n, uint64_t seed, cudaStream_t stream) {
  return FillSeededBytes(d_out, n, seed, stream);
}
inline Status FillSeeded(float* d_out, size_t n, cudaStream_t stream) {
  return FillSeeded(d_out, n, kSeed, stream);
}
inline Status FillSeeded(uint8_t* d_out, size_t n, cudaStream_t stream) {
  return FillSeeded(d_out, n, kSeed, stream);
}

// What the general form of the timed region (ElementwiseSpec::launch) receives: every input, the
// output and the launch. Built once in Setup, so Run allocates nothing.
template <typename In, typename Out>
struct ElementwiseArgs {
  std::vector<const In*> d_in;  // `inputs` buffers of in_count elements each
  Out* d_out = nullptr;
  LaunchShape shape;  // the spec's shape, as prepare left it
};

// Everything that differs between elementwise cases. The callbacks run on the case's thread and
// may capture the family's own configuration by value; none is called before Setup.
template <typename In, typename Out>
struct ElementwiseSpec {
  std::string key;       // the point's canonical key: names buffers and Verify's messages
  size_t in_count = 0;   // elements of each input buffer
  size_t out_count = 0;  // elements of the output buffer
  std::string in_name = "input";
  int inputs = 1;        // input buffers (saxpy's x and y: 2), each allocated on its own

  // Fills input 0 on `stream` (enqueued; Setup waits). Default: FillSeeded with kSeed.
  std::function<Status(In* d_in, size_t count, cudaStream_t stream)> fill;
  // Fills input k (every k, replacing `fill`). Default: FillSeeded with kSeed + k.
  std::function<Status(int k, In* d_in, size_t count, cudaStream_t stream)> fill_input;

  // Optional device-side preparation, called first in Setup before any allocation: launches only
  // the device can size (the occupancy API) set `shape`, which Shape() then reports and `launch`
  // receives; a library handle the timed region needs (cuBLAS) is created here, into state the
  // callbacks share through a captured shared_ptr. An error fails Setup.
  std::function<Status(LaunchShape* shape)> prepare;

  // Optional, called in Setup after the inputs are allocated and before the output is: the
  // family's further buffers (a gather's indices), allocated where its measurements always had
  // them (the order of allocations places buffers in device memory, and a gather's time moved by
  // 0.7 % when its indices were allocated after the output instead of before).
  std::function<Status()> allocate_more;
  // Optional, called at the end of Setup once the buffers are filled (before Setup waits): the
  // family's own resources that need them (a texture object over the input, a scratch buffer, a
  // memory pool), held in state the callbacks share through a captured shared_ptr.
  std::function<Status(const ElementwiseArgs<In, Out>& args, cudaStream_t stream)> finish_setup;

  // The timed region: enqueues exactly one execution on `stream` and checks the launch. One of two
  // forms: `run` (input 0 and the output) or `launch` (ElementwiseArgs: every input, the launch).
  std::function<Status(const In* d_in, Out* d_out, cudaStream_t stream)> run;
  std::function<Status(const ElementwiseArgs<In, Out>& args, cudaStream_t stream)> launch;

  // Setup zeroes the output once (a known non-answer, so a run that writes nothing fails Verify);
  // with this, Reset zeroes it again before every run (outside the timed region).
  bool clear_output_each_run = false;

  // Verification, one of two forms:
  // - `reference`: the whole expected output (out_count elements);
  // - `sample` and `reference_at`: the indices checked and the expected value at each, for
  //   families whose CPU reference is too slow for every element (a mismatch's index counts
  //   within the sample).
  // Compared exactly, or within `tolerance` (CompareWithin) when it is not 0.
  std::function<std::vector<Out>()> reference;
  std::function<std::vector<int64_t>()> sample;
  std::function<std::vector<Out>(const std::vector<int64_t>& picked)> reference_at;
  double tolerance = 0;
  // Optional second check once the output matched (instr.intrinsics' accuracy pass over every
  // input): its result replaces the comparison's.
  std::function<VerifyResult(const In* d_in, cudaStream_t stream)> after_verify;

  bool host_synchronous = false;  // Case::host_synchronous (cudaMalloc/cudaFree in the region)
  LaunchShape shape;  // of the timed region's kernel; function nullptr when it launches none of ours
  Work work;          // useful work of one run
};

// The Case an ElementwiseSpec describes: Setup runs prepare, allocates the inputs and the
// output, fills the inputs, zeroes the output and waits for the stream.
template <typename In, typename Out>
class ElementwiseCase : public Case {
 public:
  explicit ElementwiseCase(ElementwiseSpec<In, Out> spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    if (s_.prepare) RETURN_IF_ERROR(s_.prepare(&s_.shape));
    d_in_.resize(static_cast<size_t>(s_.inputs));
    for (int k = 0; k < s_.inputs; ++k) {
      const std::string name = s_.inputs == 1 ? s_.in_name : s_.in_name + " " + std::to_string(k);
      RETURN_IF_ERROR(d_in_[k].Allocate(s_.in_count, s_.key + " " + name));
    }
    if (s_.allocate_more) RETURN_IF_ERROR(s_.allocate_more());
    RETURN_IF_ERROR(d_out_.Allocate(s_.out_count, s_.key + " output"));
    for (int k = 0; k < s_.inputs; ++k) {
      DeviceBuffer<In>& d = d_in_[static_cast<size_t>(k)];
      if (s_.fill_input) {
        RETURN_IF_ERROR(s_.fill_input(k, d.get(), d.size(), stream));
      } else if (k == 0 && s_.fill) {
        RETURN_IF_ERROR(s_.fill(d.get(), d.size(), stream));
      } else {
        RETURN_IF_ERROR(FillSeeded(d.get(), d.size(), kSeed + static_cast<uint64_t>(k), stream));
      }
    }
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    args_.d_in.clear();
    for (const DeviceBuffer<In>& d : d_in_) args_.d_in.push_back(d.get());
    args_.d_out = d_out_.get();
    args_.shape = s_.shape;
    if (s_.finish_setup) RETURN_IF_ERROR(s_.finish_setup(args_, stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Reset(cudaStream_t stream) override {
    if (s_.clear_output_each_run) {
      CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_out_.get(), 0, d_out_.bytes(), stream));
    }
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override {
    if (s_.launch) return s_.launch(args_, stream);
    return s_.run(d_in_[0].get(), d_out_.get(), stream);
  }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    if (s_.sample) {
      const std::vector<int64_t> picked = s_.sample();
      result = VerifyDeviceSample(d_out_, picked, s_.reference_at(picked), s_.key, stream,
                                  s_.tolerance);
    } else {
      result = VerifyDeviceOutput(d_out_, s_.reference(), s_.key, stream, s_.tolerance);
    }
    if (result.status.ok() && s_.after_verify) return s_.after_verify(d_in_[0].get(), stream);
    return result;
  }

  LaunchShape Shape() const override { return s_.shape; }
  Work work() const override { return s_.work; }
  bool host_synchronous() const override { return s_.host_synchronous; }

 private:
  // The buffers outlive the spec, so state its callbacks share (a texture object over an input)
  // is released before the memory it refers to.
  std::vector<DeviceBuffer<In>> d_in_;
  DeviceBuffer<Out> d_out_;
  ElementwiseArgs<In, Out> args_;
  ElementwiseSpec<In, Out> s_;
};

// MakeCase's return value for an elementwise point. INTERNAL when the spec lacks a timed region
// (or has both forms), a verification, or an input (a family's bug, caught by its CPU test before
// any GPU runs it).
template <typename In, typename Out>
StatusOr<std::unique_ptr<Case>> MakeElementwiseCase(ElementwiseSpec<In, Out> spec) {
  if (!spec.run == !spec.launch) {
    return InternalError(spec.key + ": elementwise spec needs exactly one of run and launch");
  }
  if (!spec.reference && !(spec.sample && spec.reference_at)) {
    return InternalError(spec.key + ": elementwise spec without a reference");
  }
  if (spec.inputs < 1) return InternalError(spec.key + ": elementwise spec without an input");
  return std::unique_ptr<Case>(std::make_unique<ElementwiseCase<In, Out>>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_ELEMENTWISE_CASE_H_
