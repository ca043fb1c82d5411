// File: server/analysis/run_analyzer.cc
#include "server/analysis/run_analyzer.h"

#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "server/analysis/confirmation_plan.h"
#include "server/analysis/counter_plan.h"
#include "server/analysis/coverage_reason.h"
#include "server/analysis/finding_builder.h"
#include "server/analysis/finding_tracker.h"
#include "server/analysis/fleet_pass.h"
#include "server/analysis/night_peers.h"
#include "server/analysis/series_change_points.h"
#include "server/detect/baseline.h"
#include "server/detect/false_alarm_control.h"
#include "server/detect/mann_whitney.h"
#include "server/detect/pinned_decision.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {
namespace {

using SeriesMap = std::map<std::string, std::vector<SeriesPoint>>;

// The baseline candidates of series `id`: its model-wide history and the run's own device's
// history merged by start time, restricted to the runs that started before the claimed run (never
// the run itself or a later one, whatever order runs are analysed in) and to points that may serve
// as a baseline (not at the level of a standing finding, not before an accepted level).
// DecideSeries keeps the device's own.
std::vector<detect::RunPoint> HistoryBefore(const SeriesMap& model, const SeriesMap& device,
                                            const std::string& id, const ClaimedRun& run) {
  std::map<std::pair<int64_t, int64_t>, const SeriesPoint*> by_start;  // (start, run id)
  for (const SeriesMap* source : {&model, &device}) {
    auto it = source->find(id);
    if (it == source->end()) continue;
    for (const SeriesPoint& p : it->second) {
      const std::pair<int64_t, int64_t> key(p.started_at_micros, p.point.run_id);
      if (key < std::make_pair(run.started_at_micros, run.run_id)) by_start[key] = &p;
    }
  }
  std::vector<detect::RunPoint> out;
  out.reserve(by_start.size());
  for (const auto& [key, p] : by_start) {
    if (p->baseline_eligible) out.push_back(p->point);
  }
  return out;
}

// The U-test p of the case's samples against the baseline runs' pooled samples (evidence only),
// for a flagged decision.
Status AddUTest(AnalysisTx& tx, const RunCase& c, detect::SeriesDecision* decision) {
  ASSIGN_OR_RETURN(std::vector<detect::RunPoint> baseline,
                   tx.LoadPoints(c.series_id, decision->baseline_run_ids, /*with_samples=*/true));
  std::vector<double> pooled;
  for (const detect::RunPoint& run : baseline) {
    pooled.insert(pooled.end(), run.samples_seconds.begin(), run.samples_seconds.end());
  }
  decision->u_test_p_value.reset();
  if (pooled.empty() || c.point.samples_seconds.empty()) return OkStatus();
  StatusOr<detect::UTestResult> u = detect::MannWhitneyUTest(c.point.samples_seconds, pooled);
  if (u.ok()) decision->u_test_p_value = u->p_value;
  return OkStatus();
}

// The decision of `c` against the series' baseline pin when it has one with a good run of this
// GPU (detect::DecideAgainstPinned, the rolling `history` giving the device's own noise); nullopt
// otherwise.
struct PinnedJudgement {
  detect::SeriesDecision decision;
  PinUsed pin;
};
StatusOr<std::optional<PinnedJudgement>> DecidePinned(
    AnalysisTx& tx, const RunCase& c, const std::map<std::string, PinnedBaseline>& pins,
    const std::vector<detect::RunPoint>& history, const detect::NoiseEstimate& noise,
    size_t decisions, const detect::DetectionConfig& config) {
  auto it = pins.find(c.series_id);
  if (it == pins.end()) return std::optional<PinnedJudgement>();
  ASSIGN_OR_RETURN(std::vector<detect::RunPoint> pinned,
                   tx.LoadPoints(c.series_id, it->second.run_ids, /*with_samples=*/false));
  std::optional<detect::PinnedDecision> d =
      detect::DecideAgainstPinned(c.point, pinned, history, config, noise, decisions);
  if (!d) return std::optional<PinnedJudgement>();
  return std::optional<PinnedJudgement>(
      PinnedJudgement{d->decision, {it->second.pin_id, d->spread}});
}

// The run's point of `c` against a standing finding's baseline, with the same noise model.
StatusOr<detect::SeriesDecision> DecideAgainstFinding(AnalysisTx& tx, const RunCase& c,
                                                      const ActiveFinding& finding,
                                                      const std::vector<detect::RunPoint>& history,
                                                      const detect::NoiseEstimate& noise,
                                                      size_t decisions,
                                                      const detect::DetectionConfig& config) {
  ASSIGN_OR_RETURN(std::vector<detect::RunPoint> baseline,
                   tx.LoadPoints(c.series_id, finding.baseline_run_ids, /*with_samples=*/false));
  if (finding.pinned) {
    std::optional<detect::PinnedDecision> d =
        detect::DecideAgainstPinned(c.point, baseline, history, config, noise, decisions);
    if (d) return d->decision;
  }
  // The finding's baseline runs are the level (however many are left); the device's own
  // recent runs, which now sit at the new level, give no noise pairs here: the model does. The
  // sigma is the one that judged the finding's first run, where stored: the model's estimate
  // since holds the finding's own step (its first run, then its later ones), and with the 90th
  // percentile on a small fleet that step alone made a run still +40 % from a +106 % level read
  // as the same as the baseline (docs/regressions.md, "One report per change").
  detect::SeriesDecision d;
  const std::string why_not = detect::WhyNotGood(c.point, config);
  std::vector<detect::RunPoint> good;
  for (const detect::RunPoint& p : baseline) {
    if (detect::IsGoodRun(p, config)) good.push_back(p);
  }
  if (!why_not.empty() || good.empty()) {
    d.reason = why_not.empty() ? "the finding's baseline runs are gone" : why_not;
    return d;
  }
  const detect::SeriesNoise n = detect::KeepSigma(
      detect::CombineNoise(noise, detect::SuccessiveDifferenceNoise(good, config), config),
      finding.noise_sigma, config);
  return detect::DecideAgainstRuns(c.point, good, n, config, decisions);
}

StatusOr<RunAnalysisSummary> ResolveConfirmation(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                                 const AnalysisConfig& config) {
  RunAnalysisSummary summary;
  summary.cases = static_cast<int>(cases.size());
  ASSIGN_OR_RETURN(std::vector<Suspect> suspects, tx.SuspectsOfConfirmationJob(tx.run().job_id));
  if (suspects.empty()) return summary;
  std::vector<std::string> series_ids;
  for (const Suspect& s : suspects) series_ids.push_back(s.series_id);
  const double max_throttled = config.detection.max_throttled_fraction;
  ASSIGN_OR_RETURN(auto noise, tx.LoadModelNoise(series_ids, config.model_noise_points,
                                                 config.model_noise_max_age, max_throttled));
  // The device's rolling window gives a pinned suspect's own noise pairs; read only for those.
  std::vector<std::string> pinned_series;
  for (const Suspect& s : suspects) {
    if (s.pinned) pinned_series.push_back(s.series_id);
  }
  SeriesMap model, device;
  if (!pinned_series.empty()) {
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
        HistoryBefore(model, device, s.series_id, tx.run());
    const SuspectResolution r = ResolveWithConfirmation(s, confirmation, baseline, config.detection,
                                                        &rolling, noise[s.series_id]);
    RETURN_IF_ERROR(tx.ResolveSuspect(s.regression_id, r.state, r.note));
    ++summary.resolved;
  }
  return summary;
}

// A case of the run with its decision.
struct Judged {
  const RunCase* c = nullptr;
  detect::SeriesDecision decision;
  std::optional<PinUsed> pin;
};

StatusOr<RunAnalysisSummary> JudgeRun(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                      const AnalysisConfig& config, NightPeerCache& night) {
  const ClaimedRun& run = tx.run();
  const detect::DetectionConfig& dc = config.detection;
  RunAnalysisSummary summary;
  summary.cases = static_cast<int>(cases.size());
  summary.coverage.cases = summary.cases;
  std::vector<std::string> series_ids;
  for (const RunCase& c : cases) series_ids.push_back(c.series_id);
  // The GPU-model series are read only where they are used: for their change points when those
  // are due, and for judging only when baselines may mix GPUs (same_device_only off).
  std::set<std::string> model_series;
  // Stored change points are the fleet history's: a run of an uploader's own history computes none.
  const bool fleet_history = run.history_owner.empty();
  if (dc.same_device_only) {
    if (fleet_history) {
      ASSIGN_OR_RETURN(model_series,
                       tx.ModelChangePointsDue(series_ids, config.model_change_points_interval));
    }
  } else {
    model_series.insert(series_ids.begin(), series_ids.end());
  }
  std::set<SeriesKey> keys;
  for (const RunCase& c : cases) {
    if (model_series.count(c.series_id) > 0) keys.insert({c.series_id, ""});
    keys.insert({c.series_id, run.device_uuid});
  }
  RETURN_IF_ERROR(tx.LockSeries(std::vector<SeriesKey>(keys.begin(), keys.end())));
  const double max_throttled = dc.max_throttled_fraction;
  SeriesMap model;
  if (!model_series.empty()) {
    ASSIGN_OR_RETURN(
        model, tx.LoadSeries(std::vector<std::string>(model_series.begin(), model_series.end()), "",
                             config.history_runs, max_throttled));
  }
  ASSIGN_OR_RETURN(SeriesMap device,
                   tx.LoadSeries(series_ids, run.device_uuid, config.history_runs, max_throttled));
  const int64_t window_us = std::chrono::microseconds(config.fleet_window).count();
  ASSIGN_OR_RETURN(auto pins, tx.LoadPinnedBaselines(series_ids, max_throttled));
  // The fleet view waits until a scheduled night is mostly in; its later analyses judge the
  // runs finished before.
  ASSIGN_OR_RETURN(const NightSize night_size, tx.ScheduledNightSize());
  std::map<std::string, std::vector<detect::RunPoint>> peers;
  if (NightReadyForFleetView(night_size, config.fleet_min_night_share)) {
    ASSIGN_OR_RETURN(peers,
                     night.Peers(tx, series_ids, run.finished_at_micros - window_us,
                                 run.finished_at_micros, config.fleet.max_throttled_fraction));
  }
  ASSIGN_OR_RETURN(auto noise, tx.LoadModelNoise(series_ids, config.model_noise_points,
                                                 config.model_noise_max_age, max_throttled));
  ASSIGN_OR_RETURN(auto active, tx.LoadActiveFindings(series_ids));
  const size_t m = cases.size();

  // A case with a standing finding is judged against that finding's baseline: it attaches, closes
  // it, or does nothing; it never opens another finding.
  std::vector<Judged> judged;
  std::vector<SeriesSensitivity> sensitivity;
  for (const RunCase& c : cases) {
    const std::vector<detect::RunPoint> history = HistoryBefore(model, device, c.series_id, run);
    const detect::NoiseEstimate& model_noise = noise[c.series_id];
    auto standing = active.find(c.series_id);
    if (standing != active.end()) {
      ASSIGN_OR_RETURN(detect::SeriesDecision d,
                       DecideAgainstFinding(tx, c, standing->second, history, model_noise, m, dc));
      const Tracking t = TrackFinding(standing->second, d, run.run_id);
      if (t.action == TrackAction::kAttach) {
        RETURN_IF_ERROR(tx.AttachToFinding(
            standing->second.regression_id, c.measurement_id, d.time.change,
            std::isfinite(d.time.z) ? std::optional<double>(d.time.z) : std::nullopt));
        ++summary.attached;
      } else if (t.action == TrackAction::kClose) {
        RETURN_IF_ERROR(tx.CloseFinding(standing->second.regression_id, t.note));
        ++summary.closed;
      }
      if (d.judged) {
        ++summary.coverage.judged;
        ++summary.coverage.attached;
      } else {
        ++summary.coverage.unsure[CoverageReason(c, d, dc)];
      }
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<PinnedJudgement> pinned,
                     DecidePinned(tx, c, pins, history, model_noise, m, dc));
    Judged j;
    j.c = &c;
    if (pinned) {
      j.decision = std::move(pinned->decision);
      j.pin = pinned->pin;
    } else {
      j.decision = detect::DecideSeries(c.point, history, dc, model_noise, m);
    }
    judged.push_back(std::move(j));
  }
  // False alarms controlled over the run's new decisions together.
  std::vector<detect::SeriesDecision*> decisions;
  for (Judged& j : judged) decisions.push_back(&j.decision);
  const detect::FalseAlarmControl control = detect::ControlFalseAlarms(decisions, dc);
  summary.demoted = static_cast<int>(control.demoted);

  std::vector<Finding> findings;
  std::vector<const RunCase*> finding_cases;
  for (Judged& j : judged) {
    const RunCase& c = *j.c;
    detect::SeriesDecision& decision = j.decision;
    if (decision.judged) {
      SeriesSensitivity row;
      row.series_id = c.series_id;
      row.sigma_relative = decision.noise.sigma_relative;
      row.min_detectable_change = decision.min_detectable_change;
      row.baseline_runs = static_cast<int>(decision.baseline_runs_used);
      const detect::NoiseEstimate& model_noise = noise[c.series_id];
      if (model_noise.known()) {
        row.model_min_detectable_change = detect::MinimumDetectableChange(
            detect::CombineNoise(model_noise, detect::NoiseEstimate(), dc), dc.baseline_runs,
            control.decisions, dc);
        row.model_baseline_runs = static_cast<int>(dc.baseline_runs);
      }
      sensitivity.push_back(std::move(row));
    }
    if (decision.verdict == detect::Verdict::kUnsure) {
      ++summary.coverage.unsure[CoverageReason(c, decision, dc)];
    } else {
      ++summary.coverage.judged;
    }
    if (decision.verdict == detect::Verdict::kSlower ||
        decision.verdict == detect::Verdict::kFaster) {
      RETURN_IF_ERROR(AddUTest(tx, c, &decision));
    }
    if (auto f = FindingFromDecision(run, c, decision, dc, j.pin ? &*j.pin : nullptr)) {
      findings.push_back(std::move(*f));
      finding_cases.push_back(&c);
    }
  }
  FleetPass fleet = RunFleetPass(run, cases, peers, noise, config.fleet, night);
  findings.insert(findings.end(), std::make_move_iterator(fleet.findings.begin()),
                  std::make_move_iterator(fleet.findings.end()));
  finding_cases.insert(finding_cases.end(), fleet.finding_cases.begin(),
                       fleet.finding_cases.end());
  RETURN_IF_ERROR(RecordFleetJudged(tx, std::move(fleet.judged), night));
  RETURN_IF_ERROR(tx.RecordSensitivity(sensitivity));
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
  for (const Finding& f : findings) {  // stored now (inserted, or already there)
    if (f.kind == kKindOutlier)
      night.NoteReported(f.run_id != 0 ? f.run_id : run.run_id, f.series_id);
  }
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
  RETURN_IF_ERROR(tx.RecordCoverage(summary.coverage));
  RETURN_IF_ERROR(ReexplainIfCountersMeasured(tx, cases));
  if (config.counter_jobs && run.job_id != 0) {
    ASSIGN_OR_RETURN(summary.counter_job_id,
                     QueueCounterJob(tx, cases, spec ? suspects : std::vector<RunCase>()));
  }
  if (!fleet_history) return summary;

  std::map<SeriesKey, std::vector<StoredChangePoint>> change_points;
  for (const SeriesKey& key : keys) {
    const SeriesMap& source = key.device_uuid.empty() ? model : device;
    auto it = source.find(key.series_id);
    std::vector<StoredChangePoint>& points = change_points[key];
    if (it != source.end()) {
      ASSIGN_OR_RETURN(points, SeriesChangePoints(it->second, config.change_points));
    }
    ++summary.change_point_series;
  }
  RETURN_IF_ERROR(tx.ReplaceChangePoints(change_points));
  return summary;
}

}  // namespace

StatusOr<RunAnalysisSummary> AnalyzeRun(AnalysisTx& tx, const AnalysisConfig& config,
                                        NightPeerCache* night) {
  ASSIGN_OR_RETURN(std::vector<RunCase> cases, tx.LoadRunCases());
  if (tx.run().confirms_run_id != 0) return ResolveConfirmation(tx, cases, config);
  if (tx.run().counters_for_run_id != 0) return TakeCounterRun(tx, cases);
  if (night != nullptr) return JudgeRun(tx, cases, config, *night);
  NightPeerCache once;
  return JudgeRun(tx, cases, config, once);
}

}  // namespace warpwatch::server::analysis
