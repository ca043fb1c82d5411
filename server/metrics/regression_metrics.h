// File: server/metrics/regression_metrics.h
// The detector's findings as metrics: warpwatch_regressions_open{modelName,family,kind,state},
// counted
// from the regression table (every replica exports the same values: aggregate with max).
#ifndef WARPWATCH_SERVER_METRICS_REGRESSION_METRICS_H_
#define WARPWATCH_SERVER_METRICS_REGRESSION_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace warpwatch::server::metrics {

// Thread-safe. `registry` must outlive the object.
class RegressionMetrics {
 public:
  explicit RegressionMetrics(prometheus::Registry& registry);

  // Sets the gauge from Store::CountOpenRegressions; a group seen before and absent now drops to
  // 0 (it stays exported, so a resolved regression reads 0, not "no data"). kind and state are
  // lower case.
  void SetOpen(const std::vector<RegressionCount>& counts);
  // warpwatch_regressions_detected_total{modelName,family,kind,state}: one finding this replica's
  // analysis loop inserted, under its first state (suspected, open, dismissed). Each run is
  // analysed by one replica, so the sum over replicas counts every finding once.
  void AddDetected(const std::string& gpu_model, const std::string& family, const std::string& kind,
                   const std::string& state);
  // warpwatch_analysis_cases_total{outcome,reason}: what one analysed run's cases came to:
  // outcome judged (reason "" for a new decision, "attached" for a case judged against a finding
  // still standing) or unsure (reason: too_few_runs, not_comparable, throttled, clock_masked,
  // failed, unverified, bad_median). A fixed, small label set.
  void AddCoverage(int judged, int attached, const std::map<std::string, int>& unsure);

 private:
  using Labels = std::map<std::string, std::string>;
  prometheus::Family<prometheus::Gauge>& open_;
  prometheus::Family<prometheus::Counter>& detected_;
  prometheus::Family<prometheus::Counter>& cases_;
  std::mutex mu_;
  std::set<Labels> seen_;  // guarded by mu_
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_REGRESSION_METRICS_H_
