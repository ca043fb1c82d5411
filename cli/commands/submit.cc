// File: cli/commands/submit.cc
// `warpwatch submit`: builds a JobSpec from flags, submits it, prints the job (optionally watches).
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/commands/detail/flag_parsing.h"
#include "cli/commands/detail/job_spec_flags.h"
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct SubmitFlags {
  detail::JobSpecFlags spec;
  std::string gpu_model;
  std::string gpu_uuid;
  std::vector<std::string> worker_labels;
  bool watch = false;
  std::string request_id;
};

StatusOr<v1::JobSpec> BuildSpec(const SubmitFlags& flags) {
  ASSIGN_OR_RETURN(v1::JobSpec spec, detail::BuildJobSpec(flags.spec));
  spec.mutable_selector()->set_gpu_model(flags.gpu_model);
  spec.mutable_selector()->set_gpu_uuid(flags.gpu_uuid);
  for (const auto& text : flags.worker_labels) {
    ASSIGN_OR_RETURN(auto pair, detail::ParseKeyValue(text, "--worker-label"));
    (*spec.mutable_selector()->mutable_worker_labels())[pair.first] = pair.second;
  }
  return spec;
}

int RunSubmit(const ClientOptions& client, const SubmitFlags& flags) {
  v1::SubmitJobRequest request;
  StatusOr<v1::JobSpec> spec = BuildSpec(flags);
  if (!spec.ok()) return ReportError(spec.status());
  *request.mutable_spec() = std::move(*spec);
  request.set_request_id(flags.request_id);

  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::JobService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::Job job;
  grpc::Status status = stub->SubmitJob(context.get(), request, &job);
  if (!status.ok()) return ReportError(status);

  if (client.json) {
    std::cout << ToJson(job, /*pretty=*/!flags.watch) << "\n";
  } else {
    std::cout << "submitted job " << job.id() << ": " << job.points_total() << " points, "
              << JobStateLabel(job.state()) << "\n";
  }
  std::cout.flush();
  if (flags.watch) return WatchJob(client, job.id());
  return kExitOk;
}

}  // namespace

void RegisterSubmit(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<SubmitFlags>();
  CLI::App* cmd = app.add_subcommand("submit", "Submit a job running kernel families of the suite");
  detail::AddJobSpecFlags(cmd, &flags->spec, "")->required();
  cmd->add_option("--gpu-model", flags->gpu_model, "GPU model name or glob, e.g. '*H100*'");
  cmd->add_option("--gpu-uuid", flags->gpu_uuid, "exact GPU UUID");
  cmd->add_option("--worker-label", flags->worker_labels, "K=V the worker must carry (repeatable)");
  cmd->add_flag("--watch", flags->watch, "follow the job until it ends");
  cmd->add_option("--request-id", flags->request_id,
                  "idempotency key: a retried submit with the same id (e.g. the CI run's id) "
                  "returns the job the first one created instead of queueing another");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunSubmit(client, *flags); });
}

}  // namespace warpwatch::cli
