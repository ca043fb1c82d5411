// File: server/gpu_health/health_state_machine.cc
#include "server/gpu_health/health_state_machine.h"

#include <algorithm>
#include <iterator>

namespace warpwatch::server::gpu_health {

HealthStateMachine::HealthStateMachine(int runs_to_change, TimePoint start)
    : runs_to_change_(std::max(1, runs_to_change)), since_(start) {}

void HealthStateMachine::Extend(Streak& s, bool holds, const std::set<v1::GpuSubsystem>& subsystems,
                                bool any, TimePoint at) {
  if (!holds) {
    s = Streak();
    return;
  }
  if (s.runs > 0 && !any) {
    std::set<v1::GpuSubsystem> common;
    std::set_intersection(s.subsystems.begin(), s.subsystems.end(), subsystems.begin(),
                          subsystems.end(), std::inserter(common, common.begin()));
    if (common.empty()) {
      s = Streak();  // another subsystem: a new streak, not a continuation
    } else {
      s.subsystems = std::move(common);
    }
  }
  if (s.runs == 0) {
    s.since = at;
    s.subsystems = subsystems;
  }
  ++s.runs;
}

void HealthStateMachine::Observe(const RunJudgement& j, int64_t run_id, TimePoint started_at) {
  std::set<v1::GpuSubsystem> sick, failing;
  for (auto& [subsystem, episode] : episodes_) episode.ongoing = false;
  for (const SubsystemSickness& s : j.sick) {
    sick.insert(s.subsystem);
    if (s.failing) failing.insert(s.subsystem);
  }
  // Episodes: a subsystem sick on this run continues its streak only if it was sick on the
  // previous judged run too.
  for (const SubsystemSickness& s : j.sick) {
    Episode& e = episodes_[s.subsystem];
    if (e.runs == 0 || last_sick_.count(s.subsystem) == 0) {
      if (e.runs >= runs_to_change_) decisive_[s.subsystem] = e;
      e = Episode();
      e.since = started_at;
      e.min_change = s.min_change;
      e.max_change = s.max_change;
    }
    ++e.runs;
    e.ongoing = true;
    e.failing = s.failing;
    e.min_change = std::min(e.min_change, s.min_change);
    e.max_change = std::max(e.max_change, s.max_change);
    e.max_z = std::max(e.max_z, s.max_z);
    e.newest = s;
    e.newest_run_id = run_id;
  }
  last_sick_ = sick;

  Extend(bad_, j.level != RunLevel::kClean, sick, false, started_at);
  Extend(failing_, j.level == RunLevel::kFailing, failing, false, started_at);
  Extend(mild_, j.level == RunLevel::kDegraded, {}, true, started_at);
  Extend(clean_, j.level == RunLevel::kClean, {}, true, started_at);

  v1::GpuHealthState next = state_;
  TimePoint next_since = since_;
  const int k = runs_to_change_;
  if (failing_.runs >= k) {
    next = v1::GPU_HEALTH_STATE_FAILING;
    next_since = failing_.since;
  } else if (state_ == v1::GPU_HEALTH_STATE_FAILING) {
    if (mild_.runs >= k) {
      next = v1::GPU_HEALTH_STATE_DEGRADED;
      next_since = mild_.since;
    } else if (clean_.runs >= k) {
      next = v1::GPU_HEALTH_STATE_HEALTHY;
      next_since = clean_.since;
    }
  } else if (bad_.runs >= k) {
    next = v1::GPU_HEALTH_STATE_DEGRADED;
    next_since = bad_.since;
  } else if (clean_.runs >= k) {
    next = v1::GPU_HEALTH_STATE_HEALTHY;
    next_since = clean_.since;
  }
  if (next != state_) {
    state_ = next;
    since_ = next_since;
  }
  if (state_ == v1::GPU_HEALTH_STATE_HEALTHY) decisive_.clear();
}

}  // namespace warpwatch::server::gpu_health
