// File: server/metrics/detail/label_text.h
// Label values from stored names: Prometheus labels are lower case by convention, the database
// keeps kinds and states upper case (REGRESSION, OPEN).
#ifndef WARPWATCH_SERVER_METRICS_DETAIL_LABEL_TEXT_H_
#define WARPWATCH_SERVER_METRICS_DETAIL_LABEL_TEXT_H_

#include <string>

namespace warpwatch::server::metrics::detail {

// `s` in ASCII lower case.
std::string LowerLabel(std::string s);

}  // namespace warpwatch::server::metrics::detail

#endif  // WARPWATCH_SERVER_METRICS_DETAIL_LABEL_TEXT_H_
