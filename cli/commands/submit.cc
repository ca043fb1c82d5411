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
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct SubmitFlags {
  std::vector<std::string> families;
  std::vector<std::string> variants;
  std::vector<std::string> axes;
  std::string gpu_model;
  std::string gpu_uuid;
  std::vector<std::string> worker_labels;
  std::vector<std::string> labels;
  int priority = 0;
  int min_samples = 0;
  std::string max_noise;
  bool counters = false;
  bool watch = false;
  std::string request_id;
};

StatusOr<v1::JobSpec> BuildSpec(const SubmitFlags& flags) {
  v1::JobSpec spec;
  for (const auto& family : flags.families) spec.add_families(family);
  for (const auto& variant : flags.variants) spec.add_variants(variant);
  for (const auto& text : flags.axes) {
    ASSIGN_OR_RETURN(*spec.add_axes(), detail::ParseAxis(text));
  }
  spec.mutable_selector()->set_gpu_model(flags.gpu_model);
  spec.mutable_selector()->set_gpu_uuid(flags.gpu_uuid);
  for (const auto& text : flags.worker_labels) {
    ASSIGN_OR_RETURN(auto pair, detail::ParseKeyValue(text, "--worker-label"));
    (*spec.mutable_selector()->mutable_worker_labels())[pair.first] = pair.second;
  }
  for (const auto& text : flags.labels) {
    ASSIGN_OR_RETURN(auto pair, detail::ParseKeyValue(text, "--label"));
    (*spec.mutable_labels())[pair.first] = pair.second;
  }
  spec.set_priority(flags.priority);
  spec.mutable_measurement()->set_min_samples(flags.min_samples);
  if (!flags.max_noise.empty()) {
    ASSIGN_OR_RETURN(double noise, detail::ParseNoise(flags.max_noise));
    spec.mutable_measurement()->set_target_noise(noise);
  }
  spec.mutable_measurement()->set_collect_counters(flags.counters);
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
  cmd->add_option("--family", flags->families, "family name or glob (repeatable), e.g. 'memory.*'")
      ->required();
  cmd->add_option("--variant", flags->variants, "variant glob (repeatable); default all");
  cmd->add_option("--axis", flags->axes,
                  "[FAMILY:]NAME=V1,V2 axis values (repeatable), e.g. reduce:n=1048576,4194304");
  cmd->add_option("--gpu-model", flags->gpu_model, "GPU model name or glob, e.g. '*H100*'");
  cmd->add_option("--gpu-uuid", flags->gpu_uuid, "exact GPU UUID");
  cmd->add_option("--worker-label", flags->worker_labels, "K=V the worker must carry (repeatable)");
  cmd->add_option("--label", flags->labels, "K=V free label, e.g. git_sha=abc123 (repeatable)");
  cmd->add_option("--priority", flags->priority, "higher runs first, in [-100, 100]");
  cmd->add_option("--min-samples", flags->min_samples, "minimum samples per point");
  cmd->add_option("--max-noise", flags->max_noise,
                  "target relative standard error: fraction (0.005) or percent (0.5%)");
  cmd->add_flag("--counters", flags->counters, "collect CUPTI counters after timing");
  cmd->add_flag("--watch", flags->watch, "follow the job until it ends");
  cmd->add_option("--request-id", flags->request_id,
                  "idempotency key: a retried submit with the same id (e.g. the CI run's id) "
                  "returns the job the first one created instead of queueing another");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunSubmit(client, *flags); });
}

}  // namespace warpwatch::cli
