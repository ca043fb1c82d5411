// q-hat of E-divisive means, O(n^2) per interval through prefix sums of the distance matrix.
#include "server/detect/detail/energy_statistic.h"

#include <cmath>

namespace warpwatch::server::detect::detail {

DistancePrefix::DistancePrefix(const std::vector<double>& series)
    : stride_(series.size() + 1), sums_(series.size() * (series.size() + 1), 0) {
  for (size_t k = 0; k < series.size(); ++k) {
    double* row = &sums_[k * stride_];
    for (size_t i = 0; i < series.size(); ++i)
      row[i + 1] = row[i] + std::fabs(series[i] - series[k]);
  }
}

std::optional<SplitCandidate> BestSplit(const DistancePrefix& distances, size_t begin, size_t end,
                                        size_t min_segment) {
  if (min_segment < 1 || end < begin || end - begin < 2 * min_segment) return std::nullopt;
  std::optional<SplitCandidate> best;
  double within_x = 0;  // sum over pairs inside [begin, tau)
  for (size_t tau = begin + 1; tau + min_segment <= end; ++tau) {
    within_x += distances.Range(tau - 1, begin, tau - 1);
    if (tau - begin < min_segment) continue;
    const double n = static_cast<double>(tau - begin);
    double between = 0;   // sum |X_i - Y_j| for Y = [tau, kappa)
    double within_y = 0;  // sum over pairs inside [tau, kappa)
    for (size_t kappa = tau + 1; kappa <= end; ++kappa) {
      const size_t last = kappa - 1;  // the point Y gains
      between += distances.Range(last, begin, tau);
      within_y += distances.Range(last, tau, last);
      if (kappa - tau < min_segment) continue;
      const double m = static_cast<double>(kappa - tau);
      double q = 2 / (n + m) * between;
      if (n > 1) q -= 2 * m / ((n + m) * (n - 1)) * within_x;
      if (m > 1) q -= 2 * n / ((n + m) * (m - 1)) * within_y;
      if (!best || q > best->q_hat) best = SplitCandidate{tau, q};
    }
  }
  return best;
}

}  // namespace warpwatch::server::detect::detail
