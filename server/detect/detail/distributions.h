// Tail probabilities of the normal and Student t distributions, for the tests' p-values.
#ifndef WARPWATCH_SERVER_DETECT_DETAIL_DISTRIBUTIONS_H_
#define WARPWATCH_SERVER_DETECT_DETAIL_DISTRIBUTIONS_H_

namespace warpwatch::server::detect::detail {

// P(|Z| >= |z|) for a standard normal Z. 1 for z = 0; NaN for NaN.
double NormalTwoSidedP(double z);

// Regularized incomplete beta function I_x(a, b) (continued fraction, relative error ~1e-12).
// Preconditions: a > 0, b > 0, 0 <= x <= 1; NaN otherwise.
double RegularizedIncompleteBeta(double a, double b, double x);

// P(|T| >= |t|) for Student's t with `df` degrees of freedom (df > 0, not necessarily an
// integer: Welch's test gives fractional df). NaN when df <= 0 or t is NaN; 0 for infinite t.
double StudentTTwoSidedP(double t, double df);

}  // namespace warpwatch::server::detect::detail

#endif  // WARPWATCH_SERVER_DETECT_DETAIL_DISTRIBUTIONS_H_
