// CPU reference of concurrency.streams, and the overlap figure its report quotes.
#ifndef WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_REFERENCE_H_
#define WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_REFERENCE_H_

#include <cstdint>

namespace warpwatch::kernels {

// Element i's result for input SeededFloat(seed, i) after `iterations` steps (exact: std::fma).
float StreamWorkReference(uint64_t seed, int64_t i, int iterations);

// On an H100 (n = 2^24, 4 streams, PCIe 5): the pipeline went from 3.22 ms to 1.84 ms, 0.43 of
// the serial time hidden (copy in 1.23 ms, kernel 0.75 ms, copy out 1.23 ms: 0.46 at best with 4
// chunks); the small kernels from 1.23 ms to 0.32 ms, 0.74 hidden.
//
// The share of the serial time that running in streams hid: 1 - overlapped / serial (0 when
// nothing overlapped, 1 - 1/N when N equal stages overlapped perfectly). 0 for non-positive
// inputs.
double HiddenFraction(double serial_seconds, double overlapped_seconds);

// [begin, end) of chunk k of n elements split over `chunks` (the first n % chunks get one more).
void ChunkRange(int64_t n, int chunks, int k, int64_t* begin, int64_t* end);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONCURRENCY_STREAMS_STREAMS_REFERENCE_H_
