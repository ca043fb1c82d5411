// File: server/analysis/counter_plan.cc
#include "server/analysis/counter_plan.h"

#include <algorithm>

#include "common/series/comparable_series.h"
#include "server/analysis/confirmation_plan.h"

namespace warpwatch::server::analysis {
namespace {

std::vector<std::string> MeasuredCanonicals(const std::vector<RunCase>& cases) {
  std::vector<std::string> out;
  for (const RunCase& c : cases) {
    if (c.point.ok) out.push_back(c.case_canonical);
  }
  return out;
}

}  // namespace

bool WantsCounterJob(const v1::JobSpec& spec) {
  return !spec.measurement().collect_counters() && !spec.labels().contains(kCountersForRunLabel) &&
         !spec.labels().contains(kConfirmsRunLabel);
}

std::vector<RunCase> CasesWithoutCounters(const std::vector<RunCase>& cases,
                                          const std::set<std::string>& with_counters) {
  std::vector<RunCase> out;
  for (const RunCase& c : cases) {
    if (c.point.ok && with_counters.count(c.case_canonical) == 0) out.push_back(c);
  }
  return out;
}

v1::JobSpec CounterJobSpec(const v1::JobSpec& original, const std::vector<RunCase>& cases,
                           const std::string& device_uuid, int64_t run_id) {
  v1::JobSpec spec = RestrictedSpec(original, cases, device_uuid);
  spec.mutable_labels()->erase(kConfirmsRunLabel);
  (*spec.mutable_labels())[kCountersForRunLabel] = std::to_string(run_id);
  spec.mutable_measurement()->set_collect_counters(true);
  spec.set_priority(std::max(kMinCounterJobPriority, original.priority() - 1));
  return spec;
}

StatusOr<int64_t> QueueCounterJob(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                  const std::vector<RunCase>& suspects) {
  StatusOr<v1::JobSpec> original = tx.JobSpecOfRun();
  if (original.status().code() == StatusCode::kNotFound) return int64_t{0};  // its job is gone
  RETURN_IF_ERROR(original.status());
  if (!WantsCounterJob(*original)) return int64_t{0};
  ASSIGN_OR_RETURN(std::set<std::string> covered,
                   tx.CasesWithLevelCounters(MeasuredCanonicals(cases)));
  for (const RunCase& s : suspects) covered.insert(s.case_canonical);  // their confirmation
  const std::vector<RunCase> lacking = CasesWithoutCounters(cases, covered);
  if (lacking.empty()) return int64_t{0};
  const v1::JobSpec spec = CounterJobSpec(*original, lacking, tx.run().device_uuid, tx.run().run_id);
  StatusOr<int64_t> points = PlannedPoints(spec);
  if (!points.ok()) return int64_t{0};  // the catalog no longer has them: nothing to measure
  return tx.EnqueueCounterJob(spec, *points);
}

Status ReexplainIfCountersMeasured(AnalysisTx& tx, const std::vector<RunCase>& cases) {
  for (const RunCase& c : cases) {
    if (series::SettingsKeyOf(c.series_id).find("counters=on") != std::string::npos) {
      return tx.ReexplainWithCounters(MeasuredCanonicals(cases)).status();
    }
  }
  return OkStatus();
}

StatusOr<RunAnalysisSummary> TakeCounterRun(AnalysisTx& tx, const std::vector<RunCase>& cases) {
  RunAnalysisSummary summary;
  summary.cases = static_cast<int>(cases.size());
  RETURN_IF_ERROR(ReexplainIfCountersMeasured(tx, cases));
  return summary;
}

}  // namespace warpwatch::server::analysis
