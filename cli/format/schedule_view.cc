// File: cli/format/schedule_view.cc
#include "cli/format/schedule_view.h"

#include <map>

#include "cli/format/duration.h"
#include "cli/format/job_view.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

struct RunTally {
  int done = 0;
  int failed = 0;
  int regressions = 0;
  int outliers = 0;
};

RunTally Tally(const v1::ScheduleRun& run) {
  RunTally t;
  for (const v1::ScheduleRunJob& job : run.jobs()) {
    if (job.job_state() == v1::JOB_STATE_SUCCEEDED) ++t.done;
    if (job.job_state() == v1::JOB_STATE_FAILED || job.job_state() == v1::JOB_STATE_CANCELLED) {
      ++t.failed;
    }
    t.regressions += job.regressions();
    t.outliers += job.fleet_outlier() ? 1 : 0;
  }
  return t;
}

std::string RunState(const v1::ScheduleRun& run) {
  if (run.state() == v1::SCHEDULE_RUN_STATE_SKIPPED) return "skipped (" + run.skipped_reason() + ")";
  return "fired";
}

std::string Trigger(const v1::ScheduleRun& run) {
  return run.trigger() == v1::SCHEDULE_TRIGGER_MANUAL ? "manual" : "cron";
}

}  // namespace

std::string SelectorSummary(const v1::DeviceSelector& selector) {
  std::string out;
  if (!selector.gpu_model().empty()) out = "model " + selector.gpu_model();
  if (!selector.gpu_uuid().empty()) out += (out.empty() ? "" : ", ") + selector.gpu_uuid();
  if (!selector.worker_labels().empty()) {
    std::map<std::string, std::string> sorted(selector.worker_labels().begin(),
                                              selector.worker_labels().end());
    std::string labels;
    for (const auto& [k, v] : sorted) labels += (labels.empty() ? "" : ",") + k + "=" + v;
    out += (out.empty() ? "labels " : ", labels ") + labels;
  }
  return out.empty() ? "every GPU" : out;
}

std::string NightStateLabel(v1::JobState state) {
  switch (state) {
    case v1::JOB_STATE_SUCCEEDED:
      return "done";
    case v1::JOB_STATE_FAILED:
      return "failed";
    case v1::JOB_STATE_RUNNING:
      return "running";
    case v1::JOB_STATE_QUEUED:
      return "queued";
    case v1::JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      return "?";
  }
}

void PrintScheduleTable(const std::vector<v1::Schedule>& schedules, std::ostream& out) {
  if (schedules.empty()) {
    out << "no schedules\n";
    return;
  }
  Table table({"NAME", "CRON", "ZONE", "GPUS", "FAMILIES", "MISSED", "OVERLAP", "ENABLED",
               "NEXT", "LAST"});
  for (const v1::Schedule& s : schedules) {
    const bool unreadable = !s.stored_error().empty();
    table.AddRow({s.name(), s.cron(), s.time_zone(),
                  unreadable ? "unreadable" : SelectorSummary(s.selector()),
                  unreadable ? "unreadable" : SpecSummary(s.job_template()),
                  s.missed_fire_policy() == v1::MISSED_FIRE_POLICY_RUN_ONCE ? "run-once" : "skip",
                  s.allow_overlap() ? "yes" : "no", s.enabled() ? "yes" : "no",
                  s.enabled() ? FormatTimestamp(s.next_fire_at()) : "-",
                  FormatTimestamp(s.last_fire_at())});
  }
  table.Print(out);
  for (const v1::Schedule& s : schedules) {
    if (s.stored_error().empty()) continue;
    out << "schedule " << TerminalSafe(s.name())
        << " cannot be read by this server and does not fire: " << TerminalSafe(s.stored_error())
        << "\n  repair: warpwatch schedule update " << TerminalSafe(s.name())
        << " --family ... --gpu-model ... (both; --gpu-model '*' for every GPU), or delete it\n";
  }
}

void PrintScheduleRunList(const std::vector<v1::ScheduleRun>& runs, std::ostream& out) {
  if (runs.empty()) {
    out << "no runs\n";
    return;
  }
  Table table({"ID", "DUE", "TRIGGER", "STATE", "GPUS", "DONE", "FAILED", "REGRESSIONS",
               "OUTLIERS"});
  for (const v1::ScheduleRun& run : runs) {
    const RunTally t = Tally(run);
    table.AddRow({std::to_string(run.id()), FormatTimestamp(run.due_at()), Trigger(run),
                  RunState(run), std::to_string(run.jobs_size()), std::to_string(t.done),
                  std::to_string(t.failed), std::to_string(t.regressions),
                  std::to_string(t.outliers)});
  }
  table.Print(out);
}

void PrintScheduleRunDetail(const v1::ScheduleRun& run, std::ostream& out) {
  const RunTally t = Tally(run);
  out << "schedule " << run.schedule_name() << ", run " << run.id() << " due "
      << FormatTimestamp(run.due_at()) << " (" << Trigger(run) << ", by " << run.created_by()
      << "): " << RunState(run) << "; " << run.jobs_size() << " GPUs, " << t.done << " done, "
      << t.failed << " failed, " << t.regressions << " regressions, " << t.outliers
      << " outliers\n";
  if (run.jobs().empty()) return;
  Table table({"HOST", "GPU", "MODEL", "JOB", "STATE", "POINTS", "REGRESSIONS", "OUTLIER"});
  for (const v1::ScheduleRunJob& job : run.jobs()) {
    table.AddRow({job.hostname().empty() ? "-" : job.hostname(), job.device_uuid(),
                  job.gpu_model(), std::to_string(job.job_id()), NightStateLabel(job.job_state()),
                  std::to_string(job.points_done()) + "/" + std::to_string(job.points_total()),
                  std::to_string(job.regressions()), job.fleet_outlier() ? "yes" : "-"});
  }
  table.Print(out);
}

}  // namespace warpwatch::cli
