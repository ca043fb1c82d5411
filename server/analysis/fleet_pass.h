// File: server/analysis/fleet_pass.h
// The fleet view of one run's analysis: every case of the run against the same case measured by
// the other GPUs of its model that night (detect::FindFleetOutliers). It yields the OUTLIER rows
// to report and, per run of the night, what the view compared, so the GPU health verdict can
// tell a run seen clean from a run not looked at.
#ifndef WARPWATCH_SERVER_ANALYSIS_FLEET_PASS_H_
#define WARPWATCH_SERVER_ANALYSIS_FLEET_PASS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "server/analysis/analysis_store.h"
#include "server/analysis/night_peers.h"
#include "server/detect/fleet_outliers.h"
#include "server/detect/noise_model.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::analysis {

struct FleetPass {
  std::vector<Finding> findings;              // OUTLIER rows this loop has not reported yet
  std::vector<const RunCase*> finding_cases;  // the claimed run's case of each row
  std::map<int64_t, FleetJudged> judged;      // run id -> what the view compared of it
};

// Judges every case of `cases` (the claimed run's, every one: a case with a standing finding on
// this GPU too, since its fleet comparison is the only one that tells a sick GPU from a changed
// build) against `peers` (NightPeerCache::Peers) with the case's model noise (`noise`; unknown:
// not judged). Rows another analysis of this loop already reported (`night`) are left out.
// `judged` holds each run whose point the view compared (every good device of a judged view),
// with the count of such cases and their families. Pure but for reading `night`.
// Whether the fleet view may judge the claimed run's night: a night without a schedule (size
// unknown, `size.expected` 0) always; a scheduled one once ceil(min_share x expected) of its
// jobs finished (AnalysisConfig::fleet_min_night_share).
bool NightReadyForFleetView(const NightSize& size, double min_share);

FleetPass RunFleetPass(const ClaimedRun& run, const std::vector<RunCase>& cases,
                       const std::map<std::string, std::vector<detect::RunPoint>>& peers,
                       const std::map<std::string, detect::NoiseEstimate>& noise,
                       const detect::FleetConfig& config, const NightPeerCache& night);

// Stores `judged` (FleetPass::judged), leaving out the runs whose stored count `night` already
// holds: in a 1000-GPU night each analysis compares every run of the night so far, and all but
// its own were written by earlier analyses of the loop. Another replica's loop sends each of
// those once; the store leaves rows that would not grow unwritten. Notes what it wrote in
// `night` (counted once the analysis commits). Errors: the store's.
Status RecordFleetJudged(AnalysisTx& tx, std::map<int64_t, FleetJudged> judged,
                         NightPeerCache& night);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_FLEET_PASS_H_
