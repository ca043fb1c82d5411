// File: tests/e2e/replay/replay_worker_main.cc
// warpwatch-worker-replay: the worker daemon (`serve`) with a ReplayExecutor instead of GPUs, for
// the end-to-end tests. One GPU by default: the recording's device, optionally under another UUID
// so several replay workers can run beside each other. --replay-gpus N: N such GPUs (CUDA
// ordinals 0..N-1; GPU 0 under --replay-uuid U, GPU i under U-i), one executor each, as the real
// daemon has; --replay-node-fixture: a node run's recording replayed too (NodeRecording: node
// jobs, and the node's gpu_links on every run). Test-tree only.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "tests/e2e/replay/replay_executor.h"
#include "worker/daemon/serve_command.h"

int main(int argc, char** argv) {
  using namespace warpwatch;
  CLI::App app{"warpwatch-worker-replay: the worker daemon replaying a recorded run (tests only)"};
  app.require_subcommand(1);
  worker::ServeOptions options;
  CLI::App* serve = worker::AddServeCommand(app, &options);
  std::string fixture;
  std::string uuid;
  e2e::ReplayOptions replay;
  serve->add_option("--replay-fixture", fixture, "RunResult JSON to replay")->required();
  serve->add_option("--replay-uuid", uuid, "register the recorded GPU under this UUID");
  int gpus = 1;
  std::string node_fixture;
  serve->add_option("--replay-gpus", gpus, "GPUs the worker registers (1..8)")
      ->check(CLI::Range(1, 8));
  serve->add_option("--replay-node-fixture", node_fixture,
                    "RunResult JSON of a node run (`warpwatch-worker run --node`) to replay too");
  serve->add_option("--replay-time-scale", replay.time_scale, "recorded sample time x this");
  serve->add_option("--replay-max-point-seconds", replay.max_point_seconds,
                    "cap of the time one point takes");
  serve->add_option("--replay-slowdown", replay.change.slowdown,
                    "every replayed time x this (a slower GPU or code)");
  serve
      ->add_option("--replay-slowdown-families", replay.change.slowdown_families,
                   "the slowdown only for these families (comma-separated; default: every one)")
      ->delimiter(',');
  serve->add_option("--replay-sm-clock-mhz", replay.change.sm_clock_mhz,
                    "replay as if every sample ran at this SM clock (the cycles unchanged)");
  serve->add_option("--replay-driver-version", replay.change.driver_version,
                    "report this driver version instead of the recording's");
  CLI11_PARSE(app, argc, argv);
  if (Status valid = e2e::ValidateReplayChange(replay.change); !valid.ok()) {
    std::cerr << valid.ToString() << "\n";
    return worker::kServeExitUsage;
  }

  StatusOr<v1::RunResult> recording = e2e::LoadRunResult(fixture);
  if (!recording.ok()) {
    std::cerr << recording.status().ToString() << "\n";
    return worker::kServeExitUsage;
  }
  std::vector<v1::Device> devices;
  for (int i = 0; i < gpus; ++i) {
    v1::Device device = recording->environment().device();
    if (!uuid.empty()) device.set_uuid(i == 0 ? uuid : uuid + "-" + std::to_string(i));
    device.set_index(i);
    devices.push_back(std::move(device));
  }
  std::optional<e2e::NodeRecording> node;
  if (!node_fixture.empty()) {
    StatusOr<v1::RunResult> node_recording = e2e::LoadRunResult(node_fixture);
    if (!node_recording.ok()) {
      std::cerr << node_recording.status().ToString() << "\n";
      return worker::kServeExitUsage;
    }
    node = e2e::NodeRecording{std::move(node_recording).value(), devices};
  }
  worker::ServeHooks hooks;
  hooks.list_devices = [devices]() -> StatusOr<std::vector<v1::Device>> { return devices; };
  hooks.make_executor = [&](const v1::Device& d) -> std::unique_ptr<worker::Executor> {
    return std::make_unique<e2e::ReplayExecutor>(*recording, d, replay, node ? &*node : nullptr);
  };
  std::set<std::string> families;
  for (const v1::RunResult* r : {&*recording, node ? &node->recording : nullptr}) {
    if (r == nullptr) continue;
    for (std::string& f : e2e::RecordedFamilies(*r)) families.insert(std::move(f));
  }
  hooks.families.assign(families.begin(), families.end());
  hooks.version = "replay";
  return worker::RunServe(options, hooks);
}
