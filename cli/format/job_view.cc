// File: cli/format/job_view.cc
#include "cli/format/job_view.h"

#include <algorithm>

#include "cli/format/duration.h"
#include "cli/format/progress_bar.h"
#include "cli/format/run_view.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string Join(const google::protobuf::RepeatedPtrField<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string Labels(const google::protobuf::Map<std::string, std::string>& labels) {
  std::vector<std::string> pairs;
  for (const auto& [key, value] : labels) pairs.push_back(key + "=" + value);
  std::sort(pairs.begin(), pairs.end());
  std::string out;
  for (const std::string& pair : pairs) out += (out.empty() ? "" : " ") + pair;
  return out.empty() ? "-" : out;
}

std::string Or(const std::string& value, const std::string& fallback) {
  return value.empty() ? fallback : value;
}

std::string AxisText(const v1::AxisOverride& axis) {
  std::string values;
  for (int64_t v : axis.values()) values += (values.empty() ? "" : ",") + std::to_string(v);
  return (axis.family().empty() ? "" : axis.family() + ":") + axis.axis() + "=" + values;
}

}  // namespace

std::string JobStateLabel(v1::JobState state) {
  std::string name = v1::JobState_Name(state);
  const std::string prefix = "JOB_STATE_";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  return name.empty() ? std::to_string(static_cast<int>(state)) : name;
}

std::string SpecSummary(const v1::JobSpec& spec) {
  std::string out = Join(spec.families());
  if (!spec.variants().empty()) out += " [variants: " + Join(spec.variants()) + "]";
  return out;
}

void PrintJobTable(const std::vector<v1::Job>& jobs, std::ostream& out) {
  if (jobs.empty()) {
    out << "no jobs\n";
    return;
  }
  Table table({"ID", "STATE", "PRI", "PROGRESS", "FAMILIES", "BY", "CREATED", "AGE"});
  const google::protobuf::Timestamp now = Now();
  for (const v1::Job& job : jobs) {
    std::string state = JobStateLabel(job.state());
    if (job.cancel_requested() && job.state() == v1::JOB_STATE_RUNNING) state += " (cancelling)";
    table.AddRow({std::to_string(job.id()), state, std::to_string(job.spec().priority()),
                  ProgressFraction(job.points_done(), job.points_total()),
                  Ellipsize(SpecSummary(job.spec()), 40), job.submitted_by(),
                  FormatTimestamp(job.created_at()),
                  FormatDuration(SecondsBetween(job.created_at(), now))});
  }
  table.Print(out);
}

void PrintJobDetail(const v1::Job& job, std::ostream& out) {
  const v1::JobSpec& spec = job.spec();
  out << "id:           " << job.id() << "\n";
  out << "state:        " << JobStateLabel(job.state())
      << (job.cancel_requested() ? " (cancel requested)" : "") << "\n";
  out << "progress:     " << ProgressFraction(job.points_done(), job.points_total()) << "\n";
  if (!job.current_case().empty()) {
    out << "current case: " << TerminalSafe(job.current_case()) << "\n";
  }
  out << "families:     " << Join(spec.families()) << "\n";
  out << "variants:     " << Or(Join(spec.variants()), "all") << "\n";
  for (const v1::AxisOverride& axis : spec.axes())
    out << "axis:         " << AxisText(axis) << "\n";
  out << "selector:     model=" << Or(spec.selector().gpu_model(), "*")
      << " uuid=" << Or(spec.selector().gpu_uuid(), "*")
      << " worker_labels=" << Labels(spec.selector().worker_labels()) << "\n";
  out << "labels:       " << Labels(spec.labels()) << "\n";
  out << "priority:     " << spec.priority() << "\n";
  out << "attempts:     " << job.attempts() << "\n";
  out << "submitted by: " << job.submitted_by() << "\n";
  out << "created:      " << FormatTimestamp(job.created_at()) << "\n";
  out << "started:      " << FormatTimestamp(job.started_at()) << "\n";
  out << "finished:     " << FormatTimestamp(job.finished_at()) << "\n";
  if (!job.lease_owner().empty()) out << "worker:       " << job.lease_owner() << "\n";
  if (!job.device_uuid().empty()) out << "device:       " << job.device_uuid() << "\n";
  if (!job.error().empty()) out << "error:        " << TerminalSafe(job.error()) << "\n";
  if (!job.analysis().state().empty()) {
    out << "judged:       " << CoverageLabel(job.analysis()) << "\n";
  }
}

}  // namespace warpwatch::cli
