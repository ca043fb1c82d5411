// File: cli/commands/baseline.cc
// `warpwatch baseline pin RUN... [--series S] [--note N]`, `baseline unpin ID`,
// `baseline list [--series S] [--run R]`: pinned baselines (ResultService). The server records
// who pinned from the caller's credential.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/client/fetch_pages.h"
#include "cli/commands/commands.h"
#include "cli/format/baseline_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/result.grpc.pb.h"

namespace warpwatch::cli {
namespace {

struct BaselineFlags {
  std::vector<int64_t> runs;  // pin
  int64_t id = 0;             // unpin
  int64_t run_id = 0;         // list
  int64_t schedule_run = 0;   // pin
  std::string series;
  std::string note;
  int limit = 50;
};

StatusOr<std::unique_ptr<v1::ResultService::Stub>> ResultStub(const ClientOptions& client) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return channel.status();
  return v1::ResultService::NewStub(*channel);
}

int PrintPin(const ClientOptions& client, const v1::BaselinePin& pin, const char* verb) {
  if (client.json) {
    std::cout << ToJson(pin, /*pretty=*/true) << "\n";
  } else {
    PrintPinChange(pin, verb, std::cout);
  }
  return kExitOk;
}

int RunPin(const ClientOptions& client, const BaselineFlags& flags) {
  v1::PinBaselineRequest request;
  if (flags.runs.empty() && flags.schedule_run == 0) {
    return ReportError(InvalidArgumentError("baseline pin: give RUN ids or --schedule-run"));
  }
  for (int64_t run : flags.runs) request.add_run_ids(run);
  request.set_schedule_run_id(flags.schedule_run);
  request.set_series_id(flags.series);
  request.set_note(flags.note);
  auto stub = ResultStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  auto context = MakeContext(client, kCallTimeout);
  v1::BaselinePin pin;
  grpc::Status status = (*stub)->PinBaseline(context.get(), request, &pin);
  if (!status.ok()) return ReportError(status);
  return PrintPin(client, pin, "pinned");
}

int RunUnpin(const ClientOptions& client, const BaselineFlags& flags) {
  v1::UnpinBaselineRequest request;
  request.set_id(flags.id);
  auto stub = ResultStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  auto context = MakeContext(client, kCallTimeout);
  v1::BaselinePin pin;
  grpc::Status status = (*stub)->UnpinBaseline(context.get(), request, &pin);
  if (!status.ok()) return ReportError(status);
  return PrintPin(client, pin, "unpinned");
}

int RunBaselineList(const ClientOptions& client, const BaselineFlags& flags) {
  v1::ListBaselinesRequest request;
  request.set_series_id(flags.series);
  request.set_run_id(flags.run_id);
  auto stub = ResultStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::ListBaselinesResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::ListBaselinesResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return (*stub)->ListBaselines(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_pins(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintBaselineTable({all.pins().begin(), all.pins().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterBaseline(CLI::App& app, const ClientOptions& client, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "baseline", "Pin runs as the baseline the detector judges a series against (or unpin, list)");
  cmd->require_subcommand(1);

  auto pin = std::make_shared<BaselineFlags>();
  CLI::App* pin_cmd = cmd->add_subcommand("pin", "Pin runs (e.g. a release build's) as a baseline");
  pin_cmd->add_option("RUN", pin->runs, "run ids, pinned together as one baseline")
      ->check(CLI::PositiveNumber);
  pin_cmd->add_option("--schedule-run", pin->schedule_run,
                      "a schedule run (`warpwatch schedule runs NAME`): its succeeded runs, one "
                      "per GPU, join the pin")
      ->check(CLI::PositiveNumber);
  pin_cmd->add_option("--series", pin->series,
                      "only this series (<case canonical>@<GPU model>); default: every series "
                      "the runs measured");
  pin_cmd->add_option("--note", pin->note, "why (e.g. the release)");
  pin_cmd->callback([&client, exit_code, pin] { *exit_code = RunPin(client, *pin); });

  auto unpin = std::make_shared<BaselineFlags>();
  CLI::App* unpin_cmd = cmd->add_subcommand("unpin", "Remove a pin; its series go back to rolling");
  unpin_cmd->add_option("ID", unpin->id, "pin id (see `warpwatch baseline list`)")
      ->required()
      ->check(CLI::PositiveNumber);
  unpin_cmd->callback([&client, exit_code, unpin] { *exit_code = RunUnpin(client, *unpin); });

  auto list = std::make_shared<BaselineFlags>();
  CLI::App* list_cmd = cmd->add_subcommand("list", "List baseline pins, newest first");
  list_cmd->add_option("--series", list->series, "pins that cover this series");
  list_cmd->add_option("--run", list->run_id, "pins holding this run");
  list_cmd->add_option("--limit", list->limit, "show at most N pins")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  list_cmd->callback([&client, exit_code, list] { *exit_code = RunBaselineList(client, *list); });
}

}  // namespace warpwatch::cli
