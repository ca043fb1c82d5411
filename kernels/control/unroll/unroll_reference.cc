// CPU reference of control.unroll.
#include "kernels/control/unroll/unroll_reference.h"

#include <algorithm>
#include <cstddef>

#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> UnrollReference(const std::vector<int64_t>& indices, uint64_t seed) {
  std::vector<float> out;
  out.reserve(indices.size());
  for (int64_t i : indices) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    float y = x;
    for (int rep = 0; rep < kUnrollOuterReps; ++rep) {
      for (int k = 0; k < kUnrollInnerSteps; ++k) y = UnrollStep(y, x, k);
    }
    out.push_back(y);
  }
  return out;
}

std::vector<int64_t> UnrollVerifiedElements(int64_t n) {
  std::vector<int64_t> picked;
  const int64_t head_end = std::min(n, kUnrollVerifyEdge);
  const int64_t tail_start = std::max(head_end, n - kUnrollVerifyEdge);
  for (int64_t i = 0; i < head_end; ++i) picked.push_back(i);
  const int64_t first_strided =
      (head_end + kUnrollVerifyStride - 1) / kUnrollVerifyStride * kUnrollVerifyStride;
  for (int64_t i = first_strided; i < tail_start; i += kUnrollVerifyStride) picked.push_back(i);
  for (int64_t i = tail_start; i < n; ++i) picked.push_back(i);
  return picked;
}

}  // namespace warpwatch::kernels
