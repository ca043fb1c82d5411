// Host-side data parallelism for the CPU references and output comparisons of large points: a
// 2^26-element reference computed and compared on one core took 1.3-1.6 s of a point's setup, a
// third of the nightly suite's wall time (docs/noise.md "Nightly budget").
#ifndef WARPWATCH_KERNELS_CORE_PARALLEL_FOR_H_
#define WARPWATCH_KERNELS_CORE_PARALLEL_FOR_H_

#include <cstdint>
#include <functional>

namespace warpwatch::kernels {

// Below this many elements ParallelFor runs `body` on the calling thread: thread start-up would
// cost more than it saves.
inline constexpr int64_t kParallelForMinChunk = int64_t{1} << 20;

// Calls body(part, begin, end) for part = 0 .. ParallelForParts(n) - 1 over disjoint contiguous
// ranges covering [0, n) in part order, on as many threads; returns when all are done. `body` must
// be safe to run concurrently on disjoint ranges and must not throw. n <= 0 calls nothing.
void ParallelFor(int64_t n, const std::function<void(int part, int64_t begin, int64_t end)>& body);

// The number of ranges ParallelFor(n, ...) splits [0, n) into: 1 up to kParallelForMinChunk
// elements, else min(hardware threads, 16, n / kParallelForMinChunk). Callers keep one partial
// result per part.
int ParallelForParts(int64_t n);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_PARALLEL_FOR_H_
