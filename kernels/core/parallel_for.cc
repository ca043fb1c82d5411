// Host-side data parallelism for CPU references.
#include "kernels/core/parallel_for.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace warpwatch::kernels {

int ParallelForParts(int64_t n) {
  if (n <= kParallelForMinChunk) return 1;
  const int64_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const int64_t by_size = n / kParallelForMinChunk;
  return static_cast<int>(std::clamp<int64_t>(std::min(hardware, by_size), 1, 16));
}

void ParallelFor(int64_t n, const std::function<void(int part, int64_t begin, int64_t end)>& body) {
  if (n <= 0) return;
  const int parts = ParallelForParts(n);
  if (parts == 1) {
    body(0, 0, n);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(static_cast<size_t>(parts - 1));
  for (int k = 1; k < parts; ++k) {
    threads.emplace_back(body, k, k * n / parts, (k + 1) * n / parts);
  }
  body(0, 0, n / parts);
  for (auto& t : threads) t.join();
}

}  // namespace warpwatch::kernels
