// File: cli/commands/regressions.cc
// `warpwatch regressions`: regressions, improvements and fleet outliers, newest first.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/client/fetch_pages.h"
#include "cli/commands/commands.h"
#include "cli/format/json.h"
#include "cli/format/regression_view.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct RegressionsFlags {
  std::vector<std::string> states;
  std::vector<std::string> kinds;
  std::string gpu_model;
  std::string family;
  std::string device;
  int64_t run_id = 0;
  int limit = 50;
};

// "open", "OPEN", "regression_state_open" -> the enum value via `parse`; INVALID_ARGUMENT
// naming the flag otherwise.
template <typename Enum, typename Parse>
StatusOr<Enum> ParseEnum(const std::string& text, const std::string& prefix, Parse parse,
                         const std::string& flag) {
  std::string name = text;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (name.rfind(prefix, 0) != 0) name = prefix + name;
  Enum value{};
  if (!parse(name, &value) || static_cast<int>(value) == 0) {
    return InvalidArgumentError(flag + " " + text + ": unknown");
  }
  return value;
}

int RunRegressions(const ClientOptions& client, const RegressionsFlags& flags) {
  v1::ListRegressionsRequest request;
  for (const std::string& text : flags.states) {
    StatusOr<v1::RegressionState> s = ParseEnum<v1::RegressionState>(
        text, "REGRESSION_STATE_", v1::RegressionState_Parse, "--state");
    if (!s.ok()) return ReportError(s.status());
    request.add_states(*s);
  }
  for (const std::string& text : flags.kinds) {
    StatusOr<v1::RegressionKind> k =
        ParseEnum<v1::RegressionKind>(text, "REGRESSION_KIND_", v1::RegressionKind_Parse, "--kind");
    if (!k.ok()) return ReportError(k.status());
    request.add_kinds(*k);
  }
  request.set_gpu_model(flags.gpu_model);
  request.set_family(flags.family);
  request.set_device_uuid(flags.device);
  request.set_run_id(flags.run_id);
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ResultService::NewStub(*channel);
  v1::ListRegressionsResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::ListRegressionsResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return stub->ListRegressions(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_regressions(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintRegressionTable({all.regressions().begin(), all.regressions().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterRegressions(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<RegressionsFlags>();
  CLI::App* cmd = app.add_subcommand("regressions", "List regressions, newest first");
  cmd->add_option(
      "--state", flags->states,
      "open, acknowledged, dismissed, fixed, suspected, noise or accepted (repeatable: any of)");
  cmd->add_option("--kind", flags->kinds, "regression, improvement or outlier (repeatable)");
  cmd->add_option("--gpu-model", flags->gpu_model, "GPU model (exact name)");
  cmd->add_option("--family", flags->family, "kernel family (exact name)");
  cmd->add_option("--device", flags->device, "one GPU (uuid)");
  cmd->add_option("--run", flags->run_id, "found in this run");
  cmd->add_option("--limit", flags->limit, "show at most N regressions")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->callback([&client, exit_code, flags] { *exit_code = RunRegressions(client, *flags); });
}

}  // namespace warpwatch::cli
