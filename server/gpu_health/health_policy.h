// File: server/gpu_health/health_policy.h
// The thresholds of the GPU health verdict, with why each has its value (docs/gpu_health.md).
#ifndef WARPWATCH_SERVER_GPU_HEALTH_HEALTH_POLICY_H_
#define WARPWATCH_SERVER_GPU_HEALTH_HEALTH_POLICY_H_

#include <chrono>

namespace warpwatch::server::gpu_health {

struct HealthPolicy {
  // Hysteresis: a state changes only after this many consecutive judged runs support the new one
  // (the same subsystem sick on each, for a worse state). Measured on virtual fleets resampled
  // from real runs (docs/results/health_false_alarms.md), with scheduled nights judged from 75 %
  // of their runs: a healthy GPU's night is "watching" in 0.65-4.5 % of GPU-nights (host-side
  // cases), and 2 runs give 0.03-0.28 false drains a night on 1000 GPUs in fleets of 32 peers,
  // <= 0.08 with 128, 1-2.9 with 8; 3 runs give none seen at 32 and more, for one more night before
  // a real fault is caught (+3 % faults lose a few fleets, +5 % none).
  int runs_to_change = 2;
  // A subsystem is sick on a run when at least this many of its cases are slower fleet outliers
  // (|z| >= 3.5 and >= 3 % against the night's peers: the fleet view's rule). One case alone is
  // the fleet view's per-case false alarm; a sick subsystem slows every kernel that stresses it.
  int min_cases = 2;
  // Sick by at least this much (the median change of its outlier cases, or the clock drop):
  // FAILING rather than DEGRADED. DCGM's diagnostic fails a GPU at 25 % under a reference; a
  // fifth of a subsystem's throughput lost holds back every rank of a job synchronised with it.
  double failing_change = 0.20;
  // Clocks and throttling: the GPU's median SM clock this far under its night's median ...
  double clock_drop = 0.03;
  // ... or this share of its cases throttled (> 5 % of samples) while its night's median share
  // is under a quarter of it. Throttled points are left out of the fleet view, so a throttling
  // GPU shows here, not as outliers.
  double throttled_share = 0.20;
  // A run is judged only when its night has this many GPUs of its model (itself included): the
  // fleet view's minimum; with fewer, peers cannot tell a sick GPU from a changed build.
  int min_night_devices = 4;
  // A node run's case (a collective, a pair's copy or read of >= 1 MiB) slower than its own
  // history by at least this much marks the GPU interconnect of the GPUs it concerns sick (a
  // collective: every GPU of the node; a pair: its two): the pair check's 10 % (pair_check.h).
  // The finding itself passed the detector's noise model; the floor keeps a confirmed 3 % drift
  // of bus bandwidth, which degrades no job, from degrading every GPU of a node.
  double history_min_change = 0.10;
  // No judged run (nor a repair) this recent: UNKNOWN. Two missed nightly runs.
  std::chrono::hours expiry{48};
  // How far back the verdict reads: runs started within `window`, at most `window_runs` a GPU.
  std::chrono::hours window{14 * 24};
  int window_runs = 14;
};

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_HEALTH_POLICY_H_
