// Mann-Whitney U: midranks, exact null distribution by subset counting, tie-corrected normal tail.
#include "server/detect/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "server/detect/detail/distributions.h"

namespace warpwatch::server::detect {
namespace {

// Midranks (1-based) of the pooled values; `tie_term` gets sum(t^3 - t) over tie groups.
std::vector<double> MidRanks(const std::vector<double>& pooled, double* tie_term) {
  std::vector<size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t i, size_t j) { return pooled[i] < pooled[j]; });
  std::vector<double> ranks(pooled.size());
  *tie_term = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && pooled[order[j + 1]] == pooled[order[i]]) ++j;
    const double midrank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = midrank;
    const double t = static_cast<double>(j - i + 1);
    *tie_term += t * t * t - t;
    i = j + 1;
  }
  return ranks;
}

// Null distribution of U for sizes (m, n), no ties: counts[u] = number of the C(m+n, m) rank
// arrangements giving U = u. Built from subsets of {1..m+n} of size m by their rank sum.
std::vector<double> ExactUCounts(size_t m, size_t n) {
  const size_t total = m + n;
  const size_t max_sum = m * total;
  // ways[k][s]: subsets of size k of the ranks seen so far with rank sum s.
  std::vector<std::vector<double>> ways(m + 1, std::vector<double>(max_sum + 1, 0));
  ways[0][0] = 1;
  for (size_t rank = 1; rank <= total; ++rank) {
    for (size_t k = std::min(rank, m); k >= 1; --k) {
      for (size_t s = max_sum; s >= rank; --s) ways[k][s] += ways[k - 1][s - rank];
    }
  }
  const size_t min_sum = m * (m + 1) / 2;
  std::vector<double> counts(m * n + 1, 0);
  for (size_t u = 0; u <= m * n; ++u) counts[u] = ways[m][u + min_sum];
  return counts;
}

double ExactTwoSidedP(double u, size_t m, size_t n) {
  // U's null distribution is the same for (m, n) and (n, m): count with the smaller side.
  const std::vector<double> counts = ExactUCounts(std::min(m, n), std::max(m, n));
  const double all = std::accumulate(counts.begin(), counts.end(), 0.0);
  const auto u_index = static_cast<size_t>(std::llround(u));
  double lower = 0, upper = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    if (k <= u_index) lower += counts[k];
    if (k >= u_index) upper += counts[k];
  }
  return std::min(1.0, 2 * std::min(lower, upper) / all);
}

Status CheckSide(const std::vector<double>& side, const char* name) {
  if (side.empty()) return InvalidArgumentError(std::string("U test: ") + name + " is empty");
  for (double v : side) {
    if (!std::isfinite(v)) {
      return InvalidArgumentError(std::string("U test: ") + name + " holds a non-finite value");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<UTestResult> MannWhitneyUTest(const std::vector<double>& a, const std::vector<double>& b) {
  RETURN_IF_ERROR(CheckSide(a, "first sample"));
  RETURN_IF_ERROR(CheckSide(b, "second sample"));
  std::vector<double> pooled(a);
  pooled.insert(pooled.end(), b.begin(), b.end());
  double tie_term = 0;
  const std::vector<double> ranks = MidRanks(pooled, &tie_term);

  UTestResult result;
  result.n_a = a.size();
  result.n_b = b.size();
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double rank_sum_a = std::accumulate(ranks.begin(), ranks.begin() + a.size(), 0.0);
  result.u = rank_sum_a - na * (na + 1) / 2;

  if (tie_term == 0 && a.size() < kExactLimit && b.size() < kExactLimit) {
    result.exact = true;
    result.p_value = ExactTwoSidedP(result.u, a.size(), b.size());
    return result;
  }
  const double n = na + nb;
  const double mean = na * nb / 2;
  const double variance = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) {  // every value tied: no evidence of any difference
    result.p_value = 1;
    return result;
  }
  const double diff = result.u - mean;
  const double corrected = std::fabs(diff) <= 0.5 ? 0 : diff - std::copysign(0.5, diff);
  result.z = corrected / std::sqrt(variance);
  result.p_value = detail::NormalTwoSidedP(result.z);
  return result;
}

}  // namespace warpwatch::server::detect
