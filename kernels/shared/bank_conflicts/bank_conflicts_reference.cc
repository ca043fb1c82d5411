// CPU reference of shared.bank_conflicts.
#include "kernels/shared/bank_conflicts/bank_conflicts_reference.h"

#include <array>
#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"

namespace warpwatch::kernels {

std::vector<float> BankConflictsReference(int64_t threads, int stride, uint64_t seed) {
  // A thread's sum depends only on its lane.
  std::array<float, 32> lane_sum{};
  for (int lane = 0; lane < 32; ++lane) {
    float sum = 0.0f;
    for (int j = 0; j < kBankOuterSteps; ++j) {
      for (int k = 0; k < kBankInnerReads; ++k) {
        sum += SeededFloat(seed, static_cast<uint64_t>(BankWord(lane, stride, j, k)));
      }
    }
    lane_sum[static_cast<size_t>(lane)] = sum;
  }
  std::vector<float> out(static_cast<size_t>(threads));
  for (int64_t t = 0; t < threads; ++t) out[static_cast<size_t>(t)] = lane_sum[t % 32];
  return out;
}

}  // namespace warpwatch::kernels
