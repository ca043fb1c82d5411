// Whether a point's event time and its kernels' own GPU time (CUPTI activity records of the same
// samples) agree. CUDA-free.
//
// Measured on the H100 (docs/results/h100_l2_flush.md, docs/results/h100_crosscheck.md): the
// events around Run() read a fixed ~2.5 us more than CUPTI's kernel start-to-end, for every
// kernel from 1 us to 2.3 ms and for one- and two-kernel Runs alike; Nsight Compute's
// gpu__time_duration includes that same overhead (it agrees with the events within 2 % on every
// single-kernel case over 20 us). What the flag is for: time inside the timed region that is not
// the kernels' (the host's launch time when nothing holds the stream: +5.2 us on a 1 us kernel;
// host work or a sync inside Run(); a gap between kernels). It cannot see a dirty L2 flush: the
// write-back then happens while the kernel runs and CUPTI's duration grows with the event time
// (40.5 -> 46.7 us for the 2^24 copy); bench_l2_flush and the ncu cross-check watch for that.
#ifndef WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_
#define WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_

namespace warpwatch::worker {

// event - kernel may exceed the fixed overhead (2.5 us) by a margin of measurement spread.
inline constexpr double kAgreementAbsoluteSeconds = 4.0e-6;
inline constexpr double kAgreementRelative = 0.03;
// Events shorter than the kernels they enclose cannot be right beyond timer granularity.
inline constexpr double kAgreementShortfallSeconds = 1.0e-6;

// event_median / kernel_median - 1; 0 when kernel_median is not positive.
double EventKernelGap(double event_median_seconds, double kernel_median_seconds);

// True when both are known (> 0) and event - kernel > kAgreementAbsoluteSeconds +
// kAgreementRelative * kernel, or kernel - event > kAgreementShortfallSeconds +
// kAgreementRelative * kernel.
bool TimesDisagree(double event_median_seconds, double kernel_median_seconds);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_
