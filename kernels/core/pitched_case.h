// The case template for 2-D kernels over width x height float matrices whose row layout is the
// variant (packed rows or cudaMallocPitch rows, memory.pitch_2d): one seeded input matrix and one
// output matrix of the same size and layout. Setup fills the input (element (y, x) holds
// SeededFloat(seed, y * width + x) in either layout) and zeroes the output; Verify downloads the
// output without its padding and compares it exactly with a packed CPU reference.
#ifndef WARPWATCH_KERNELS_CORE_PITCHED_CASE_H_
#define WARPWATCH_KERNELS_CORE_PITCHED_CASE_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "kernels/core/pitched_matrix.h"
#include "kernels/core/seeded_values.h"
#include "kernels/core/verify.h"

namespace warpwatch::kernels {

// Everything that differs between 2-D cases. Callbacks run on the case's thread, may capture the
// family's configuration by value, and are not called before Setup.
struct PitchedSpec {
  std::string key;  // the point's canonical key: names buffers and Verify's messages
  RowLayout layout = RowLayout::kPitched;
  int64_t width = 0;   // floats per row (>= 1)
  int64_t height = 0;  // rows (>= 1)
  uint64_t seed = kSeed;

  // The timed region: exactly one execution on `stream` (both matrices share a pitch, since they
  // have the same layout and size), launch checked. Required.
  std::function<Status(const PitchedMatrix& in, const PitchedMatrix& out, cudaStream_t stream)>
      run;
  // The expected output, packed (width * height floats, row-major). Required.
  std::function<std::vector<float>()> reference;

  LaunchShape shape;  // of run's kernel
  Work work;          // useful work of one run (the padding is not work)
};

class PitchedCase : public Case {
 public:
  explicit PitchedCase(PitchedSpec spec) : s_(std::move(spec)) {}

  Status Setup(cudaStream_t stream) override {
    RETURN_IF_ERROR(d_in_.Allocate(s_.layout, s_.width, s_.height, s_.key + " input"));
    RETURN_IF_ERROR(d_out_.Allocate(s_.layout, s_.width, s_.height, s_.key + " output"));
    RETURN_IF_ERROR(d_in_.FillSeeded(s_.seed, stream));
    RETURN_IF_ERROR(d_out_.Zero(stream));
    CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
    return OkStatus();
  }

  Status Run(cudaStream_t stream) override { return s_.run(d_in_, d_out_, stream); }

  VerifyResult Verify(cudaStream_t stream) override {
    StatusOr<std::vector<float>> got = d_out_.CopyToHostAfter(stream);
    if (!got.ok()) {
      VerifyResult failed;
      failed.status = got.status().Annotate(s_.key);
      return failed;
    }
    return CompareExact(s_.reference(), *got, s_.key);
  }

  LaunchShape Shape() const override { return s_.shape; }
  Work work() const override { return s_.work; }

 private:
  PitchedSpec s_;
  PitchedMatrix d_in_;
  PitchedMatrix d_out_;
};

// MakeCase's return value for a 2-D point. INTERNAL when the spec lacks run or reference.
inline StatusOr<std::unique_ptr<Case>> MakePitchedCase(PitchedSpec spec) {
  if (!spec.run || !spec.reference) {
    return InternalError(spec.key + ": pitched spec without run or reference");
  }
  return std::unique_ptr<Case>(std::make_unique<PitchedCase>(std::move(spec)));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_PITCHED_CASE_H_
