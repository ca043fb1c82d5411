// CPU reference of control.divergence.
#include "kernels/control/divergence/divergence_reference.h"

#include <algorithm>
#include <cstddef>

#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {
namespace {

int64_t CeilToMultiple(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

}  // namespace

std::vector<float> DivergenceReference(DivergenceBranch branch, const std::vector<int64_t>& indices,
                                       uint64_t seed) {
  std::vector<float> out;
  out.reserve(indices.size());
  for (int64_t i : indices) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    out.push_back(DivergenceTakesPathA(branch, i) ? DivergencePathA(x) : DivergencePathB(x));
  }
  return out;
}

std::vector<int64_t> DivergenceVerifiedElements(int64_t n) {
  std::vector<int64_t> picked;
  const int64_t head_end = std::min(n, kDivergenceVerifyEdge);
  const int64_t tail_start = std::max(head_end, n - kDivergenceVerifyEdge);
  for (int64_t i = 0; i < head_end; ++i) picked.push_back(i);
  const int64_t first_strided = CeilToMultiple(head_end, kDivergenceVerifyStride);
  for (int64_t i = first_strided; i < tail_start; i += kDivergenceVerifyStride) picked.push_back(i);
  for (int64_t i = tail_start; i < n; ++i) picked.push_back(i);
  return picked;
}

int64_t DivergencePathACount(DivergenceBranch branch, int64_t n) {
  if (branch == DivergenceBranch::kWarp) {
    // Whole warps 0, 2, 4, ... and the part of a last even warp that exists.
    const int64_t pairs = n / 64;
    const int64_t rest = n % 64;
    return pairs * 32 + (rest < 32 ? rest : 32);
  }
  return (n + 1) / 2;
}

}  // namespace warpwatch::kernels
