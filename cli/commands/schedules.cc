// File: cli/commands/schedules.cc
// `warpwatch schedules` (every schedule: table or --json) and `warpwatch schedule
// create|update|delete|trigger|runs`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/commands/detail/schedule_flags.h"
#include "cli/format/json.h"
#include "cli/format/schedule_view.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::cli {
namespace {

StatusOr<std::unique_ptr<v1::ScheduleService::Stub>> ScheduleStub(const ClientOptions& client) {
  ASSIGN_OR_RETURN(std::shared_ptr<grpc::Channel> channel, MakeChannel(client));
  return v1::ScheduleService::NewStub(channel);
}

int PrintSchedule(const ClientOptions& client, const v1::Schedule& s, const std::string& verb) {
  if (client.json) {
    std::cout << ToJson(s, /*pretty=*/true) << "\n";
  } else {
    std::cout << verb << " schedule " << s.name() << "\n";
    PrintScheduleTable({s}, std::cout);
  }
  return kExitOk;
}

int RunScheduleList(const ClientOptions& client) {
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::ListSchedulesRequest request;
  v1::ListSchedulesResponse all;
  while (true) {
    auto context = MakeContext(client, kCallTimeout);
    v1::ListSchedulesResponse page;
    grpc::Status status = (*stub)->ListSchedules(context.get(), request, &page);
    if (!status.ok()) return ReportError(status);
    for (v1::Schedule& s : *page.mutable_schedules()) *all.add_schedules() = std::move(s);
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  if (client.json) {
    std::cout << ToJson(all, /*pretty=*/true) << "\n";
  } else {
    PrintScheduleTable({all.schedules().begin(), all.schedules().end()}, std::cout);
  }
  return kExitOk;
}

int RunCreate(const ClientOptions& client, const detail::ScheduleFlags& flags) {
  StatusOr<v1::Schedule> schedule = detail::BuildSchedule(flags);
  if (!schedule.ok()) return ReportError(schedule.status());
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::CreateScheduleRequest request;
  *request.mutable_schedule() = std::move(*schedule);
  v1::Schedule created;
  grpc::Status status =
      (*stub)->CreateSchedule(MakeContext(client, kCallTimeout).get(), request, &created);
  if (!status.ok()) return ReportError(status);
  return PrintSchedule(client, created, "created");
}

int RunUpdate(const ClientOptions& client, const CLI::App& cmd,
              const detail::ScheduleFlags& flags) {
  StatusOr<v1::UpdateScheduleRequest> request = detail::BuildUpdate(cmd, flags);
  if (!request.ok()) return ReportError(request.status());
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::Schedule updated;
  grpc::Status status =
      (*stub)->UpdateSchedule(MakeContext(client, kCallTimeout).get(), *request, &updated);
  if (!status.ok()) return ReportError(status);
  return PrintSchedule(client, updated, "updated");
}

int RunDelete(const ClientOptions& client, const std::string& name) {
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::DeleteScheduleRequest request;
  request.set_name(name);
  v1::DeleteScheduleResponse response;
  grpc::Status status =
      (*stub)->DeleteSchedule(MakeContext(client, kCallTimeout).get(), request, &response);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << "{\"deleted\": \"" << name << "\"}\n";
  } else {
    std::cout << "deleted schedule " << name << "\n";
  }
  return kExitOk;
}

int RunTrigger(const ClientOptions& client, const std::string& name) {
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::TriggerScheduleRequest request;
  request.set_name(name);
  v1::ScheduleRun run;
  grpc::Status status =
      (*stub)->TriggerSchedule(MakeContext(client, kCallTimeout).get(), request, &run);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(run, /*pretty=*/true) << "\n";
  } else {
    PrintScheduleRunDetail(run, std::cout);
  }
  return kExitOk;
}

int RunScheduleRuns(const ClientOptions& client, const std::string& name, int limit) {
  auto stub = ScheduleStub(client);
  if (!stub.ok()) return ReportError(stub.status());
  v1::ListScheduleRunsRequest request;
  request.set_name(name);
  request.set_page_size(limit);
  v1::ListScheduleRunsResponse response;
  grpc::Status status =
      (*stub)->ListScheduleRuns(MakeContext(client, kCallTimeout).get(), request, &response);
  if (!status.ok()) return ReportError(status);
  if (client.json) {
    std::cout << ToJson(response, /*pretty=*/true) << "\n";
  } else {
    PrintScheduleRunList({response.runs().begin(), response.runs().end()}, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterSchedules(CLI::App& app, const ClientOptions& client, int* exit_code) {
  CLI::App* list = app.add_subcommand(
      "schedules", "List schedules: cron, zone, GPUs they fan out to, next and last fire");
  list->callback([&client, exit_code] { *exit_code = RunScheduleList(client); });

  CLI::App* group = app.add_subcommand(
      "schedule", "Create, update, delete or trigger a schedule, or list its runs");
  group->require_subcommand(1);

  auto create_flags = std::make_shared<detail::ScheduleFlags>();
  CLI::App* create = group->add_subcommand(
      "create", "Create a schedule: a job template fired on every matching GPU at cron times");
  detail::AddScheduleFlags(create, create_flags.get(), /*create=*/true);
  create->callback(
      [&client, exit_code, create_flags] { *exit_code = RunCreate(client, *create_flags); });

  auto update_flags = std::make_shared<detail::ScheduleFlags>();
  CLI::App* update = group->add_subcommand(
      "update", "Change the given fields of a schedule (--family replaces the job template)");
  detail::AddScheduleFlags(update, update_flags.get(), /*create=*/false);
  update->callback([&client, exit_code, update_flags, update] {
    *exit_code = RunUpdate(client, *update, *update_flags);
  });

  auto name = std::make_shared<std::string>();
  CLI::App* del = group->add_subcommand("delete", "Delete a schedule (its jobs stay)");
  del->add_option("name", *name, "schedule name")->required();
  del->callback([&client, exit_code, name] { *exit_code = RunDelete(client, *name); });

  CLI::App* trigger = group->add_subcommand(
      "trigger", "Fire a schedule now: one job per matching GPU (cron times unchanged)");
  trigger->add_option("name", *name, "schedule name")->required();
  trigger->callback([&client, exit_code, name] { *exit_code = RunTrigger(client, *name); });

  auto limit = std::make_shared<int>(20);
  CLI::App* runs = group->add_subcommand("runs", "A schedule's runs, newest first");
  runs->add_option("name", *name, "schedule name")->required();
  runs->add_option("--limit", *limit, "runs shown (at most 200)")->capture_default_str();
  runs->callback(
      [&client, exit_code, name, limit] { *exit_code = RunScheduleRuns(client, *name, *limit); });
}

}  // namespace warpwatch::cli
