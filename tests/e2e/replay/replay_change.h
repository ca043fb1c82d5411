// File: tests/e2e/replay/replay_change.h
// What a replay worker pretends changed since the recording, so that the end-to-end tests can
// stage what the detector and the incident sweep must find on a fleet of replay GPUs: a slower
// GPU or code (every time x slowdown, or only the times of some families: a sick subsystem), a
// lower SM clock (every time x recorded clock / new clock, the cycles unchanged, as a clock drop
// looks), another driver. Test-tree only.
#ifndef WARPWATCH_TESTS_E2E_REPLAY_REPLAY_CHANGE_H_
#define WARPWATCH_TESTS_E2E_REPLAY_REPLAY_CHANGE_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::e2e {

struct ReplayChange {
  double slowdown = 1;  // > 0: every time of every OK point x this (1 = as recorded)
  std::vector<std::string> slowdown_families;  // the slowdown only for these (empty: every one)
  double sm_clock_mhz = 0;     // > 0: every sample ran at this SM clock (0 = as recorded)
  std::string driver_version;  // "" = as recorded
};

// INVALID_ARGUMENT naming the field when slowdown <= 0 or sm_clock_mhz < 0.
Status ValidateReplayChange(const ReplayChange& change);

// The driver version and the SM clock at the start, as the change says.
void ApplyToEnvironment(const ReplayChange& change, v1::RunEnvironment* environment);

// Every time of an OK point (samples, their statistics, the kernels' own durations) x the
// slowdown (where its family is one of slowdown_families, when any are named) and, with a clock, x
// its recorded median SM clock / the new clock; throughputs divided by the same; the per-sample and
// median SM clocks set to the new one (where recorded). Points that are not OK are left as
// recorded.
void ApplyToMeasurement(const ReplayChange& change, v1::Measurement* m);

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_REPLAY_REPLAY_CHANGE_H_
