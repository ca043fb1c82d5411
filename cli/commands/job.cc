// File: cli/commands/job.cc
// `warpwatch job ID`: one job in detail.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

int RunJob(const ClientOptions& client, int64_t job_id) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::JobService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::GetJobRequest request;
  request.set_job_id(job_id);
  v1::Job job;
  grpc::Status status = stub->GetJob(context.get(), request, &job);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(job, /*pretty=*/true) << "\n";
  } else {
    PrintJobDetail(job, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterJob(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto job_id = std::make_shared<int64_t>(0);
  CLI::App* cmd = app.add_subcommand("job", "Show one job");
  cmd->add_option("ID", *job_id, "job id")->required();
  cmd->callback([&client, exit_code, job_id] { *exit_code = RunJob(client, *job_id); });
}

}  // namespace warpwatch::cli
