// File: server/incidents/explain/explainer.cc
#include "server/incidents/explain/explainer.h"

#include "server/incidents/explain/attribute_diff.h"
#include "server/incidents/explain/cause_ranking.h"
#include "server/incidents/explain/counter_diff.h"
#include "server/incidents/explain/environment_diff.h"
#include "server/incidents/explain/time_split.h"

namespace warpwatch::server::incidents {

v1::Explanation Explain(const FindingEvidence& evidence) {
  const v1::Regression& f = evidence.finding;
  v1::Explanation e;
  e.set_run_id(f.run_id());
  for (const v1::Run& run : evidence.baseline_runs) e.add_baseline_run_ids(run.id());
  std::vector<v1::RunEnvironment> environments;
  for (const v1::Run& run : evidence.baseline_runs) environments.push_back(run.environment());
  for (v1::EnvironmentDifference& d : DiffEnvironments(environments, evidence.run.environment())) {
    *e.add_environment() = std::move(d);
  }
  FindingTiming timing;
  timing.change = f.change();
  if (f.has_cycles_change()) timing.cycles_change = f.cycles_change();
  timing.baseline_sm_clock_mhz = f.baseline_sm_clock_mhz();
  timing.new_sm_clock_mhz = f.new_sm_clock_mhz();
  const v1::Measurement none;
  const v1::Measurement& now = evidence.measurement ? *evidence.measurement : none;
  const std::vector<v1::Measurement>& base = evidence.baseline_measurements;
  *e.mutable_clocks() = SplitClocks(timing, base, now);
  if (!evidence.measurement) {
    e.mutable_time()->set_time_change(f.change());
    e.mutable_time()->set_where("unknown");
    e.mutable_time()->set_note("the new run's measurement is no longer stored");
    e.set_counters_note("the new run's measurement is no longer stored: no counter diff");
  } else {
    for (v1::AttributeDifference& d : DiffAttributes(base, now)) *e.add_attributes() = std::move(d);
    *e.mutable_time() = SplitTime(timing, base, now);
    CounterDiff counters = DiffCounters(base, now);
    for (v1::CounterDifference& d : counters.counters) *e.add_counters() = std::move(d);
    e.set_counters_note(counters.note);
  }
  RankCauses(&e);
  return e;
}

}  // namespace warpwatch::server::incidents
