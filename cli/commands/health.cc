// File: cli/commands/health.cc
// `warpwatch health [--device U] [--node H] [--state S] [--check]`: GPU health verdicts
// (FleetService GetGpuHealth / ListGpuHealth); with --check a Nagios plugin whose exit status is
// the worst state (0 healthy, 1 degraded, 2 failing, 3 unknown) and 3 for any error of its own.
// `warpwatch health-mark UUID repaired|excluded|included --note N` (admins: MarkGpuHealth).
#include <CLI/CLI.hpp>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/gpu_health_view.h"
#include "cli/format/json.h"
#include "common/health/nagios_code.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::cli {
namespace {

constexpr int kNagiosUnknown = 3;

struct HealthFlags {
  std::string device;
  std::string node;
  std::vector<std::string> states;
  bool check = false;
};

struct MarkFlags {
  std::string device;
  std::string action;
  std::string note;
};

StatusOr<v1::GpuHealthState> ParseHealthState(const std::string& text) {
  if (text == "healthy") return v1::GPU_HEALTH_STATE_HEALTHY;
  if (text == "degraded") return v1::GPU_HEALTH_STATE_DEGRADED;
  if (text == "failing") return v1::GPU_HEALTH_STATE_FAILING;
  if (text == "unknown") return v1::GPU_HEALTH_STATE_UNKNOWN;
  return InvalidArgumentError("--state: \"" + text +
                              "\" is not healthy, degraded, failing or unknown");
}

// An error of the command itself: its usual exit code, or with --check Nagios' UNKNOWN (so an
// unreachable server never reads as a failing GPU) and the plugin line.
int Fail(const HealthFlags& flags, const grpc::Status& status) {
  const int code = ReportError(status);
  if (!flags.check) return code;
  std::cout << "WARPWATCH GPU HEALTH UNKNOWN - the check itself failed: " << status.error_message()
            << "\n";
  return kNagiosUnknown;
}
int Fail(const HealthFlags& flags, const Status& status) {
  const int code = ReportError(status);
  if (!flags.check) return code;
  std::cout << "WARPWATCH GPU HEALTH UNKNOWN - the check itself failed: " << status.message()
            << "\n";
  return kNagiosUnknown;
}

int RunHealth(const ClientOptions& client, const HealthFlags& flags) {
  v1::ListGpuHealthRequest request;
  request.set_hostname(flags.node);
  for (const std::string& text : flags.states) {
    StatusOr<v1::GpuHealthState> state = ParseHealthState(text);
    if (!state.ok()) return Fail(flags, state.status());
    request.add_states(*state);
  }
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return Fail(flags, channel.status());
  auto stub = v1::FleetService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::ListGpuHealthResponse response;
  if (!flags.device.empty()) {
    v1::GetGpuHealthRequest get;
    get.set_device_uuid(flags.device);
    v1::GpuHealth health;
    grpc::Status status = stub->GetGpuHealth(context.get(), get, &health);
    if (!status.ok()) return Fail(flags, status);
    const bool node_matches = flags.node.empty() || health.hostname() == flags.node;
    if (node_matches) *response.add_gpus() = std::move(health);
  } else {
    grpc::Status status = stub->ListGpuHealth(context.get(), request, &response);
    if (!status.ok()) return Fail(flags, status);
  }
  std::vector<v1::GpuHealth> gpus(response.gpus().begin(), response.gpus().end());
  if (client.json) {
    std::cout << ToJson(response, /*pretty=*/true) << "\n";
  } else if (flags.check) {
    PrintNagiosCheck(gpus, std::cout);
  } else {
    PrintGpuHealthTable(gpus, std::cout);
  }
  return flags.check ? NagiosCode(WorstState(gpus)) : kExitOk;
}

StatusOr<v1::GpuHealthAction> ParseAction(const std::string& text) {
  if (text == "repaired") return v1::GPU_HEALTH_ACTION_REPAIRED;
  if (text == "excluded") return v1::GPU_HEALTH_ACTION_EXCLUDED;
  if (text == "included") return v1::GPU_HEALTH_ACTION_INCLUDED;
  return InvalidArgumentError("\"" + text + "\" is not repaired, excluded or included");
}

int RunMark(const ClientOptions& client, const MarkFlags& flags) {
  StatusOr<v1::GpuHealthAction> action = ParseAction(flags.action);
  if (!action.ok()) return ReportError(action.status());
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::FleetService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::MarkGpuHealthRequest request;
  request.set_device_uuid(flags.device);
  request.set_action(*action);
  request.set_note(flags.note);
  v1::GpuHealth health;
  grpc::Status status = stub->MarkGpuHealth(context.get(), request, &health);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(health, /*pretty=*/true) << "\n";
  } else {
    PrintGpuHealthTable({health}, std::cout);
  }
  return kExitOk;
}

}  // namespace

bool WantsNagiosCodes(int argc, char** argv) {
  // --check is the health command's flag alone, so it is looked for without the verb: a mistyped
  // verb ("helth --check") is as much the check's own error as a mistyped flag.
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0 || std::strncmp(argv[i], "--check=", 8) == 0) {
      return true;
    }
  }
  return false;
}

void RegisterHealth(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<HealthFlags>();
  CLI::App* cmd = app.add_subcommand(
      "health",
      "GPU health verdicts: healthy, degraded, failing or unknown, with the evidence "
      "(docs/gpu_health.md)");
  cmd->add_option("--device", flags->device, "one GPU, by UUID");
  cmd->add_option("--node", flags->node, "the GPUs of one host (its worker's hostname)");
  cmd->add_option("--state", flags->states,
                  "healthy, degraded, failing or unknown (repeatable: any of)");
  cmd->add_flag("--check", flags->check,
                "Nagios plugin: exit 0 healthy, 1 degraded, 2 failing, 3 unknown (the worst GPU "
                "listed; 3 also for any error of the command, a mistyped flag included)");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunHealth(client, *flags); });

  auto mark = std::make_shared<MarkFlags>();
  CLI::App* mark_cmd = app.add_subcommand(
      "health-mark", "Overrule a GPU's verdict (admins): repaired, excluded or included");
  mark_cmd->add_option("uuid", mark->device, "the GPU's UUID")->required();
  mark_cmd
      ->add_option("action", mark->action,
                   "repaired (its evidence so far no longer counts), excluded (UNKNOWN until "
                   "included) or included")
      ->required();
  mark_cmd->add_option("--note", mark->note, "what was done, or why")->required();
  mark_cmd->callback([&client, exit_code, mark] { *exit_code = RunMark(client, *mark); });
}

}  // namespace warpwatch::cli
