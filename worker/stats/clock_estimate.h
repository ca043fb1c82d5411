// Per-sample SM clock from the clock stamps around each sample (cycles and nanoseconds of one
// SM between a stamp before the start event and one after the stop event). CUDA-free.
//
// %globaltimer advances in steps of up to 1 us on current GPUs (32 ns on some, and while a
// profiler is attached), so the interval of a 10 us sample is known to ~10 %: consecutive samples
// are pooled until their intervals add up to `min_window_ns`, and every sample of a pool gets the
// pool's cycles / ns. A sample of its own >= min_window_ns is its own pool.
#ifndef WARPWATCH_WORKER_STATS_CLOCK_ESTIMATE_H_
#define WARPWATCH_WORKER_STATS_CLOCK_ESTIMATE_H_

#include <vector>

namespace warpwatch::worker {

// 200 us: +-0.5 % at a 1 us timer step.
inline constexpr double kClockWindowNs = 200e3;

// `cycles` and `ns` have one entry per sample; an entry with ns <= 0 or cycles <= 0 is unknown
// and gets 0 MHz without joining a pool. A last pool shorter than the window joins the one before
// it when there is one. Returns MHz per sample.
std::vector<double> EstimateSampleClocksMhz(const std::vector<double>& cycles,
                                            const std::vector<double>& ns,
                                            double min_window_ns = kClockWindowNs);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_CLOCK_ESTIMATE_H_
