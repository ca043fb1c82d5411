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

constexpr int kMaxPage = 1000;  // QueryMeasurementsRequest.page_size's maximum

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
  while (all.measurements_size() < flags.limit) {
    request.set_page_size(std::min(kMaxPage, flags.limit - all.measurements_size()));
    auto context = MakeContext(client, kCallTimeout);
    v1::QueryMeasurementsResponse page;
    grpc::Status status = stub->QueryMeasurements(context.get(), request, &page);
    if (!status.ok()) return ReportError(status);
    for (auto& m : *page.mutable_measurements()) *all.add_measurements() = std::move(m);
    all.set_next_page_token(page.next_page_token());
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
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
