// File: cli/commands/triage.cc
// `warpwatch ack ID`, `dismiss ID`, `fixed ID`, `accept ID` (each with --note): regression
// triage. The server records who did it from the caller's credential.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/json.h"
#include "cli/format/regression_view.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct TriageFlags {
  int64_t id = 0;
  std::string note;
};

int RunTriage(const ClientOptions& client, const TriageFlags& flags, v1::RegressionState state) {
  v1::UpdateRegressionRequest request;
  request.set_id(flags.id);
  request.set_state(state);
  request.set_note(flags.note);
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::Regression regression;
  grpc::Status status = stub->UpdateRegression(context.get(), request, &regression);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(regression, /*pretty=*/true) << "\n";
  } else {
    PrintTriaged(regression, std::cout);
  }
  return kExitOk;
}

void RegisterOne(CLI::App& app, const ClientOptions& client, int* exit_code, const char* verb,
                 const char* help, v1::RegressionState state) {
  auto flags = std::make_shared<TriageFlags>();
  CLI::App* cmd = app.add_subcommand(verb, help);
  cmd->add_option("ID", flags->id, "regression id (see `warpwatch regressions`)")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--note", flags->note, "why (kept with the regression's history)");
  cmd->callback(
      [&client, exit_code, flags, state] { *exit_code = RunTriage(client, *flags, state); });
}

}  // namespace

void RegisterTriage(CLI::App& app, const ClientOptions& client, int* exit_code) {
  RegisterOne(app, client, exit_code, "ack", "Acknowledge an open regression",
              v1::REGRESSION_STATE_ACKNOWLEDGED);
  RegisterOne(app, client, exit_code, "dismiss", "Dismiss a regression (not a real problem)",
              v1::REGRESSION_STATE_DISMISSED);
  RegisterOne(app, client, exit_code, "fixed", "Mark a regression fixed",
              v1::REGRESSION_STATE_FIXED);
  RegisterOne(app, client, exit_code, "accept",
              "Accept a regression's new level: the GPU's baseline re-anchors there and the "
              "detector raises nothing more for it",
              v1::REGRESSION_STATE_ACCEPTED);
}

}  // namespace warpwatch::cli
