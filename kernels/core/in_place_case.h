// The case template for kernels that update one buffer in place (memory.aos_soa's particles):
// Setup allocates and fills it, Reset restores what the timed region overwrote before every run
// (outside the timed region, so each sample starts from the same input), Verify compares the whole
// buffer, or a sample of it, with a CPU reference of one run from the filled state.
#ifndef WARPWATCH_KERNELS_CORE_IN_PLACE_CASE_H_
#define WARPWATCH_KERNELS_CORE_IN_PLACE_CASE_H_

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
#include "kernels/core/verify.h"

namespace warpwatch::kernels {

// Everything that differs between in-place cases. Callbacks run on the case's thread, may capture
// the family's configuration by value, and are not called before Setup.
template <typename T>
struct InPlaceSpec {
  std::string key;             // the point's canonical key: names the buffer and Verify's messages
  size_t count = 0;            // elements of the buffer
  std::string name = "data";   // the buffer's name in allocation errors

  // Fills the whole buffer on `stream` in Setup (enqueued; Setup waits). Required.
  std::function<Status(T* d_data, size_t count, cudaStream_t stream)> fill;
  // Enqueues the restore of what one run overwrites (Reset, before every run). Default: `fill`.
  std::function<Status(T* d_data, size_t count, cudaStream_t stream)> restore;
  // The timed region: exactly one execution on `stream`, launch checked. Required.
  std::function<Status(T* d_data, cudaStream_t stream)> run;

  // The expected buffer after one run: whole (`reference`) or sampled (`sample` + `reference_at`,
  // as ElementwiseSpec has them); compared exactly.
  std::function<std::vector<T>()> reference;
  std::function<std::vector<int64_t>()> sample;
  std::function<std::vector<T>(const std::vector<int64_t>& picked)> reference_at;

  LaunchShape shape;  // of run's kernel
  Work work;          // useful work of one run
};

template <typename T>
class InPlaceCase : public Case {
 public:
  explicit InPlaceCase(InPlaceSpec<T> spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_data_.Allocate(s_.count, s_.key + " " + s_.name));
    RETURN_IF_ERROR(s_.fill(d_data_.get(), d_data_.size(), stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Reset(cudaStream_t stream) override {
    if (s_.restore) return s_.restore(d_data_.get(), d_data_.size(), stream);
    return s_.fill(d_data_.get(), d_data_.size(), stream);
  }

  Status Run(cudaStream_t stream) override { return s_.run(d_data_.get(), stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    if (s_.sample) {
      const std::vector<int64_t> picked = s_.sample();
      return VerifyDeviceSample(d_data_, picked, s_.reference_at(picked), s_.key, stream);
    }
    return VerifyDeviceOutput(d_data_, s_.reference(), s_.key, stream);
  }

  LaunchShape Shape() const override { return s_.shape; }
  Work work() const override { return s_.work; }

 private:
  InPlaceSpec<T> s_;
  DeviceBuffer<T> d_data_;
};

// MakeCase's return value for an in-place point. INTERNAL when the spec lacks fill, run or a
// reference (a family's bug, caught by its CPU test).
template <typename T>
StatusOr<std::unique_ptr<Case>> MakeInPlaceCase(InPlaceSpec<T> spec) {
  if (!spec.fill || !spec.run) return InternalError(spec.key + ": in-place spec without fill or run");
  if (!spec.reference && !(spec.sample && spec.reference_at)) {
    return InternalError(spec.key + ": in-place spec without a reference");
  }
  return std::unique_ptr<Case>(std::make_unique<InPlaceCase<T>>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_IN_PLACE_CASE_H_
