// File: cli/commands/cancel.cc
// `warpwatch cancel ID [--reason R]`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct CancelFlags {
  int64_t job_id = 0;
  std::string reason;
};

int RunCancel(const ClientOptions& client, const CancelFlags& flags) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::JobService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::CancelJobRequest request;
  request.set_job_id(flags.job_id);
  request.set_reason(flags.reason);
  v1::Job job;
  grpc::Status status = stub->CancelJob(context.get(), request, &job);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(job, /*pretty=*/true) << "\n";
  } else if (job.state() == v1::JOB_STATE_CANCELLED) {
    std::cout << "job " << job.id() << " CANCELLED\n";
  } else {
    std::cout << "job " << job.id() << " " << JobStateLabel(job.state())
              << ": cancel requested; its worker will stop it\n";
  }
  return kExitOk;
}

}  // namespace

void RegisterCancel(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<CancelFlags>();
  CLI::App* cmd = app.add_subcommand("cancel", "Cancel a queued or running job");
  cmd->add_option("ID", flags->job_id, "job id")->required();
  cmd->add_option("--reason", flags->reason, "why (recorded as the job's error)");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunCancel(client, *flags); });
}

}  // namespace warpwatch::cli
