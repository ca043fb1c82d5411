// File: cli/format/worker_view.cc
#include "cli/format/worker_view.h"

#include <map>
#include <vector>

#include "cli/format/duration.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

// The first 8 characters of a worker id (a UUID): enough to tell workers apart on screen.
std::string ShortId(const std::string& id) { return id.substr(0, 8); }

std::string JobCell(const v1::RunningJob& job) {
  std::string cell = "#" + std::to_string(job.job_id()) + " " + std::to_string(job.points_done()) +
                     "/" + std::to_string(job.points_total());
  if (!job.current_case().empty()) cell += " " + TerminalSafe(job.current_case());
  return cell;
}

}  // namespace

std::string WorkerStateLabel(v1::WorkerState state) {
  switch (state) {
    case v1::WORKER_STATE_ONLINE:
      return "online";
    case v1::WORKER_STATE_OFFLINE:
      return "offline";
    default:
      return "unknown";
  }
}

void PrintWorkerTable(const v1::ListWorkersResponse& fleet, const google::protobuf::Timestamp& now,
                      std::ostream& out) {
  if (fleet.workers().empty()) {
    out << "no workers\n";
    return;
  }
  Table table({"HOST", "WORKER", "STATE", "HEARTBEAT", "GPU", "UUID", "JOB"});
  for (const v1::WorkerInfo& worker : fleet.workers()) {
    std::map<std::string, const v1::RunningJob*> jobs;  // device uuid -> job
    for (const v1::RunningJob& job : worker.running_jobs()) jobs[job.device_uuid()] = &job;
    const std::string heartbeat = FormatDuration(SecondsBetween(worker.last_seen(), now)) + " ago";
    std::vector<std::string> common = {TerminalSafe(worker.hostname()), ShortId(worker.id()),
                                       WorkerStateLabel(worker.state()), heartbeat};
    if (worker.devices().empty()) {
      std::vector<std::string> row = common;
      row.insert(row.end(), {"-", "-", "-"});
      table.AddRow(std::move(row));
      continue;
    }
    for (const v1::Device& device : worker.devices()) {
      std::vector<std::string> row = common;
      auto job = jobs.find(device.uuid());
      row.push_back(std::to_string(device.index()) + " " + TerminalSafe(device.name()));
      row.push_back(TerminalSafe(device.uuid()));
      row.push_back(job == jobs.end() ? "idle" : JobCell(*job->second));
      table.AddRow(std::move(row));
    }
  }
  table.Print(out);
}

}  // namespace warpwatch::cli
