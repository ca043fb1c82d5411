// File: cli/commands/night.cc
// `warpwatch night [SCHEDULE] [--date YYYY-MM-DD]`: one schedule run (the latest fire, or the
// fire due on that date in the schedule's time zone), one row per GPU: host, GPU, job state
// (done/failed/...), points, regressions, fleet outlier. Without SCHEDULE: the schedule that fired
// last.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/json.h"
#include "cli/format/schedule_view.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::cli {
namespace {

constexpr int kMaxPages = 50;

struct NightFlags {
  std::string schedule;
  std::string date;
};

bool Later(const google::protobuf::Timestamp& a, const google::protobuf::Timestamp& b) {
  return a.seconds() != b.seconds() ? a.seconds() > b.seconds() : a.nanos() > b.nanos();
}

// The schedule whose last fire is the latest.
StatusOr<std::string> LastFiredSchedule(const ClientOptions& client,
                                        v1::ScheduleService::Stub& stub) {
  v1::ListSchedulesRequest request;
  std::optional<v1::Schedule> best;
  for (int page_no = 0; page_no < kMaxPages; ++page_no) {
    v1::ListSchedulesResponse page;
    grpc::Status status = stub.ListSchedules(MakeContext(client, kCallTimeout).get(), request, &page);
    if (!status.ok()) return Status(static_cast<StatusCode>(status.error_code()),
                                    status.error_message());
    for (const v1::Schedule& s : page.schedules()) {
      if (!s.has_last_fire_at()) continue;
      if (!best || Later(s.last_fire_at(), best->last_fire_at())) best = s;
    }
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  if (!best) return NotFoundError("no schedule has fired yet (warpwatch schedules)");
  return best->name();
}

int RunNight(const ClientOptions& client, const NightFlags& flags) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::ScheduleService::NewStub(*channel);
  std::string name = flags.schedule;
  if (name.empty()) {
    StatusOr<std::string> last = LastFiredSchedule(client, *stub);
    if (!last.ok()) return ReportError(last.status());
    name = *last;
  }
  v1::ListScheduleRunsRequest request;
  request.set_name(name);
  request.set_due_date(flags.date);
  std::optional<v1::ScheduleRun> fired;
  std::optional<v1::ScheduleRun> newest;  // SKIPPED ones too: shown when nothing fired
  for (int page_no = 0; page_no < kMaxPages && !fired; ++page_no) {
    v1::ListScheduleRunsResponse page;
    grpc::Status status =
        stub->ListScheduleRuns(MakeContext(client, kCallTimeout).get(), request, &page);
    if (!status.ok()) return ReportError(status);
    for (const v1::ScheduleRun& run : page.runs()) {
      if (!newest) newest = run;
      if (run.state() == v1::SCHEDULE_RUN_STATE_FIRED) {
        fired = run;
        break;
      }
    }
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  const std::optional<v1::ScheduleRun>& shown = fired ? fired : newest;
  if (!shown) {
    return ReportError(NotFoundError(
        "schedule " + name + " has no run" +
        (flags.date.empty() ? std::string() : " due on " + flags.date)));
  }
  if (client.json) {
    std::cout << ToJson(*shown, /*pretty=*/true) << "\n";
  } else {
    PrintScheduleRunDetail(*shown, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterNight(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto flags = std::make_shared<NightFlags>();
  CLI::App* cmd = app.add_subcommand(
      "night", "One night of a schedule: one row per GPU (done, failed, points, regressions, "
               "fleet outliers)");
  cmd->add_option("schedule", flags->schedule,
                  "schedule name; default: the schedule that fired last");
  cmd->add_option("--date", flags->date,
                  "YYYY-MM-DD in the schedule's time zone; default: its latest fire");
  cmd->callback([&client, exit_code, flags] { *exit_code = RunNight(client, *flags); });
}

}  // namespace warpwatch::cli
