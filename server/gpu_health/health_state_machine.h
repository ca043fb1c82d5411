// File: server/gpu_health/health_state_machine.h
// The hysteresis of the GPU health verdict: fed a GPU's judged runs oldest first, it changes
// state only after HealthPolicy::runs_to_change consecutive runs support the new state (for a
// worse state, with one subsystem sick on every one of them), and remembers each subsystem's
// latest episode as the verdict's evidence.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_HEALTH_STATE_MACHINE_H_
#define WARPWATCH_SERVER_GPU_HEALTH_HEALTH_STATE_MACHINE_H_

#include <map>
#include <set>

#include "server/gpu_health/run_judgement.h"

namespace warpwatch::server::gpu_health {

// A subsystem's consecutive sick runs, the newest streak (kept after it ended).
struct Episode {
  int runs = 0;
  TimePoint since;       // start of its first run
  bool ongoing = false;  // sick on the newest judged run
  bool failing = false;  // failing on its newest run
  double min_change = 0;
  double max_change = 0;
  double max_z = 0;
  SubsystemSickness newest;  // its newest run's sickness
  int64_t newest_run_id = 0;
};

// Not thread-safe (one per verdict).
class HealthStateMachine {
 public:
  // Starts HEALTHY since `start` (the window's start, or a repair).
  HealthStateMachine(int runs_to_change, TimePoint start);

  // One judged run (j.judged), oldest first.
  void Observe(const RunJudgement& j, int64_t run_id, TimePoint started_at);

  v1::GpuHealthState state() const { return state_; }
  TimePoint since() const { return since_; }
  const std::map<v1::GpuSubsystem, Episode>& episodes() const { return episodes_; }
  // Per subsystem, its newest episode of runs_to_change runs or more that a newer, shorter one
  // followed (sick, sick, clean, sick: the first two), since the state was last HEALTHY: what
  // made a state that the newest episodes alone do not explain.
  const std::map<v1::GpuSubsystem, Episode>& decisive_episodes() const { return decisive_; }

 private:
  struct Streak {
    int runs = 0;
    TimePoint since;
    std::set<v1::GpuSubsystem> subsystems;  // sick on every run of it (worse states only)
  };
  // Extends `s` with a run for which the streak's condition `holds`; `subsystems` must then share
  // one with the streak's unless `any` (clean and mild streaks need none).
  static void Extend(Streak& s, bool holds, const std::set<v1::GpuSubsystem>& subsystems, bool any,
                     TimePoint at);

  const int runs_to_change_;
  v1::GpuHealthState state_ = v1::GPU_HEALTH_STATE_HEALTHY;
  TimePoint since_;
  Streak bad_;      // DEGRADED or FAILING runs
  Streak failing_;  // FAILING runs
  Streak mild_;     // DEGRADED, not FAILING, runs
  Streak clean_;    // clean runs
  std::map<v1::GpuSubsystem, Episode> episodes_;
  std::map<v1::GpuSubsystem, Episode> decisive_;
  std::set<v1::GpuSubsystem> last_sick_;  // sick on the previous judged run
};

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_HEALTH_STATE_MACHINE_H_
