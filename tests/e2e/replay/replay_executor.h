// File: tests/e2e/replay/replay_executor.h
// The end-to-end tests' Executor: replays measurements recorded on a real GPU (a RunResult written
// by `warpwatch-worker run --out`). For each requested point it returns the recorded Measurement
// with the same canonical key (changed as ReplayOptions::change says), after sleeping the point's
// recorded total sample time (scaled and capped, so a job takes a realistic moment without making
// the tests slow). A point missing from the recording is SKIPPED: "family F is not implemented by
// this worker (not in replay fixture)" when the recording has no point of its family at all, else
// "not in replay fixture". A point recorded without counters and without a counters_note,
// replayed for a request that asks for the counter pass, gets the note "counters not in the replay
// fixture (...)": the real engine answers counters or why there are none, never neither (the
// analysis would queue a counter job for the case every night). Test-tree only: the production
// worker has no replay mode.
#ifndef WARPWATCH_TESTS_E2E_REPLAY_REPLAY_EXECUTOR_H_
#define WARPWATCH_TESTS_E2E_REPLAY_REPLAY_EXECUTOR_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/e2e/replay/replay_change.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/executor/executor.h"

namespace warpwatch::e2e {

struct ReplayOptions {
  double time_scale = 1;           // sleep = recorded sample time x this ...
  double max_point_seconds = 0.5;  // ... capped at this
  ReplayChange change;             // applied to every environment and OK point replayed
};

// A node run's recording (`warpwatch-worker run --node`, several GPUs) replayed beside the GPU's,
// by a replay worker of several GPUs: its points join those replayed (the node families: node
// jobs), and its environment's gpu_links, each recorded GPU uuid mapped by CUDA ordinal to the
// uuid of `devices` (the replay worker's GPUs; links of ordinals beyond them dropped), are every
// replayed run's topology, as the real worker reads NVML's for every run.
struct NodeRecording {
  v1::RunResult recording;
  std::vector<v1::Device> devices;
};

// Reads a RunResult JSON file (protobuf JSON mapping).
StatusOr<v1::RunResult> LoadRunResult(const std::string& path);

// Families the recording worker implemented: those with a point recorded OK or FAILED (a family it
// lacked has its points recorded SKIPPED), sorted. What the replay worker registers.
std::vector<std::string> RecordedFamilies(const v1::RunResult& recording);

// The node recording's gpu_links on `devices` (NodeRecording): uuids mapped by ordinal.
std::vector<v1::GpuLink> ReplayedGpuLinks(const NodeRecording& node);

// Thread-safe for concurrent Execute calls (read-only recording).
class ReplayExecutor : public worker::Executor {
 public:
  // `device` is reported in the environment (the recording's, possibly with another UUID).
  // `node`, when given, is replayed too (NodeRecording).
  ReplayExecutor(const v1::RunResult& recording, v1::Device device, ReplayOptions options,
                 const NodeRecording* node = nullptr);

  StatusOr<worker::ExecutionResult> Execute(const worker::ExecutionRequest& request,
                                            const worker::ExecutionCallbacks& callbacks) override;

 private:
  v1::RunEnvironment environment_;
  std::map<std::string, v1::Measurement> by_key_;  // canonical -> recorded measurement
  std::set<std::string> families_;
  ReplayOptions options_;
};

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_REPLAY_REPLAY_EXECUTOR_H_
