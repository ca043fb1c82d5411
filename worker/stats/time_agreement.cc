// Event time vs kernel time.
#include "worker/stats/time_agreement.h"

namespace warpwatch::worker {

double EventKernelGap(double event_median_seconds, double kernel_median_seconds) {
  if (!(kernel_median_seconds > 0)) return 0;
  return event_median_seconds / kernel_median_seconds - 1;
}

bool TimesDisagree(double event_median_seconds, double kernel_median_seconds) {
  if (!(event_median_seconds > 0) || !(kernel_median_seconds > 0)) return false;
  const double excess = event_median_seconds - kernel_median_seconds;
  const double slack = kAgreementRelative * kernel_median_seconds;
  return excess > kAgreementAbsoluteSeconds + slack || -excess > kAgreementShortfallSeconds + slack;
}

}  // namespace warpwatch::worker
