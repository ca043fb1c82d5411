// File: cli/format/incident_view.cc
#include "cli/format/incident_view.h"

#include <map>
#include <set>

#include "cli/format/duration.h"
#include "cli/format/regression_view.h"
#include "cli/format/result_units.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string IncidentWithoutPrefix(std::string name, const std::string& prefix) {
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  return name.empty() ? "-" : name;
}

std::string Window(const v1::Incident& i) {
  return i.schedule_run_id() != 0 ? "schedule run " + std::to_string(i.schedule_run_id())
                                  : "night " + i.night();
}

std::string Joined(const google::protobuf::RepeatedPtrField<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : " | ") + v;
  return out.empty() ? "(none)" : out;
}

}  // namespace

std::string IncidentStateLabel(v1::IncidentState state) {
  return IncidentWithoutPrefix(v1::IncidentState_Name(state), "INCIDENT_STATE_");
}

std::string CauseClassLabel(v1::CauseClass cause_class) {
  return IncidentWithoutPrefix(v1::CauseClass_Name(cause_class), "CAUSE_CLASS_");
}

void PrintIncidentTable(const std::vector<v1::Incident>& incidents, std::ostream& out) {
  if (incidents.empty()) {
    out << "no incidents\n";
    return;
  }
  Table table(
      {"ID", "STATE", "KIND", "CLASS", "GPU", "WINDOW", "CASES", "GPUS", "CHANGE", "CAUSE"});
  for (const v1::Incident& i : incidents) {
    table.AddRow({std::to_string(i.id()), IncidentStateLabel(i.state()),
                  IncidentWithoutPrefix(v1::IncidentKind_Name(i.kind()), "INCIDENT_KIND_"),
                  CauseClassLabel(i.cause_class()), TerminalSafe(i.gpu_model()), Window(i),
                  std::to_string(i.cases()),
                  std::to_string(i.device_uuids_size()) + "/" + std::to_string(i.peers()),
                  FormatChange(i.median_change()), TerminalSafe(i.cause())});
  }
  table.Print(out);
}

void PrintExplanation(const v1::Explanation& e, std::ostream& out) {
  out << "Likely causes, most likely first:\n";
  for (int k = 0; k < e.causes_size(); ++k) {
    const v1::LikelyCause& c = e.causes(k);
    out << "  " << k + 1 << ". [" << CauseClassLabel(c.cause_class()) << "] "
        << TerminalSafe(c.cause()) << "\n";
    for (const std::string& line : c.evidence()) out << "       - " << TerminalSafe(line) << "\n";
  }
  for (const std::string& line : e.ruled_out())
    out << "  ruled out: " << TerminalSafe(line) << "\n";
  if (e.environment_size() > 0) {
    Table env({"FIELD", "BASELINE", "NEW"});
    for (const v1::EnvironmentDifference& d : e.environment()) {
      env.AddRow({TerminalSafe(d.field()), TerminalSafe(Joined(d.baseline())),
                  TerminalSafe(d.new_value().empty() ? "(none)" : d.new_value())});
    }
    out << "Environment differences (baseline runs -> new run):\n";
    env.Print(out);
  } else {
    out << "Environment: no field differs between the baseline runs and the new run\n";
  }
  if (e.attributes_size() > 0) {
    Table attributes({"ATTRIBUTE", "BASELINE", "NEW"});
    for (const v1::AttributeDifference& d : e.attributes()) {
      attributes.AddRow(
          {TerminalSafe(d.attribute()), TerminalSafe(d.baseline()), TerminalSafe(d.new_value())});
    }
    out << "Kernel attributes:\n";
    attributes.Print(out);
  } else {
    out << "Kernel attributes: equal (or not recorded)\n";
  }
  const v1::TimeSplit& t = e.time();
  out << "Event vs kernel time: " << t.where() << " (event " << FormatChange(t.time_change());
  if (t.has_kernel_change()) out << ", kernels " << FormatChange(t.kernel_change());
  out << ")" << (t.note().empty() ? "" : "; " + TerminalSafe(t.note())) << "\n";
  const v1::ClockSplit& c = e.clocks();
  out << "Time vs cycles: " << c.verdict() << " (time " << FormatChange(c.time_change());
  if (c.has_cycles_change()) out << ", cycles " << FormatChange(c.cycles_change());
  out << ", SM clock " << c.baseline_sm_clock_mhz() << " -> " << c.new_sm_clock_mhz() << " MHz)\n";
  if (e.counters_size() > 0) {
    Table counters({"COUNTER", "BASELINE", "NEW", "CHANGE"});
    for (const v1::CounterDifference& d : e.counters()) {
      counters.AddRow({TerminalSafe(d.counter()), std::to_string(d.baseline()),
                       std::to_string(d.new_value()),
                       d.baseline() == 0 ? "from 0" : FormatChange(d.change())});
    }
    out << "Counters:\n";
    counters.Print(out);
  } else {
    out << "Counters: " << TerminalSafe(e.counters_note()) << "\n";
  }
}

void PrintIncident(const v1::Incident& i, std::ostream& out) {
  out << "incident " << i.id() << ": " << IncidentStateLabel(i.state()) << ", "
      << IncidentWithoutPrefix(v1::IncidentKind_Name(i.kind()), "INCIDENT_KIND_") << " on "
      << TerminalSafe(i.gpu_model()) << ", " << Window(i) << "\n";
  out << "cause [" << CauseClassLabel(i.cause_class()) << "]: " << TerminalSafe(i.cause()) << "\n";
  for (const std::string& line : i.ruled_out()) out << "ruled out: " << TerminalSafe(line) << "\n";
  out << i.findings() << " findings (" << i.confirmed() << " confirmed, " << i.suspected()
      << " suspected), " << i.cases() << " cases on " << i.device_uuids_size() << " of "
      << i.peers() << " GPUs measured; change " << FormatChange(i.min_change()) << " .. "
      << FormatChange(i.max_change()) << " (median " << FormatChange(i.median_change()) << ")\n";
  // Cases x GPUs: each cell the finding's change (and its state when not OPEN).
  std::set<std::string> gpus;
  std::map<std::string, std::map<std::string, std::string>> cells;
  for (const v1::Regression& g : i.regressions()) {
    gpus.insert(g.device_uuid());
    std::string cell = FormatChange(g.change());
    if (g.state() != v1::REGRESSION_STATE_OPEN) cell += " " + RegressionStateLabel(g.state());
    cells[g.case_().canonical()][g.device_uuid()] = cell + " #" + std::to_string(g.id());
  }
  if (!cells.empty()) {
    std::vector<std::string> header = {"CASE"};
    for (const std::string& gpu : gpus) header.push_back(TerminalSafe(gpu.empty() ? "-" : gpu));
    Table table(header);
    for (const auto& [canonical, row] : cells) {
      std::vector<std::string> line = {TerminalSafe(canonical)};
      for (const std::string& gpu : gpus) {
        auto it = row.find(gpu);
        line.push_back(it == row.end() ? "." : it->second);
      }
      table.AddRow(line);
    }
    out << "\n";
    table.Print(out);
  }
  if (i.has_explanation()) {
    out << "\nExplanation (of its largest confirmed finding):\n";
    PrintExplanation(i.explanation(), out);
  }
  if (i.history_size() > 0) {
    out << "\nHistory:\n";
    Table history({"AT", "FROM", "TO", "BY", "NOTE"});
    for (const v1::IncidentEvent& e : i.history()) {
      history.AddRow({FormatTimestamp(e.at()), IncidentStateLabel(e.from_state()),
                      IncidentStateLabel(e.to_state()), TerminalSafe(e.actor()),
                      TerminalSafe(e.note())});
    }
    history.Print(out);
  }
}

void PrintExplainedFinding(const v1::Regression& g, std::ostream& out) {
  out << "finding " << g.id() << ": " << RegressionStateLabel(g.state()) << " "
      << TerminalSafe(g.case_().canonical()) << " on " << TerminalSafe(g.gpu_model()) << " "
      << TerminalSafe(g.device_uuid()) << ", run " << g.run_id() << ", change "
      << FormatChange(g.change());
  if (g.incident_id() != 0) out << ", incident " << g.incident_id();
  out << "\n";
  if (!g.explanation().summary().empty()) {
    out << "summary: " << TerminalSafe(g.explanation().summary()) << "\n";
  }
  PrintExplanation(g.explanation(), out);
}

}  // namespace warpwatch::cli
