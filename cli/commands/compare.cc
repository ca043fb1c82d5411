// File: cli/commands/compare.cc
// `warpwatch compare RUN_A RUN_B`: every case both runs measured, RUN_B judged against RUN_A.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/compare_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

int RunCompare(const ClientOptions& client, int64_t base, int64_t next) {
  v1::CompareRunsRequest request;
  request.set_base_run_id(base);
  request.set_new_run_id(next);
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::CompareRunsResponse comparison;
  grpc::Status status = stub->CompareRuns(context.get(), request, &comparison);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(comparison, /*pretty=*/true) << "\n";
  } else {
    PrintComparison(comparison, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterCompare(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto ids = std::make_shared<std::pair<int64_t, int64_t>>(0, 0);
  CLI::App* cmd = app.add_subcommand("compare", "Compare two runs case by case (B against A)");
  cmd->add_option("RUN_A", ids->first, "base run id")->required()->check(CLI::PositiveNumber);
  cmd->add_option("RUN_B", ids->second, "new run id")->required()->check(CLI::PositiveNumber);
  cmd->callback([&client, exit_code, ids] {
    *exit_code = RunCompare(client, ids->first, ids->second);
  });
}

}  // namespace warpwatch::cli
