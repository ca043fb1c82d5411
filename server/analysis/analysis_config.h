// File: server/analysis/analysis_config.h
// Tunables of the analysis of finished runs: the detector's own settings plus how much history
// is read, the fleet window and the loop's pacing. Justified in docs/regressions.md
// ("Detection on every finished run").
#ifndef WARPWATCH_SERVER_ANALYSIS_ANALYSIS_CONFIG_H_
#define WARPWATCH_SERVER_ANALYSIS_ANALYSIS_CONFIG_H_

#include <chrono>
#include <cstddef>
#include <functional>

#include "server/detect/change_points.h"
#include "server/detect/detection_config.h"
#include "server/detect/fleet_outliers.h"

namespace warpwatch::server::analysis {

struct AnalysisConfig {
  detect::DetectionConfig detection;
  detect::ChangePointConfig change_points;
  detect::FleetConfig fleet;
  // Newest good runs of a series read per analysis: the change-point detector's window (half a
  // year of nightly runs) and the pool SelectBaseline picks the last N (10) from.
  size_t history_runs = 180;
  // The model-wide noise estimate (detect::SuccessiveDifferenceNoise): from the newest this many
  // good points of the series over every GPU of the model (on a small fleet months of nights, on
  // 1000 GPUs the last two), recomputed when older than model_noise_max_age (a night's runs
  // barely move it, and recomputing it on every run of a 1000-GPU night would read 2000 rows per
  // case per run).
  size_t model_noise_points = 2000;
  std::chrono::seconds model_noise_max_age{12 * 3600};
  // The GPU-model series' change points (what GetSeries charts without a device) are recomputed
  // by a run that started at least this long after the run that last recomputed them: once a
  // night on a fleet instead of once per GPU (a 1000-GPU night would recompute the same 144
  // series 1000 times, reading 180 points each), and on every run of a one-GPU series run
  // nightly. The one-GPU series' change points are recomputed on each of its runs. 0: always.
  std::chrono::seconds model_change_points_interval{12 * 3600};
  // Fleet view, for runs not of a schedule (a schedule run is its own night): the same-software
  // runs of the model that finished within this span before the analysed run did.
  std::chrono::hours fleet_window{24};
  // Fleet view of a night that comes from a schedule run, whose size is known when it fires (its
  // jobs that did not fail or get cancelled): nothing is judged until this share of those jobs
  // has finished. Each analysis compares the runs finished so far and an OUTLIER once written
  // stays, so the night's first runs judged against each other (4 of 128) gave most of the
  // fleet's false drains (docs/results/health_false_alarms.md). Below 1 so a straggler or a job
  // stuck in the queue does not keep the night from being judged. Nights without a schedule
  // have no known size and are judged from their first 4 GPUs.
  double fleet_min_night_share = 0.75;
  // A confirmation job still QUEUED this long after it was created is cancelled and its suspects
  // open unconfirmed: its GPU left the fleet (or stays busy) and a suspect must not wait forever.
  // A day: a node rebooted or drained overnight is back within it.
  std::chrono::seconds confirmation_queue_timeout{24 * 3600};
  // Counter jobs for explanations (counter_plan.h): a worker's run whose cases have no counters at
  // their level on its GPU queues one (its first night: the whole suite once; then only after a
  // level change). Off: explanations of findings have counter diffs only where the timed or
  // confirmation runs carry counters.
  bool counter_jobs = true;
};

struct RunAnalysisSummary;  // run_analyzer.h

struct AnalysisLoopOptions {
  AnalysisConfig config;
  // Fallback when a NOTIFY was missed (or the listener is down): a pass at least this often.
  std::chrono::milliseconds fallback_interval{60000};
  // Runs analysed per pass at most, so one pass never runs unbounded; the next pass follows at
  // once while runs remain.
  int max_runs_per_pass = 20;
  // Called on the loop's thread after each run's analysis committed (metrics); may be empty.
  std::function<void(const RunAnalysisSummary&)> on_analysed;
};

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_ANALYSIS_CONFIG_H_
