// CPU reference of memory.local.
#include "kernels/memory/local/local_reference.h"

#include <algorithm>
#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/memory/local/local_array.h"

namespace warpwatch::kernels {

std::vector<float> LocalReference(const std::vector<int64_t>& indices, int size, uint64_t seed) {
  std::vector<float> out;
  out.reserve(indices.size());
  std::vector<float> a(static_cast<size_t>(size));
  for (int64_t i : indices) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    for (int k = 0; k < size; ++k) a[static_cast<size_t>(k)] = LocalArrayElement(x, k);
    float acc = 0.0f;
    for (int round = 0; round < kLocalRounds; ++round) {
      for (int j = 0; j < size; ++j) {
        acc = LocalFoldStep(acc, a[static_cast<size_t>((j + round + kLocalShift) % size)]);
      }
    }
    out.push_back(acc);
  }
  return out;
}

std::vector<int64_t> LocalVerifiedElements(int64_t n) {
  std::vector<int64_t> picked;
  const int64_t head_end = std::min(n, kLocalVerifyEdge);
  const int64_t tail_start = std::max(head_end, n - kLocalVerifyEdge);
  for (int64_t i = 0; i < head_end; ++i) picked.push_back(i);
  const int64_t first_strided =
      (head_end + kLocalVerifyStride - 1) / kLocalVerifyStride * kLocalVerifyStride;
  for (int64_t i = first_strided; i < tail_start; i += kLocalVerifyStride) picked.push_back(i);
  for (int64_t i = tail_start; i < n; ++i) picked.push_back(i);
  return picked;
}

}  // namespace warpwatch::kernels
