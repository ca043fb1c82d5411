// File: server/analysis/counter_plan.cc
#include "server/analysis/counter_plan.h"

#include <algorithm>

#include "server/analysis/confirmation_plan.h"

namespace warpwatch::server::analysis {

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

}  // namespace warpwatch::server::analysis
