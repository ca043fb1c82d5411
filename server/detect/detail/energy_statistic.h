// E-divisive means' divergence (Matteson & James 2014, as Apache Otava computes it): the best
// split of an interval of a series and its q-hat statistic.
#ifndef WARPWATCH_SERVER_DETECT_DETAIL_ENERGY_STATISTIC_H_
#define WARPWATCH_SERVER_DETECT_DETAIL_ENERGY_STATISTIC_H_

#include <cstddef>
#include <optional>
#include <vector>

namespace warpwatch::server::detect::detail {

// Pairwise |z_i - z_k| summed by prefix: Sum(k, b) = sum over i < b of |z_i - z_k|. O(n^2) memory,
// built once per series (and once per permutation).
class DistancePrefix {
 public:
  explicit DistancePrefix(const std::vector<double>& series);
  // sum over i in [begin, end) of |z_i - z_k|.
  double Range(size_t k, size_t begin, size_t end) const {
    return sums_[k * stride_ + end] - sums_[k * stride_ + begin];
  }

 private:
  size_t stride_;
  std::vector<double> sums_;
};

struct SplitCandidate {
  size_t index = 0;  // tau: first point of the right-hand segment
  double q_hat = 0;
};

// For X = z[begin, tau), Y = z[tau, kappa) with begin < tau < kappa <= end and both segments at
// least `min_segment` long, maximises
//   Q = 2/(n+m) sum|X_i - Y_j| - 2m/((n+m)(n-1)) sum_{i<k}|X_i - X_k|
//                              - 2n/((n+m)(m-1)) sum_{j<k}|Y_j - Y_k|,  n = |X|, m = |Y|
// and returns (tau, Q). None when the interval is shorter than 2 * min_segment. O((end-begin)^2).
std::optional<SplitCandidate> BestSplit(const DistancePrefix& distances, size_t begin, size_t end,
                                        size_t min_segment);

}  // namespace warpwatch::server::detect::detail

#endif  // WARPWATCH_SERVER_DETECT_DETAIL_ENERGY_STATISTIC_H_
