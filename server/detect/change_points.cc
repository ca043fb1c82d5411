// E-divisive means with a t-test or seeded permutation test.
#include "server/detect/change_points.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>

#include "server/detect/detail/energy_statistic.h"
#include "server/detect/detail/welch_t_test.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {
namespace {

struct Interval {
  size_t begin;
  size_t end;
};

struct Found {
  detail::SplitCandidate split;
  size_t interval;  // index into the interval list
};

std::vector<double> Slice(const std::vector<double>& v, size_t begin, size_t end) {
  return std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(begin),
                             v.begin() + static_cast<std::ptrdiff_t>(end));
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

// The best split over all intervals (largest q-hat).
std::optional<Found> BestOverIntervals(const detail::DistancePrefix& distances,
                                       const std::vector<Interval>& intervals, size_t min_segment) {
  std::optional<Found> best;
  for (size_t i = 0; i < intervals.size(); ++i) {
    auto split = detail::BestSplit(distances, intervals[i].begin, intervals[i].end, min_segment);
    if (split && (!best || split->q_hat > best->split.q_hat)) best = Found{*split, i};
  }
  return best;
}

// Uniform integer in [0, bound) from mt19937_64 by rejection: the same on every standard library
// (std::uniform_int_distribution and std::shuffle are not).
uint64_t Below(std::mt19937_64& rng, uint64_t bound) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % bound;
}

double PermutationP(const std::vector<double>& series, const std::vector<Interval>& intervals,
                    double q_hat, const ChangePointConfig& config, std::mt19937_64& rng) {
  size_t at_least = 0;
  std::vector<double> shuffled = series;
  for (size_t p = 0; p < config.permutations; ++p) {
    for (const Interval& in : intervals) {  // Fisher-Yates inside each interval
      for (size_t i = in.end - 1; i > in.begin; --i) {
        std::swap(shuffled[i], shuffled[in.begin + Below(rng, i - in.begin + 1)]);
      }
    }
    const detail::DistancePrefix distances(shuffled);
    const auto best = BestOverIntervals(distances, intervals, config.min_segment);
    if (best && best->split.q_hat >= q_hat) ++at_least;
  }
  return static_cast<double>(at_least + 1) / static_cast<double>(config.permutations + 1);
}

Status CheckInput(const std::vector<double>& series, const ChangePointConfig& config) {
  if (config.min_segment < 2)
    return InvalidArgumentError("change points: min_segment must be >= 2");
  if (config.test == ChangePointTest::kPermutation && config.permutations == 0) {
    return InvalidArgumentError("change points: permutation test with 0 permutations");
  }
  if (series.size() > config.max_points) {
    return InvalidArgumentError("change points: " + std::to_string(series.size()) +
                                " points, at most " + std::to_string(config.max_points));
  }
  for (size_t i = 0; i < series.size(); ++i) {
    if (!std::isfinite(series[i])) {
      return InvalidArgumentError("change points: value " + std::to_string(i) + " is not finite");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<ChangePoint>> FindChangePoints(const std::vector<double>& series,
                                                    const ChangePointConfig& config) {
  RETURN_IF_ERROR(CheckInput(series, config));
  std::vector<ChangePoint> points;
  if (series.size() < 2 * config.min_segment) return points;

  std::mt19937_64 rng(config.seed);
  const detail::DistancePrefix distances(series);
  std::vector<Interval> intervals = {{0, series.size()}};
  while (true) {
    const auto best = BestOverIntervals(distances, intervals, config.min_segment);
    if (!best) break;
    const Interval in = intervals[best->interval];
    const size_t tau = best->split.index;
    const std::vector<double> left = Slice(series, in.begin, tau);
    const std::vector<double> right = Slice(series, tau, in.end);
    const double p = config.test == ChangePointTest::kTTest
                         ? detail::WelchTTest(left, right).p_value
                         : PermutationP(series, intervals, best->split.q_hat, config, rng);
    const double change = Median(right) / Median(left) - 1;
    if (!(p <= config.max_p_value) || !(std::fabs(change) >= config.min_relative_change)) break;
    ChangePoint point;
    point.index = tau;
    point.q_hat = best->split.q_hat;
    point.p_value = p;
    points.push_back(point);
    intervals[best->interval] = {in.begin, tau};
    intervals.insert(intervals.begin() + static_cast<std::ptrdiff_t>(best->interval) + 1,
                     Interval{tau, in.end});
  }

  std::sort(points.begin(), points.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (size_t i = 0; i < points.size(); ++i) {
    const size_t begin = i == 0 ? 0 : points[i - 1].index;
    const size_t end = i + 1 == points.size() ? series.size() : points[i + 1].index;
    const std::vector<double> before = Slice(series, begin, points[i].index);
    const std::vector<double> after = Slice(series, points[i].index, end);
    points[i].median_before = Median(before);
    points[i].median_after = Median(after);
    points[i].mean_before = Mean(before);
    points[i].mean_after = Mean(after);
    points[i].relative_change = points[i].median_after / points[i].median_before - 1;
    if (config.test == ChangePointTest::kTTest) {
      points[i].p_value = detail::WelchTTest(before, after).p_value;
    }
  }
  return points;
}

}  // namespace warpwatch::server::detect
