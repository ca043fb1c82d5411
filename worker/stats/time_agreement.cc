// Event time vs kernel time.
#include "worker/stats/time_agreement.h"

#include <cmath>

namespace warpwatch::worker {

double EventKernelGap(double event_median_seconds, double kernel_median_seconds) {
  if (!(kernel_median_seconds > 0)) return 0;
  return event_median_seconds / kernel_median_seconds - 1;
}

bool TimesDisagree(double event_median_seconds, double kernel_median_seconds) {
  if (!(event_median_seconds > 0) || !(kernel_median_seconds > 0)) return false;
  return std::fabs(event_median_seconds - kernel_median_seconds) >
         kAgreementAbsoluteSeconds + kAgreementRelative * kernel_median_seconds;
}

}  // namespace warpwatch::worker
