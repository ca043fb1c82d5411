// File: server/analysis/night_peers.cc
#include "server/analysis/night_peers.h"

#include <algorithm>
#include <tuple>

namespace warpwatch::server::analysis {

StatusOr<std::map<std::string, std::vector<detect::RunPoint>>> NightPeerCache::Peers(
    AnalysisTx& tx, const std::vector<std::string>& series_ids, int64_t from_micros,
    int64_t to_micros, double max_throttled_fraction) {
  if (max_throttled_fraction != max_throttled_fraction_) {
    runs_.clear();
    max_throttled_fraction_ = max_throttled_fraction;
  }
  ASSIGN_OR_RETURN(std::vector<PeerRun> peers, tx.NightPeerRuns(from_micros, to_micros));
  std::vector<int64_t> unread;
  std::set<int64_t> night;
  for (const PeerRun& peer : peers) {
    night.insert(peer.run_id);
    auto it = runs_.find(peer.run_id);
    const bool complete =
        it != runs_.end() && std::all_of(series_ids.begin(), series_ids.end(),
                                         [&](const std::string& id) { return it->second.read.count(id) > 0; });
    if (!complete) unread.push_back(peer.run_id);
  }
  if (!unread.empty()) {
    ASSIGN_OR_RETURN(auto points, tx.GoodPointsOfRuns(series_ids, unread, max_throttled_fraction));
    for (int64_t run_id : unread) {
      CachedRun& run = runs_[run_id];
      run.read.insert(series_ids.begin(), series_ids.end());
      auto found = points.find(run_id);
      if (found == points.end()) continue;
      for (auto& [series_id, point] : found->second) run.points[series_id] = std::move(point);
    }
  }
  // Each device's latest peer run with a good point of the series (finish time, then run id).
  std::sort(peers.begin(), peers.end(), [](const PeerRun& a, const PeerRun& b) {
    return std::tie(a.device_uuid, b.finished_at_micros, b.run_id) <
           std::tie(b.device_uuid, a.finished_at_micros, a.run_id);
  });
  std::map<std::string, std::vector<detect::RunPoint>> out;
  for (const std::string& series_id : series_ids) {
    if (out.count(series_id) > 0) continue;  // asked twice
    std::vector<detect::RunPoint> devices;
    const std::string* last_device = nullptr;
    for (const PeerRun& peer : peers) {
      if (last_device != nullptr && *last_device == peer.device_uuid) continue;
      const CachedRun& run = runs_.at(peer.run_id);
      auto point = run.points.find(series_id);
      if (point == run.points.end()) continue;
      devices.push_back(point->second);
      last_device = &peer.device_uuid;
    }
    if (!devices.empty()) out[series_id] = std::move(devices);
  }
  Trim(night);
  return out;
}

bool NightPeerCache::Reported(int64_t run_id, const std::string& series_id) const {
  return reported_.count({run_id, series_id}) > 0;
}

void NightPeerCache::NoteReported(int64_t run_id, const std::string& series_id) {
  pending_.insert({run_id, series_id});
}

int NightPeerCache::FleetJudgedCases(int64_t run_id) const {
  auto it = fleet_judged_.find(run_id);
  return it == fleet_judged_.end() ? 0 : it->second;
}

void NightPeerCache::NoteFleetJudged(int64_t run_id, int cases) {
  int& noted = pending_fleet_judged_[run_id];
  noted = std::max(noted, cases);
}

void NightPeerCache::Commit() {
  reported_.insert(pending_.begin(), pending_.end());
  pending_.clear();
  for (const auto& [run_id, cases] : pending_fleet_judged_) {
    int& stored = fleet_judged_[run_id];
    stored = std::max(stored, cases);
  }
  pending_fleet_judged_.clear();
}

void NightPeerCache::Discard() {
  pending_.clear();
  pending_fleet_judged_.clear();
}

void NightPeerCache::Trim(const std::set<int64_t>& keep) {
  if (runs_.size() <= max_runs_) return;
  for (auto it = runs_.begin(); it != runs_.end();) {
    it = keep.count(it->first) > 0 ? std::next(it) : runs_.erase(it);
  }
  for (auto it = reported_.begin(); it != reported_.end();) {
    it = runs_.count(it->first) > 0 ? std::next(it) : reported_.erase(it);
  }
  for (auto it = fleet_judged_.begin(); it != fleet_judged_.end();) {
    it = runs_.count(it->first) > 0 ? std::next(it) : fleet_judged_.erase(it);
  }
}

}  // namespace warpwatch::server::analysis
