// File: server/analysis/run_analyzer.cc
#include "server/analysis/run_analyzer.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "server/analysis/confirmation_plan.h"
#include "server/analysis/finding_builder.h"
#include "server/analysis/series_change_points.h"
#include "server/detect/fleet_outliers.h"
#include "server/detect/pinned_decision.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {
namespace {

using SeriesMap = std::map<std::string, std::vector<SeriesPoint>>;

// The baseline candidates of series `id`: its model-wide history and the run's own device's
// history (the newest points of a busy model may hold none of this device's runs, while
// prefer_same_device wants them), merged by start time, restricted to the runs that started
// before the claimed run (never the run itself or a later one, whatever order runs are analysed
// in).
std::vector<detect::RunPoint> HistoryBefore(const SeriesMap& model, const SeriesMap& device,
                                            const std::string& id, const ClaimedRun& run) {
  std::map<std::pair<int64_t, int64_t>, const detect::RunPoint*> by_start;  // (start, run id)
  for (const SeriesMap* source : {&model, &device}) {
    auto it = source->find(id);
    if (it == source->end()) continue;
    for (const SeriesPoint& p : it->second) {
      const std::pair<int64_t, int64_t> key(p.started_at_micros, p.point.run_id);
      if (key < std::make_pair(run.started_at_micros, run.run_id)) by_start[key] = &p.point;
    }
  }
  std::vector<detect::RunPoint> out;
  out.reserve(by_start.size());
  for (const auto& [key, point] : by_start) out.push_back(*point);
  return out;
}

// DecideSeries; for a flagged case again with the baseline runs' samples, for the U-test p.
StatusOr<detect::SeriesDecision> Decide(AnalysisTx& tx, const RunCase& c,
                                        const std::vector<detect::RunPoint>& history,
                                        const detect::DetectionConfig& config) {
  detect::SeriesDecision decision = detect::DecideSeries(c.point, history, config);
  if (decision.verdict != detect::Verdict::kSlower &&
      decision.verdict != detect::Verdict::kFaster) {
    return decision;
  }
  ASSIGN_OR_RETURN(std::vector<detect::RunPoint> baseline,
                   tx.LoadPoints(c.series_id, decision.baseline_run_ids, /*with_samples=*/true));
  return detect::DecideSeries(c.point, baseline, config);
}

// The decision of `c` against the series' baseline pin when it has one with a good run
// (detect::DecideAgainstPinned, the rolling `history` giving the spread); nullopt otherwise.
struct PinnedJudgement {
  detect::SeriesDecision decision;
  PinUsed pin;
};
StatusOr<std::optional<PinnedJudgement>> DecidePinned(
    AnalysisTx& tx, const RunCase& c, const std::map<std::string, PinnedBaseline>& pins,
    const std::vector<detect::RunPoint>& history, const detect::DetectionConfig& config) {
  auto it = pins.find(c.series_id);
  if (it == pins.end()) return std::optional<PinnedJudgement>();
  ASSIGN_OR_RETURN(std::vector<detect::RunPoint> pinned,
                   tx.LoadPoints(c.series_id, it->second.run_ids, /*with_samples=*/true));
  std::optional<detect::PinnedDecision> d =
      detect::DecideAgainstPinned(c.point, pinned, history, config);
  if (!d) return std::optional<PinnedJudgement>();
  return std::optional<PinnedJudgement>(
      PinnedJudgement{d->decision, {it->second.pin_id, d->spread}});
}

StatusOr<RunAnalysisSummary> ResolveConfirmation(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                                 const AnalysisConfig& config) {
  RunAnalysisSummary summary;
  summary.cases = static_cast<int>(cases.size());
  ASSIGN_OR_RETURN(std::vector<Suspect> suspects, tx.SuspectsOfConfirmationJob(tx.run().job_id));
  // A suspect judged against a pin is confirmed against it too, with the rolling window's spread.
  std::vector<std::string> pinned_series;
  for (const Suspect& s : suspects) {
    if (s.pinned) pinned_series.push_back(s.series_id);
  }
  SeriesMap model, device;
  if (!pinned_series.empty()) {
    const double max_throttled = config.detection.max_throttled_fraction;
    ASSIGN_OR_RETURN(model, tx.LoadSeries(pinned_series, "", config.history_runs, max_throttled));
    ASSIGN_OR_RETURN(device, tx.LoadSeries(pinned_series, tx.run().device_uuid, config.history_runs,
                                           max_throttled));
  }
  for (const Suspect& s : suspects) {
    const RunCase* confirmation = nullptr;
    for (const RunCase& c : cases) {
      if (c.case_canonical == s.case_canonical) confirmation = &c;
    }
    ASSIGN_OR_RETURN(std::vector<detect::RunPoint> baseline,
                     tx.LoadPoints(s.series_id, s.baseline_run_ids, /*with_samples=*/false));
    const std::vector<detect::RunPoint> rolling =
        s.pinned ? HistoryBefore(model, device, s.series_id, tx.run())
                 : std::vector<detect::RunPoint>();
    const SuspectResolution r =
        ResolveWithConfirmation(s, confirmation, baseline, config.detection, &rolling);
    RETURN_IF_ERROR(tx.ResolveSuspect(s.regression_id, r.state, r.note));
    ++summary.resolved;
  }
  return summary;
}

StatusOr<RunAnalysisSummary> JudgeRun(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                      const AnalysisConfig& config) {
  const ClaimedRun& run = tx.run();
  RunAnalysisSummary summary;
  summary.cases = static_cast<int>(cases.size());
  std::vector<std::string> series_ids;
  std::set<SeriesKey> keys;
  for (const RunCase& c : cases) {
    series_ids.push_back(c.series_id);
    keys.insert({c.series_id, ""});
    keys.insert({c.series_id, run.device_uuid});
  }
  RETURN_IF_ERROR(tx.LockSeries(std::vector<SeriesKey>(keys.begin(), keys.end())));
  const double max_throttled = config.detection.max_throttled_fraction;
  ASSIGN_OR_RETURN(SeriesMap model,
                   tx.LoadSeries(series_ids, "", config.history_runs, max_throttled));
  ASSIGN_OR_RETURN(SeriesMap device,
                   tx.LoadSeries(series_ids, run.device_uuid, config.history_runs, max_throttled));
  const int64_t window_us = std::chrono::microseconds(config.fleet_window).count();
  ASSIGN_OR_RETURN(auto pins, tx.LoadPinnedBaselines(series_ids, max_throttled));
  ASSIGN_OR_RETURN(auto fleet,
                   tx.LatestPerDevice(series_ids, run.finished_at_micros - window_us,
                                      run.finished_at_micros, config.fleet.max_throttled_fraction));

  std::vector<Finding> findings;
  std::vector<const RunCase*> finding_cases;
  for (const RunCase& c : cases) {
    const std::vector<detect::RunPoint> history = HistoryBefore(model, device, c.series_id, run);
    // A pinned baseline, when the series has one with a good run, instead of the rolling window.
    ASSIGN_OR_RETURN(std::optional<PinnedJudgement> pinned,
                     DecidePinned(tx, c, pins, history, config.detection));
    std::optional<detect::SeriesDecision> rolling;
    if (!pinned) {
      ASSIGN_OR_RETURN(rolling, Decide(tx, c, history, config.detection));
    }
    const detect::SeriesDecision& decision = pinned ? pinned->decision : *rolling;
    if (auto f = FindingFromDecision(run, c, decision, config.detection,
                                     pinned ? &pinned->pin : nullptr)) {
      findings.push_back(std::move(*f));
      finding_cases.push_back(&c);
    }
    auto devices = fleet.find(c.series_id);
    if (devices == fleet.end()) continue;
    const detect::FleetView view = detect::FindFleetOutliers(devices->second, config.fleet);
    if (auto f = FindingFromFleet(run, c, view, config.fleet)) {
      findings.push_back(std::move(*f));
      finding_cases.push_back(&c);
    }
  }
  // One confirmation job for every suspect of the run, planned before anything is written: when
  // the catalog refuses the spec (a family or axis value that no longer exists) the suspects open
  // unconfirmed instead of waiting for a job that cannot run.
  std::vector<RunCase> suspects;
  std::optional<v1::JobSpec> spec;
  int64_t points = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (findings[i].state == kStateSuspected) suspects.push_back(*finding_cases[i]);
  }
  if (!suspects.empty()) {
    ASSIGN_OR_RETURN(v1::JobSpec original, tx.JobSpecOfRun());
    spec = ConfirmationSpec(original, suspects, run.device_uuid, run.run_id);
    StatusOr<int64_t> planned = PlannedPoints(*spec);
    if (planned.ok()) {
      points = *planned;
    } else {
      spec.reset();
      for (Finding& f : findings) {
        if (f.state != kStateSuspected) continue;
        f.state = kStateOpen;
        f.note = "unconfirmed: no confirmation job can be planned (" + planned.status().message() +
                 "); opened on this run's evidence alone";
      }
    }
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> ids, tx.InsertFindings(findings));
  std::vector<int64_t> suspect_ids;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (findings[i].state == kStateSuspected && ids[i] != 0) suspect_ids.push_back(ids[i]);
  }
  if (spec && !suspect_ids.empty()) {
    ASSIGN_OR_RETURN(summary.confirmation_job_id,
                     tx.EnqueueConfirmationJob(*spec, points, suspect_ids));
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == 0) continue;
    ++summary.findings;
    summary.inserted.push_back(
        {findings[i].kind, findings[i].state, findings[i].family, findings[i].gpu_model});
  }

  for (const SeriesKey& key : keys) {
    const SeriesMap& source = key.device_uuid.empty() ? model : device;
    auto it = source.find(key.series_id);
    std::vector<StoredChangePoint> points;
    if (it != source.end()) {
      ASSIGN_OR_RETURN(points, SeriesChangePoints(it->second, config.change_points));
    }
    RETURN_IF_ERROR(tx.ReplaceChangePoints(key, points));
    ++summary.change_point_series;
  }
  return summary;
}

}  // namespace

StatusOr<RunAnalysisSummary> AnalyzeRun(AnalysisTx& tx, const AnalysisConfig& config) {
  ASSIGN_OR_RETURN(std::vector<RunCase> cases, tx.LoadRunCases());
  if (tx.run().confirms_run_id != 0) return ResolveConfirmation(tx, cases, config);
  return JudgeRun(tx, cases, config);
}

}  // namespace warpwatch::server::analysis
