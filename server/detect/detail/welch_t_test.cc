// Welch's t-test.
#include "server/detect/detail/welch_t_test.h"

#include <cmath>
#include <limits>

#include "server/detect/detail/distributions.h"

namespace warpwatch::server::detect::detail {
namespace {

void MeanVariance(const std::vector<double>& v, double* mean, double* variance) {
  double sum = 0;
  for (double x : v) sum += x;
  *mean = sum / static_cast<double>(v.size());
  double squares = 0;
  for (double x : v) squares += (x - *mean) * (x - *mean);
  *variance = squares / static_cast<double>(v.size() - 1);
}

}  // namespace

WelchResult WelchTTest(const std::vector<double>& a, const std::vector<double>& b) {
  WelchResult result;
  double mean_a, var_a, mean_b, var_b;
  MeanVariance(a, &mean_a, &var_a);
  MeanVariance(b, &mean_b, &var_b);
  const double se2_a = var_a / static_cast<double>(a.size());
  const double se2_b = var_b / static_cast<double>(b.size());
  const double se2 = se2_a + se2_b;
  if (!(se2 > 0)) {
    result.t = mean_a == mean_b
                   ? 0
                   : std::copysign(std::numeric_limits<double>::infinity(), mean_a - mean_b);
    result.df = static_cast<double>(a.size() + b.size() - 2);
    result.p_value = mean_a == mean_b ? 1 : 0;
    return result;
  }
  result.t = (mean_a - mean_b) / std::sqrt(se2);
  result.df = se2 * se2 /
              (se2_a * se2_a / static_cast<double>(a.size() - 1) +
               se2_b * se2_b / static_cast<double>(b.size() - 1));
  result.p_value = StudentTTwoSidedP(result.t, result.df);
  return result;
}

}  // namespace warpwatch::server::detect::detail
