// The case template for reductions: one input buffer filled by the family, one device scalar the
// timed region leaves the result in (cleared before every run, so a run that writes nothing fails
// Verify), and the scratch buffers its passes need (block sums, a ticket counter, a library's
// temporary storage). The passes' launches may be fixed in MakeCase or chosen on the device in
// Setup (the occupancy API). Verify compares the scalar with a CPU reference.
#ifndef WARPWATCH_KERNELS_CORE_REDUCTION_CASE_H_
#define WARPWATCH_KERNELS_CORE_REDUCTION_CASE_H_

#include <cuda_runtime_api.h>

#include <cmath>
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
#include "kernels/core/verify.h"

namespace warpwatch::kernels {

// One scratch allocation of the timed region, beside the input and the result.
struct ScratchBuffer {
  std::string name;             // in allocation errors
  size_t bytes = 0;
  bool clear_each_run = false;  // zeroed with the result before every run (ticket counters)
};

// The passes of one reduction: launches[0] is the kernel Shape() reports (occupancy), the others
// the later passes' (a final pass over block sums); scratch in allocation order; work of one run.
struct ReductionPlan {
  std::vector<LaunchShape> launches{LaunchShape{}};
  std::vector<ScratchBuffer> scratch;
  Work work;
};

// What the timed region receives. Built once in Setup, so Run allocates nothing.
template <typename T, typename R>
struct ReductionArgs {
  T* d_in = nullptr;            // mutable: in-place reductions (restore_each_run)
  int64_t n = 0;                // elements of d_in
  R* d_result = nullptr;        // one R
  std::vector<void*> d_scratch; // plan.scratch's buffers, in order
  ReductionPlan plan;
};

// Everything that differs between reductions. Callbacks run on the case's thread, may capture the
// family's configuration by value, and are not called before Setup.
template <typename T, typename R>
struct ReductionSpec {
  std::string key;  // the point's canonical key: names buffers and Verify's messages
  int64_t n = 0;    // input elements (>= 1)
  std::string in_name = "input";
  std::string result_name = "result";  // Verify's message: "<key>: <result_name>: expected .."

  // Fills the input on `stream` (enqueued). Required.
  std::function<Status(T* d_in, size_t count, cudaStream_t stream)> fill;
  // The timed region overwrites the input (the book's in-place trees): Reset refills it.
  bool restore_each_run = false;

  ReductionPlan plan;
  // Optional: called first in Setup, before any allocation, for launches only the device can size.
  std::function<Status(ReductionPlan* plan)> choose_plan;

  // The timed region: enqueues exactly one reduction of d_in into *d_result and checks launches.
  std::function<Status(const ReductionArgs<T, R>& args, cudaStream_t stream)> run;
  // The exact result, computed on the CPU from the same seeded input. Required.
  std::function<R()> expected;
};

template <typename T, typename R>
class ReductionCase : public Case {
 public:
  explicit ReductionCase(ReductionSpec<T, R> spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    if (s_.choose_plan) RETURN_IF_ERROR(s_.choose_plan(&s_.plan));
    RETURN_IF_ERROR(d_in_.Allocate(static_cast<size_t>(s_.n), s_.key + " " + s_.in_name));
    RETURN_IF_ERROR(d_result_.Allocate(1, s_.key + " result"));
    d_scratch_.resize(s_.plan.scratch.size());
    for (size_t k = 0; k < d_scratch_.size(); ++k) {
      const ScratchBuffer& b = s_.plan.scratch[k];
      RETURN_IF_ERROR(d_scratch_[k].Allocate(b.bytes, s_.key + " " + b.name));
    }
    RETURN_IF_ERROR(s_.fill(d_in_.get(), d_in_.size(), stream));
    RETURN_IF_ERROR(ClearResult(stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    args_.d_in = d_in_.get();
    args_.n = s_.n;
    args_.d_result = d_result_.get();
    args_.d_scratch.clear();
    for (const DeviceBuffer<uint8_t>& b : d_scratch_) args_.d_scratch.push_back(b.get());
    args_.plan = s_.plan;
    return OkStatus();
  }

  Status Reset(cudaStream_t stream) override {
    if (s_.restore_each_run) RETURN_IF_ERROR(s_.fill(d_in_.get(), d_in_.size(), stream));
    return ClearResult(stream);
  }

  Status Run(cudaStream_t stream) override { return s_.run(args_, stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    VerifyResult result;
    StatusOr<std::vector<R>> got = DownloadAfter(d_result_, 1, s_.key, stream);
    if (!got.ok()) {
      result.status = got.status();
      return result;
    }
    const R expected = s_.expected();
    const R actual = (*got)[0];
    if (!(actual == expected)) {
      result.max_error = std::fabs(static_cast<double>(actual) - static_cast<double>(expected));
      result.status = InternalError(s_.key + ": " + s_.result_name + ": expected " +
                                    FormatElement(expected) + ", got " + FormatElement(actual));
    }
    return result;
  }

  LaunchShape Shape() const override { return s_.plan.launches.at(0); }
  Work work() const override { return s_.plan.work; }

 private:
  Status ClearResult(cudaStream_t stream) {
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_result_.get(), 0, d_result_.bytes(), stream));
    for (size_t k = 0; k < d_scratch_.size(); ++k) {
      if (!s_.plan.scratch[k].clear_each_run) continue;
      CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_scratch_[k].get(), 0, d_scratch_[k].bytes(), stream));
    }
    return OkStatus();
  }

  ReductionSpec<T, R> s_;
  DeviceBuffer<T> d_in_;
  DeviceBuffer<R> d_result_;
  std::vector<DeviceBuffer<uint8_t>> d_scratch_;
  ReductionArgs<T, R> args_;
};

// MakeCase's return value for a reduction point. INTERNAL when the spec lacks fill, run or
// expected, or its plan has no launch (a family's bug, caught by its CPU test).
template <typename T, typename R>
StatusOr<std::unique_ptr<Case>> MakeReductionCase(ReductionSpec<T, R> spec) {
  if (!spec.fill || !spec.run || !spec.expected) {
    return InternalError(spec.key + ": reduction spec without fill, run or expected");
  }
  if (spec.plan.launches.empty()) return InternalError(spec.key + ": reduction plan without a launch");
  return std::unique_ptr<Case>(std::make_unique<ReductionCase<T, R>>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_REDUCTION_CASE_H_
