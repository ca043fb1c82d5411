// File: cli/commands/incidents.cc
// `warpwatch incidents` (newest first), `warpwatch incident N [--set STATE --note TEXT]` (one
// incident: cause, cases x GPUs, explanation, history; --set triages it) and `warpwatch explain
// FINDING` (one finding's explanation). --json for all.
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
#include "cli/format/incident_view.h"
#include "cli/format/json.h"
#include "warpwatch/v1/incident.grpc.pb.h"

namespace warpwatch::cli {
namespace {

// "open", "OPEN", "incident_state_open" -> the enum value; INVALID_ARGUMENT naming the flag.
template <typename Enum, typename Parse>
StatusOr<Enum> ParseName(const std::string& text, const std::string& prefix, Parse parse,
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

struct ListFlags {
  std::vector<std::string> states;
  std::vector<std::string> causes;
  std::string gpu_model;
  int limit = 50;
};

int RunIncidents(const ClientOptions& client, const ListFlags& flags) {
  v1::ListIncidentsRequest request;
  for (const std::string& text : flags.states) {
    StatusOr<v1::IncidentState> s =
        ParseName<v1::IncidentState>(text, "INCIDENT_STATE_", v1::IncidentState_Parse, "--state");
    if (!s.ok()) return ReportError(s.status());
    request.add_states(*s);
  }
  for (const std::string& text : flags.causes) {
    StatusOr<v1::CauseClass> c =
        ParseName<v1::CauseClass>(text, "CAUSE_CLASS_", v1::CauseClass_Parse, "--cause");
    if (!c.ok()) return ReportError(c.status());
    request.add_cause_classes(*c);
  }
  request.set_gpu_model(flags.gpu_model);
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::IncidentService::NewStub(*channel);
  v1::ListIncidentsResponse all;
  grpc::Status status = FetchPages(
      request, flags.limit,
      [&](const auto& r, v1::ListIncidentsResponse* page) {
        auto context = MakeContext(client, kCallTimeout);
        return stub->ListIncidents(context.get(), r, page);
      },
      [](auto& response) { return response.mutable_incidents(); }, &all);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintIncidentTable({all.incidents().begin(), all.incidents().end()}, std::cout);
  }
  return kExitOk;
}

struct IncidentFlags {
  int64_t id = 0;
  std::string set;
  std::string note;
};

int RunIncident(const ClientOptions& client, const IncidentFlags& flags) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::IncidentService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::Incident incident;
  grpc::Status status;
  if (flags.set.empty()) {
    v1::GetIncidentRequest request;
    request.set_id(flags.id);
    status = stub->GetIncident(context.get(), request, &incident);
  } else {
    StatusOr<v1::IncidentState> state = ParseName<v1::IncidentState>(
        flags.set, "INCIDENT_STATE_", v1::IncidentState_Parse, "--set");
    if (!state.ok()) return ReportError(state.status());
    v1::UpdateIncidentRequest request;
    request.set_id(flags.id);
    request.set_state(*state);
    request.set_note(flags.note);
    status = stub->UpdateIncident(context.get(), request, &incident);
  }
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(incident, /*pretty=*/true) << "\n";
  } else {
    PrintIncident(incident, std::cout);
  }
  return kExitOk;
}

int RunExplain(const ClientOptions& client, int64_t id) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::IncidentService::NewStub(*channel);
  auto context = MakeContext(client, kCallTimeout);
  v1::ExplainFindingRequest request;
  request.set_regression_id(id);
  v1::Regression finding;
  grpc::Status status = stub->ExplainFinding(context.get(), request, &finding);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(finding, /*pretty=*/true) << "\n";
  } else {
    PrintExplainedFinding(finding, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterIncidents(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto list = std::make_shared<ListFlags>();
  CLI::App* cmd = app.add_subcommand("incidents", "List incidents (one per change), newest first");
  cmd->add_option("--state", list->states,
                  "open, acknowledged, accepted, fixed, dismissed or reopened (repeatable)");
  cmd->add_option("--cause", list->causes,
                  "software, one_gpu, environment or unknown (repeatable)");
  cmd->add_option("--gpu-model", list->gpu_model, "GPU model (exact name)");
  cmd->add_option("--limit", list->limit, "show at most N incidents")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->callback([&client, exit_code, list] { *exit_code = RunIncidents(client, *list); });

  auto one = std::make_shared<IncidentFlags>();
  CLI::App* show = app.add_subcommand(
      "incident", "Show one incident (cause, cases x GPUs, explanation, history), or triage it");
  show->add_option("N", one->id, "incident id (see `warpwatch incidents`)")
      ->required()
      ->check(CLI::PositiveNumber);
  show->add_option("--set", one->set,
                   "triage: acknowledged, accepted (the new level), fixed, dismissed or reopened");
  show->add_option("--note", one->note, "why (kept with the incident's history)");
  show->callback([&client, exit_code, one] { *exit_code = RunIncident(client, *one); });

  auto finding = std::make_shared<int64_t>(0);
  CLI::App* explain =
      app.add_subcommand("explain", "Explain one finding: what differs and the likely causes");
  explain->add_option("FINDING", *finding, "regression id (see `warpwatch regressions`)")
      ->required()
      ->check(CLI::PositiveNumber);
  explain->callback([&client, exit_code, finding] { *exit_code = RunExplain(client, *finding); });
}

}  // namespace warpwatch::cli
