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
  // Fleet view: the latest good run of each device of the model that finished within this span
  // before the analysed run did ("one night", with slack for a night whose jobs queue for hours).
  std::chrono::hours fleet_window{24};
  // A confirmation job still QUEUED this long after it was created is cancelled and its suspects
  // open unconfirmed: its GPU left the fleet (or stays busy) and a suspect must not wait forever.
  // A day: a node rebooted or drained overnight is back within it.
  std::chrono::seconds confirmation_queue_timeout{24 * 3600};
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
