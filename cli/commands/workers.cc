// File: cli/commands/workers.cc
// `warpwatch workers`: the fleet: workers, their GPUs, state, current job per GPU, last heartbeat.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/duration.h"
#include "cli/format/json.h"
#include "cli/format/worker_view.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct WorkersFlags {
  std::vector<std::string> states;
};

StatusOr<v1::WorkerState> ParseWorkerState(const std::string& text) {
  if (text == "online") return v1::WORKER_STATE_ONLINE;
  if (text == "offline") return v1::WORKER_STATE_OFFLINE;
  return InvalidArgumentError("--state: \"" + text + "\" is not online or offline");
}

int RunWorkers(const ClientOptions& client, const WorkersFlags& flags) {
  v1::ListWorkersRequest request;
  for (const std::string& text : flags.states) {
    StatusOr<v1::WorkerState> state = ParseWorkerState(text);
    if (!state.ok()) return ReportError(state.status());
    request.add_states(*state);
  }
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::FleetService::NewStub(*channel);
  // Every page, gathered into one response (the table and --json show the whole fleet).
  v1::ListWorkersResponse response;
  while (true) {
    auto context = MakeContext(client, kCallTimeout);
    v1::ListWorkersResponse page;
    grpc::Status status = stub->ListWorkers(context.get(), request, &page);
    if (!status.ok()) return ReportError(status);
    for (v1::WorkerInfo& worker : *page.mutable_workers()) {
      *response.add_workers() = std::move(worker);
    }
    response.set_heartbeat_interval_seconds(page.heartbeat_interval_seconds());
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  if (client.json) {
    std::cout << ToJson(response, /*pretty=*/true) << "\n";
  } else {
    PrintWorkerTable(response, Now(), std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterWorkers(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<WorkersFlags>();
  CLI::App* cmd = app.add_subcommand(
      "workers", "List workers, their GPUs, state, current job per GPU and last heartbeat");
  cmd->add_option("--state", flags->states, "online or offline (repeatable: any of)");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunWorkers(client, *flags); });
}

}  // namespace warpwatch::cli
