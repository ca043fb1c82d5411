// Published time vs kernel time.
#include "worker/stats/time_agreement.h"

#include <cmath>

namespace warpwatch::worker {

double TracingCost(double headline_seconds, double traced_event_seconds) {
  if (!(headline_seconds > 0) || !(traced_event_seconds > 0)) return 0;
  return traced_event_seconds / headline_seconds - 1;
}

double EventKernelGap(double event_seconds, double kernel_seconds) {
  if (!(kernel_seconds > 0)) return 0;
  return event_seconds / kernel_seconds - 1;
}

bool TimesDisagree(double event_seconds, double kernel_seconds) {
  if (!(event_seconds > 0) || !(kernel_seconds > 0)) return false;
  const double off = event_seconds - kernel_seconds - kEventOverheadSeconds;
  return std::fabs(off) > kAgreementAbsoluteSeconds + kAgreementRelative * kernel_seconds;
}

TimeAgreement CompareWithKernels(double headline_seconds, double traced_event_seconds,
                                 double kernel_seconds) {
  TimeAgreement a;
  a.tracing_cost = TracingCost(headline_seconds, traced_event_seconds);
  a.against_headline = headline_seconds > 0 && std::fabs(a.tracing_cost) <= kMaxTracingCost;
  const double event = a.against_headline ? headline_seconds : traced_event_seconds;
  a.gap = EventKernelGap(event, kernel_seconds);
  a.disagree = TimesDisagree(event, kernel_seconds);
  return a;
}

}  // namespace warpwatch::worker
