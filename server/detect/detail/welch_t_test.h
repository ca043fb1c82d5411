// Welch's two-sample t-test (unequal variances): the change-point detector's significance test.
#ifndef WARPWATCH_SERVER_DETECT_DETAIL_WELCH_T_TEST_H_
#define WARPWATCH_SERVER_DETECT_DETAIL_WELCH_T_TEST_H_

#include <vector>

namespace warpwatch::server::detect::detail {

struct WelchResult {
  double t = 0;
  double df = 0;       // Welch-Satterthwaite degrees of freedom
  double p_value = 1;  // two-sided
};

// Preconditions: both sides hold at least 2 finite values. Both variances 0: p = 1 when the means
// are equal, else 0 (two constant, different levels are as different as data can be).
WelchResult WelchTTest(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace warpwatch::server::detect::detail

#endif  // WARPWATCH_SERVER_DETECT_DETAIL_WELCH_T_TEST_H_
