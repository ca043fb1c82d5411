// Leave-one-out median and MAD from sorted copies: removing one element of a sorted array moves
// the middle by at most one position, so each median without element i is read in O(1).
#include "server/detect/leave_one_out.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

namespace warpwatch::server::detect {
namespace {

// The values in ascending order, and each original element's position in that order (ties keep
// their original order; which of equal values is removed does not change the multiset).
struct Ordering {
  std::vector<double> sorted;
  std::vector<size_t> rank;  // rank[i]: position of element i in `sorted`
};

Ordering Order(const std::vector<double>& values) {
  std::vector<size_t> by_value(values.size());
  std::iota(by_value.begin(), by_value.end(), size_t{0});
  std::stable_sort(by_value.begin(), by_value.end(),
                   [&](size_t a, size_t b) { return values[a] < values[b]; });
  Ordering o;
  o.sorted.reserve(values.size());
  o.rank.resize(values.size());
  for (size_t k = 0; k < by_value.size(); ++k) {
    o.sorted.push_back(values[by_value[k]]);
    o.rank[by_value[k]] = k;
  }
  return o;
}

// Median of `sorted` without the element at position `removed`, with Median()'s arithmetic (the
// upper middle for an odd count, lower + (upper - lower) / 2 for an even one).
double MedianWithout(const std::vector<double>& sorted, size_t removed) {
  const size_t n = sorted.size() - 1;
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();
  auto at = [&](size_t k) { return sorted[k < removed ? k : k + 1]; };
  const size_t mid = n / 2;
  const double upper = at(mid);
  if (n % 2 == 1) return upper;
  const double lower = at(mid - 1);
  return lower + (upper - lower) / 2;
}

// The ordered absolute deviations of every value from one centre.
struct Deviations {
  double center = 0;
  Ordering order;
};

}  // namespace

std::vector<RobustScale> LeaveOneOutScales(const std::vector<double>& values,
                                           double relative_floor) {
  std::vector<RobustScale> out;
  if (values.empty()) return out;
  if (values.size() == 1) {
    out.push_back(RobustScaleOf({}, relative_floor));
    return out;
  }
  const Ordering order = Order(values);
  std::vector<Deviations> by_center;  // at most three distinct centres
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double center = MedianWithout(order.sorted, order.rank[i]);
    auto it = std::find_if(by_center.begin(), by_center.end(),
                           [&](const Deviations& d) { return d.center == center; });
    if (it == by_center.end()) {
      std::vector<double> deviations;
      deviations.reserve(values.size());
      for (double v : values) deviations.push_back(std::fabs(v - center));
      by_center.push_back({center, Order(deviations)});
      it = by_center.end() - 1;
    }
    const double mad = MedianWithout(it->order.sorted, it->order.rank[i]);
    out.push_back(ScaleFrom(center, mad, relative_floor));
  }
  return out;
}

}  // namespace warpwatch::server::detect
