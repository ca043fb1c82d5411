// File: server/analysis/night_peers.h
// The same-night peers of each analysed run, read once per night instead of once per run: the
// analysis of every run of a 1000-GPU night needs the points of all 1000 runs (the fleet view),
// and a finished run's points never change, so a loop keeps them between its analyses and reads
// only the runs it has not seen. Also remembers which fleet outliers it already reported, so later
// runs of the night do not re-send them.
#ifndef WARPWATCH_SERVER_ANALYSIS_NIGHT_PEERS_H_
#define WARPWATCH_SERVER_ANALYSIS_NIGHT_PEERS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"
#include "server/analysis/analysis_store.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::analysis {

// Not thread-safe: one per analysing thread (AnalysisLoop owns one). Its contents are facts about
// finished runs (SUCCEEDED runs' points, which nothing rewrites), valid across transactions and
// replicas; a run deleted by retention simply stops being a peer.
class NightPeerCache {
 public:
  // `max_runs`: runs kept; beyond it, runs that are not peers of the current night are dropped.
  explicit NightPeerCache(size_t max_runs = 20000) : max_runs_(max_runs) {}

  // Per series, the same-night peers of tx.run() (AnalysisTx::NightPeerRuns): the good point of
  // each device's latest peer run (by finish time, then run id) that has one, the claimed run's
  // own included, ordered by device UUID. Points under another `max_throttled_fraction` than the
  // cached ones are read again. Errors: the store's.
  StatusOr<std::map<std::string, std::vector<detect::RunPoint>>> Peers(
      AnalysisTx& tx, const std::vector<std::string>& series_ids, int64_t from_micros,
      int64_t to_micros, double max_throttled_fraction);

  // Fleet outliers reported (inserted, or found stored) as (run id, series id). Noted ones count
  // only once the analysis that noted them committed (Commit); Discard drops them.
  bool Reported(int64_t run_id, const std::string& series_id) const;
  void NoteReported(int64_t run_id, const std::string& series_id);

  // The fleet_judged_run case count of `run_id` this loop wrote (0: none); noted ones count only
  // once committed, as reported outliers do.
  int FleetJudgedCases(int64_t run_id) const;
  void NoteFleetJudged(int64_t run_id, int cases);

  void Commit();
  void Discard();

  size_t cached_runs() const { return runs_.size(); }

 private:
  struct CachedRun {
    std::set<std::string> read;                      // series asked for (present or not)
    std::map<std::string, detect::RunPoint> points;  // the good ones
  };

  // Drops the runs not in `keep` once more than max_runs_ are held.
  void Trim(const std::set<int64_t>& keep);

  size_t max_runs_;
  double max_throttled_fraction_ = -1;  // the goodness the cached points were read with
  std::map<int64_t, CachedRun> runs_;
  std::set<std::pair<int64_t, std::string>> reported_;
  std::set<std::pair<int64_t, std::string>> pending_;
  std::map<int64_t, int> fleet_judged_;
  std::map<int64_t, int> pending_fleet_judged_;
};

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_NIGHT_PEERS_H_
