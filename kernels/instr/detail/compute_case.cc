// The instr.* families' shared Case, on the elementwise template: n seeded floats in, n doubles
// out (cleared before every run), a sample of the threads verified within the spec's tolerance.
#include "kernels/instr/detail/compute_case.h"

#include <utility>
#include <vector>

#include "kernels/core/elementwise_case.h"

namespace warpwatch::kernels::instr_detail {

StatusOr<std::unique_ptr<Case>> MakeComputeCase(ComputeSpec spec) {
  const int64_t n = spec.n;
  const bool spec_has_reference = static_cast<bool>(spec.reference);
  ElementwiseSpec<float, double> s;
  s.key = spec.key;
  s.in_count = s.out_count = static_cast<size_t>(n);
  s.run = std::move(spec.launch);
  // A known non-answer (all-zero bytes) before every run, so a kernel that stores nothing fails.
  s.clear_output_each_run = true;
  s.sample = [n] { return SampledThreads(n); };
  s.reference_at = [reference = std::move(spec.reference)](const std::vector<int64_t>& picked) {
    std::vector<double> expected;
    expected.reserve(picked.size());
    for (int64_t t : picked) expected.push_back(reference(t));
    return expected;
  };
  s.tolerance = spec.tolerance;
  s.after_verify = std::move(spec.accuracy);
  s.shape.function = spec.kernel;
  s.shape.grid = dim3(spec.grid);
  s.shape.block = dim3(spec.block);
  s.shape.dynamic_shared_bytes = spec.dynamic_shared_bytes;
  s.work = spec.work;
  if (!s.run || !spec_has_reference) {
    return InternalError(s.key + ": compute spec without launch or reference");
  }
  return MakeElementwiseCase(std::move(s));
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
