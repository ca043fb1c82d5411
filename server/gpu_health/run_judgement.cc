// File: server/gpu_health/run_judgement.cc
#include "server/gpu_health/run_judgement.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "server/gpu_health/link_check.h"
#include "server/gpu_health/subsystem_map.h"

namespace warpwatch::server::gpu_health {
namespace {

double JudgementMedian(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The clocks-and-throttling sickness of `run`, if it shows one.
std::optional<SubsystemSickness> ClockSickness(const RunSummary& run, const HealthPolicy& policy) {
  SubsystemSickness s;
  s.subsystem = v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING;
  s.sm_clock_mhz = run.sm_clock_mhz;
  s.night_sm_clock_mhz = run.night_sm_clock_mhz;
  bool sick = false;
  if (run.sm_clock_mhz > 0 && run.night_sm_clock_mhz > 0) {
    const double drop = 1 - run.sm_clock_mhz / run.night_sm_clock_mhz;
    if (drop >= policy.clock_drop) {
      sick = true;
      s.change = drop;
    }
  }
  if (run.throttled_share >= policy.throttled_share &&
      run.night_throttled_share < run.throttled_share / 4) {
    sick = true;
  }
  if (!sick) return std::nullopt;
  s.min_change = s.max_change = s.change;
  s.failing = s.change >= policy.failing_change;
  return s;
}

// The interconnect sickness of `run`: its pairs that lost links against the pairs' references,
// those a node run found slower than the node's other pairs, and the node runs' collectives and
// pair cases slower than their own history by history_min_change or more.
std::optional<SubsystemSickness> LinkSickness(const RunSummary& run, const HealthPolicy& policy) {
  std::vector<CaseOutlier> slow = run.slow_pairs;
  for (const CaseOutlier& c : run.slower_than_history) {
    if (c.change >= policy.history_min_change) slow.push_back(c);
  }
  if (run.link_losses.empty() && slow.empty()) return std::nullopt;
  SubsystemSickness s;
  s.subsystem = v1::GPU_SUBSYSTEM_INTERCONNECT;
  std::vector<double> shares;
  for (const LinkLoss& loss : run.link_losses) {
    const double share = LinkLossShare(loss);
    shares.push_back(share);
    s.cases.push_back(CaseOutlier{DescribeLinkLoss(loss), "gpu_links", share, 0});
  }
  for (const CaseOutlier& c : slow) {
    shares.push_back(c.change);
    s.cases.push_back(c);
    s.max_z = std::max(s.max_z, c.z);
  }
  s.change = JudgementMedian(shares);
  s.min_change = *std::min_element(shares.begin(), shares.end());
  s.max_change = *std::max_element(shares.begin(), shares.end());
  s.failing = s.max_change >= policy.failing_change;
  return s;
}

}  // namespace

RunJudgement JudgeRun(const RunSummary& run, const HealthPolicy& policy) {
  RunJudgement j;
  // The interconnect needs no peers: a lost link is compared with the pair's own best
  // (link_check.h), a slow pair with the node's other pairs, a node run's collective or pair
  // case with its own history. Without peers a run is judged on that alone, and only when it shows
  // one: a clean link is not a GPU seen healthy.
  std::optional<SubsystemSickness> links = LinkSickness(run, policy);
  const bool peers = run.night_devices >= policy.min_night_devices;
  if (!peers && !links) {
    j.unjudged = Unjudged::kTooFewPeers;
    return j;
  }
  std::optional<SubsystemSickness> clocks =
      peers ? ClockSickness(run, policy) : std::optional<SubsystemSickness>();
  // The clocks are compared with the night's by the verdict itself; everything else only through
  // the fleet view, which may not have compared the run (yet): that run was not seen clean.
  if (run.fleet_judged_cases == 0 && !clocks && !links) {
    j.unjudged = Unjudged::kNotCompared;
    return j;
  }
  j.judged = true;
  std::set<v1::GpuSubsystem> measured;
  for (const std::string& family : run.fleet_judged_families) {
    const v1::GpuSubsystem s = SubsystemOfFamily(family);
    if (s != v1::GPU_SUBSYSTEM_UNSPECIFIED) measured.insert(s);
  }
  if (peers && run.sm_clock_mhz > 0) measured.insert(v1::GPU_SUBSYSTEM_CLOCKS_THROTTLING);
  if (run.links_checked > 0) measured.insert(v1::GPU_SUBSYSTEM_INTERCONNECT);
  std::map<v1::GpuSubsystem, std::vector<CaseOutlier>> by_subsystem;
  for (const CaseOutlier& o : run.outliers) {
    const v1::GpuSubsystem s = SubsystemOfFamily(o.family);
    if (o.change > 0 && s != v1::GPU_SUBSYSTEM_UNSPECIFIED) by_subsystem[s].push_back(o);
  }
  for (auto& [subsystem, cases] : by_subsystem) {
    if (static_cast<int>(cases.size()) < policy.min_cases) continue;
    SubsystemSickness s;
    s.subsystem = subsystem;
    std::vector<double> changes;
    for (const CaseOutlier& o : cases) {
      changes.push_back(o.change);
      s.max_z = std::max(s.max_z, o.z);
    }
    s.change = JudgementMedian(changes);
    s.min_change = *std::min_element(changes.begin(), changes.end());
    s.max_change = *std::max_element(changes.begin(), changes.end());
    s.failing = s.change >= policy.failing_change;
    s.cases = std::move(cases);
    j.sick.push_back(std::move(s));
  }
  if (clocks) j.sick.push_back(std::move(*clocks));
  if (links) j.sick.push_back(std::move(*links));
  for (const SubsystemSickness& s : j.sick) {
    measured.insert(s.subsystem);
    if (s.failing) {
      j.level = RunLevel::kFailing;
    } else if (j.level == RunLevel::kClean) {
      j.level = RunLevel::kDegraded;
    }
  }
  j.measured.assign(measured.begin(), measured.end());
  return j;
}

}  // namespace warpwatch::server::gpu_health
