// CPU reference of control.divergence.
#include "kernels/control/divergence/divergence_reference.h"

#include <cstddef>

#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> DivergenceReference(DivergenceBranch branch, int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    out[static_cast<size_t>(i)] =
        DivergenceTakesPathA(branch, i) ? DivergencePathA(x) : DivergencePathB(x);
  }
  return out;
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
