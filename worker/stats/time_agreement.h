// Whether a point's event time and its kernels' own GPU time (CUPTI) agree. CUDA-free.
//
// The events around Run() measure more than the kernels: the event records themselves and the
// gaps between the kernels of a multi-kernel Run(). With the clean L2 flush and the blocking
// kernel, the H100 shows that as a small fixed amount (docs/results/h100_crosscheck.md); what it
// must never show again is the 5-7 us (up to 25 %) of a dirty-L2 write-back landing inside the
// timed region. The threshold is the fixed part plus a relative part: a sample of a few us may
// differ by a us, a sample of 50 us may not differ by 5.
#ifndef WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_
#define WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_

namespace warpwatch::worker {

inline constexpr double kAgreementAbsoluteSeconds = 1.5e-6;
inline constexpr double kAgreementRelative = 0.03;

// event_median / kernel_median - 1; 0 when kernel_median is not positive.
double EventKernelGap(double event_median_seconds, double kernel_median_seconds);

// True when both are known (> 0) and |event - kernel| > kAgreementAbsoluteSeconds +
// kAgreementRelative * kernel.
bool TimesDisagree(double event_median_seconds, double kernel_median_seconds);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_TIME_AGREEMENT_H_
