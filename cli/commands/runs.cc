// File: cli/commands/runs.cc
// `warpwatch runs`: lists runs, newest first, following pages up to --limit.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/client/fetch_pages.h"
#include "cli/commands/commands.h"
#include "cli/commands/detail/flag_parsing.h"
#include "cli/format/json.h"
#include "cli/format/run_view.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct RunsFlags {
  int64_t job_id = 0;
  std::string device;
  std::string gpu_model;
  std::string worker;
  std::vector<std::string> labels;
  int limit = 20;
};

int RunRuns(const ClientOptions& client, const RunsFlags& flags) {
  v1::ListRunsRequest request;
  request.set_job_id(flags.job_id);
  request.set_device_uuid(flags.device);
  request.set_gpu_model(flags.gpu_model);
  request.set_worker_id(flags.worker);
  for (const auto& text : flags.labels) {
    StatusOr<std::pair<std::string, std::string>> pair = detail::ParseKeyValue(text, "--label");
    if (!pair.ok()) return ReportError(pair.status());
    (*request.mutable_labels())[pair->first] = pair->second;
  }
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  v1::ListRunsResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::ListRunsResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return stub->ListRuns(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_runs(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintRunTable({all.runs().begin(), all.runs().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterRuns(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<RunsFlags>();
  CLI::App* cmd = app.add_subcommand("runs", "List runs (one job on one GPU, or an upload)");
  cmd->add_option("--job", flags->job_id, "runs of this job");
  cmd->add_option("--device", flags->device, "runs on this GPU (uuid)");
  cmd->add_option("--gpu-model", flags->gpu_model, "runs on GPUs of this model (exact name)");
  cmd->add_option("--worker", flags->worker, "runs of this worker (id)");
  cmd->add_option("--label", flags->labels, "K=V the run must carry (repeatable: all of)");
  cmd->add_option("--limit", flags->limit, "show at most N runs")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->callback([&client, exit_code, flags] { *exit_code = RunRuns(client, *flags); });
}

}  // namespace warpwatch::cli
