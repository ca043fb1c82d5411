// File: server/metrics/regression_metrics.cc
#include "server/metrics/regression_metrics.h"

#include "server/metrics/detail/label_text.h"

namespace warpwatch::server::metrics {

using detail::LowerLabel;

RegressionMetrics::RegressionMetrics(prometheus::Registry& registry)
    : open_(prometheus::BuildGauge()
                .Name("warpwatch_regressions_open")
                .Help("The detector's unresolved findings by GPU model, family, kind (regression, "
                      "improvement, outlier) and state (open: not triaged yet, acknowledged), "
                      "from the database")
                .Register(registry)),
      detected_(prometheus::BuildCounter()
                    .Name("warpwatch_regressions_detected_total")
                    .Help("Findings the detector inserted on this replica, by GPU model, family, "
                          "kind and first state (suspected: awaiting its confirmation run, open, "
                          "dismissed: the GPU's clock explains it)")
                    .Register(registry)),
      cases_(prometheus::BuildCounter()
                 .Name("warpwatch_analysis_cases_total")
                 .Help("Cases of the runs this replica analysed, by outcome (judged, unsure) and "
                       "reason (judged: '' or attached to a standing finding; unsure: "
                       "too_few_runs, not_comparable, throttled, clock_masked, failed, unverified, "
                       "bad_median)")
                 .Register(registry)) {}

void RegressionMetrics::AddCoverage(int judged, int attached,
                                    const std::map<std::string, int>& unsure) {
  cases_.Add({{"outcome", "judged"}, {"reason", ""}}).Increment(judged - attached);
  cases_.Add({{"outcome", "judged"}, {"reason", "attached"}}).Increment(attached);
  for (const auto& [reason, count] : unsure) {
    cases_.Add({{"outcome", "unsure"}, {"reason", reason}}).Increment(count);
  }
}

void RegressionMetrics::AddDetected(const std::string& gpu_model, const std::string& family,
                                    const std::string& kind, const std::string& state) {
  detected_
      .Add({{"modelName", gpu_model},
            {"family", family},
            {"kind", LowerLabel(kind)},
            {"state", LowerLabel(state)}})
      .Increment();
}

void RegressionMetrics::SetOpen(const std::vector<RegressionCount>& counts) {
  std::map<Labels, double> now;
  for (const RegressionCount& c : counts) {
    now[{{"modelName", c.gpu_model},
         {"family", c.family},
         {"kind", LowerLabel(c.kind)},
         {"state", LowerLabel(c.state)}}] += static_cast<double>(c.count);
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [labels, value] : now) {
    open_.Add(labels).Set(value);
    seen_.insert(labels);
  }
  for (const Labels& labels : seen_) {
    if (!now.count(labels)) open_.Add(labels).Set(0);
  }
}

}  // namespace warpwatch::server::metrics
