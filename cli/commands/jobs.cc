// File: cli/commands/jobs.cc
// `warpwatch jobs`: lists jobs, newest first, following pages up to --limit.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/client/fetch_pages.h"
#include "cli/commands/commands.h"
#include "cli/commands/detail/flag_parsing.h"
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct JobsFlags {
  std::vector<std::string> states;
  std::vector<std::string> labels;
  std::string gpu_model;
  int limit = 20;
};

// The server's page size bound (ListJobsRequest.page_size).

int RunJobs(const ClientOptions& client, const JobsFlags& flags) {
  v1::ListJobsRequest request;
  for (const auto& text : flags.states) {
    StatusOr<v1::JobState> state = detail::ParseJobState(text);
    if (!state.ok()) return ReportError(state.status());
    request.add_states(*state);
  }
  for (const auto& text : flags.labels) {
    StatusOr<std::pair<std::string, std::string>> pair = detail::ParseKeyValue(text, "--label");
    if (!pair.ok()) return ReportError(pair.status());
    (*request.mutable_labels())[pair->first] = pair->second;
  }
  request.set_gpu_model(flags.gpu_model);

  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::JobService::NewStub(*channel);
  v1::ListJobsResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::ListJobsResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return stub->ListJobs(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_jobs(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintJobTable({all.jobs().begin(), all.jobs().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterJobs(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<JobsFlags>();
  CLI::App* cmd = app.add_subcommand("jobs", "List jobs, newest first");
  cmd->add_option("--state", flags->states,
                  "queued, running, succeeded, failed or cancelled (repeatable: any of)");
  cmd->add_option("--label", flags->labels, "K=V the job must carry (repeatable: all of)");
  cmd->add_option("--gpu-model", flags->gpu_model, "jobs that used or select this GPU model");
  cmd->add_option("--limit", flags->limit, "show at most N jobs")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->callback([&client, exit_code, flags] { *exit_code = RunJobs(client, *flags); });
}

}  // namespace warpwatch::cli
