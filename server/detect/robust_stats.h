// Robust location and scale (median, MAD) of small sets of run medians, and the robust z-score.
#ifndef WARPWATCH_SERVER_DETECT_ROBUST_STATS_H_
#define WARPWATCH_SERVER_DETECT_ROBUST_STATS_H_

#include <vector>

namespace warpwatch::server::detect {

// 1 / Phi^-1(3/4): scales a MAD to the standard deviation of a normal distribution.
inline constexpr double kMadToSigma = 1.4826;

// Median of `values` (mean of the two middle values for an even count). NaN when empty.
// Precondition: no NaN in `values` (callers filter; a NaN makes the order undefined).
double Median(std::vector<double> values);

// Raw median absolute deviation: median(|x - median(x)|). NaN when empty. Same precondition.
double MedianAbsoluteDeviation(const std::vector<double>& values);

// The centre and spread a new value is judged against.
struct RobustScale {
  double center = 0;     // median of the values
  double sigma = 0;      // max(kMadToSigma * MAD, relative_floor * |center|)
  bool floored = false;  // sigma is the floor, not the MAD (a flat or nearly flat baseline)
};

// Median and floored, normal-consistent MAD of `values`. The floor keeps a perfectly flat
// baseline (MAD 0) from turning any difference into an infinite z. Center and sigma are NaN when
// `values` is empty. Precondition: relative_floor >= 0 and no NaN in `values`.
RobustScale RobustScaleOf(const std::vector<double>& values, double relative_floor);

// The scale of a centre and a raw MAD already computed (RobustScaleOf's flooring, NaN-safe: a NaN
// centre or MAD gives a floored, NaN-carrying scale that no comparison trusts).
RobustScale ScaleFrom(double center, double mad, double relative_floor);

// (x - scale.center) / scale.sigma; 0 when x equals the centre; +-infinity when sigma is 0 and x
// differs (only possible with a zero floor or a zero centre); NaN when an input is NaN.
double RobustZ(double x, const RobustScale& scale);

// True when every value is finite and > 0 (a usable duration).
bool AllPositiveFinite(const std::vector<double>& values);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_ROBUST_STATS_H_
