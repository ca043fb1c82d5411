// CPU reference of matmul.
#include "kernels/matmul/matmul_reference.h"

#include "kernels/core/seeded_values.h"
#include "kernels/matmul/matmul_kernels.h"

namespace warpwatch::kernels {

float MatmulReferenceEntry(int side, int row, int col) {
  int64_t sum = 0;
  for (int k = 0; k < side; ++k) {
    const uint64_t a_index = static_cast<uint64_t>(row) * side + k;
    const uint64_t b_index = static_cast<uint64_t>(k) * side + col;
    sum += int64_t{SeededInt(kMatmulSeedA, a_index, kMatmulMaxEntry)} *
           SeededInt(kMatmulSeedB, b_index, kMatmulMaxEntry);
  }
  return static_cast<float>(sum);
}

std::vector<std::pair<int, int>> MatmulSampledEntries(int side, int count) {
  std::vector<std::pair<int, int>> entries = {
      {0, 0}, {0, side - 1}, {side - 1, 0}, {side - 1, side - 1}};
  for (int i = 0; i < count; ++i) {
    const uint64_t h = SeededHash(0xc0ffee, static_cast<uint64_t>(i));
    entries.emplace_back(static_cast<int>(h % static_cast<uint64_t>(side)),
                         static_cast<int>((h >> 32) % static_cast<uint64_t>(side)));
  }
  return entries;
}

}  // namespace warpwatch::kernels
