// File: server/incidents/explain/explainer.cc
#include "server/incidents/explain/explainer.h"

#include "server/incidents/explain/attribute_diff.h"
#include "server/incidents/explain/cause_ranking.h"
#include "server/incidents/explain/counter_diff.h"
#include "server/incidents/explain/environment_diff.h"
#include "server/incidents/explain/time_split.h"

namespace warpwatch::server::incidents {
namespace {

bool AnyCounters(const std::vector<v1::Measurement>& measurements) {
  for (const v1::Measurement& m : measurements) {
    if (!m.counters().empty()) return true;
  }
  return false;
}

// The counter diff from the timed measurements where they have counters, else from the counter
// runs apart; records which runs the counters came from in `e`.
CounterDiff DiffCountersOf(const FindingEvidence& evidence, const std::vector<v1::Measurement>& base,
                           const v1::Measurement& now, v1::Explanation* e) {
  std::vector<v1::Measurement> base_side;
  if (AnyCounters(base)) {
    base_side = base;
    for (const v1::Measurement& m : base) {
      if (!m.counters().empty()) e->add_counter_baseline_run_ids(m.run_id());
    }
  } else if (evidence.baseline_counters) {
    base_side.push_back(evidence.baseline_counters->measurement);
    e->add_counter_baseline_run_ids(evidence.baseline_counters->run_id);
  }
  const v1::Measurement* now_side = &now;
  if (!now.counters().empty()) {
    e->set_counter_run_id(evidence.finding.run_id());
  } else if (evidence.new_counters) {
    now_side = &evidence.new_counters->measurement;
    e->set_counter_run_id(evidence.new_counters->run_id);
  }
  CounterDiff diff = DiffCounters(base_side, *now_side);
  if (!diff.counters.empty() || diff.note.rfind("counters equal", 0) == 0) return diff;
  // No diff: the runs named above stay only where both sides had counters.
  e->clear_counter_baseline_run_ids();
  e->set_counter_run_id(0);
  return diff;
}

// For a finding of an uploaded run with a side short of counters (`base_side`, `new_side`: whether
// each has any, timed or from a counter run): the analysis queues counter jobs only for its
// workers' runs (docs/incidents.md "Counters where they explain"), so what the uploader can send
// instead, as SelectCounterRuns (server/store/detail/counter_evidence.h) reads it. "" otherwise.
std::string UploadedCounterHint(const v1::Run& run, bool base_side, bool new_side) {
  if (run.uploaded_by().empty() || (base_side && new_side)) return "";
  const std::string when =
      !base_side && !new_side ? "before the finding's run and one started after it"
      : !base_side            ? "before the finding's run (after the previous level change)"
                              : "at or after the finding's run";
  return "; an uploaded run queues no counter job: upload a run of this GPU made with "
         "`warpwatch-worker run --counters`, into the same history, started " +
         when;
}

}  // namespace

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
    CounterDiff counters = DiffCountersOf(evidence, base, now, &e);
    for (v1::CounterDifference& d : counters.counters) *e.add_counters() = std::move(d);
    const bool base_side = AnyCounters(base) || evidence.baseline_counters.has_value();
    const bool new_side = !now.counters().empty() || evidence.new_counters.has_value();
    e.set_counters_note(counters.note + UploadedCounterHint(evidence.run, base_side, new_side));
  }
  RankCauses(&e);
  return e;
}

}  // namespace warpwatch::server::incidents
