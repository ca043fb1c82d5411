// File: server/analysis/fleet_pass.cc
#include "server/analysis/fleet_pass.h"

#include <cmath>
#include <limits>

#include "server/analysis/finding_builder.h"

namespace warpwatch::server::analysis {

bool NightReadyForFleetView(const NightSize& size, double min_share) {
  if (size.expected <= 0) return true;
  return size.finished >= static_cast<int>(std::ceil(min_share * size.expected - 1e-9));
}

FleetPass RunFleetPass(const ClaimedRun& run, const std::vector<RunCase>& cases,
                       const std::map<std::string, std::vector<detect::RunPoint>>& peers,
                       const std::map<std::string, detect::NoiseEstimate>& noise,
                       const detect::FleetConfig& config, const NightPeerCache& night) {
  FleetPass pass;
  for (const RunCase& c : cases) {
    auto devices = peers.find(c.series_id);
    if (devices == peers.end()) continue;
    auto case_noise = noise.find(c.series_id);
    const double sigma = case_noise != noise.end() && case_noise->second.known()
                             ? case_noise->second.sigma_relative
                             : std::numeric_limits<double>::quiet_NaN();
    const detect::FleetView view = detect::FindFleetOutliers(devices->second, config, sigma);
    if (view.judged) {
      for (const detect::DeviceJudgement& d : view.devices) {
        FleetJudged& j = pass.judged[d.run_id];
        ++j.cases;
        j.families.insert(c.family);
      }
    }
    for (Finding& f : FindingsFromFleet(run, c, view, config)) {
      // Another device's outlier is reported by the first run of the night that sees it; later
      // runs would only send the same row again (a no-op insert with ~G baseline ids).
      if (f.run_id != 0 && night.Reported(f.run_id, f.series_id)) continue;
      pass.findings.push_back(std::move(f));
      pass.finding_cases.push_back(&c);
    }
  }
  return pass;
}

Status RecordFleetJudged(AnalysisTx& tx, std::map<int64_t, FleetJudged> judged,
                         NightPeerCache& night) {
  for (auto it = judged.begin(); it != judged.end();) {
    it = night.FleetJudgedCases(it->first) >= it->second.cases ? judged.erase(it) : std::next(it);
  }
  if (judged.empty()) return OkStatus();
  RETURN_IF_ERROR(tx.RecordFleetJudged(judged));
  for (const auto& [run_id, j] : judged) night.NoteFleetJudged(run_id, j.cases);
  return OkStatus();
}

}  // namespace warpwatch::server::analysis
