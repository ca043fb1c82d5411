// File: cli/commands/results.cc
// `warpwatch results RUN`: the measurements of one run, following pages up to --limit.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
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

struct ResultsFlags {
  int64_t run_id = 0;
  std::string family;
  std::string variant;
  std::vector<std::string> params;
  bool samples = false;
  int limit = 10000;
};

int RunResults(const ClientOptions& client, const ResultsFlags& flags) {
  v1::QueryMeasurementsRequest request;
  request.set_run_id(flags.run_id);
  request.set_family(flags.family);
  request.set_variant(flags.variant);
  request.set_include_samples(flags.samples);
  for (const auto& text : flags.params) {
    StatusOr<std::pair<std::string, std::string>> pair = detail::ParseKeyValue(text, "--param");
    if (!pair.ok()) return ReportError(pair.status());
    char* end = nullptr;
    const long long value = std::strtoll(pair->second.c_str(), &end, 10);
    if (pair->second.empty() || *end != '\0') {
      return ReportError(InvalidArgumentError("--param " + text + ": the value is not an integer"));
    }
    (*request.mutable_params())[pair->first] = value;
  }
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  v1::QueryMeasurementsResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::QueryMeasurementsResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return stub->QueryMeasurements(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_measurements(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintMeasurementTable({all.measurements().begin(), all.measurements().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterResults(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<ResultsFlags>();
  CLI::App* cmd = app.add_subcommand("results", "Show what a run measured");
  cmd->add_option("RUN", flags->run_id, "run id (see `warpwatch runs`)")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--family", flags->family, "family name or glob (reduce, memory.*)");
  cmd->add_option("--variant", flags->variant, "variant name or glob (warp_*)");
  cmd->add_option("--param", flags->params, "K=V the case's parameters include (repeatable)");
  cmd->add_flag("--samples", flags->samples, "include raw samples (with --json)");
  cmd->add_option("--limit", flags->limit, "show at most N measurements")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->callback([&client, exit_code, flags] { *exit_code = RunResults(client, *flags); });
}

}  // namespace warpwatch::cli
