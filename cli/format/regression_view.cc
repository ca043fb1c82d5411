// File: cli/format/regression_view.cc
#include "cli/format/regression_view.h"

#include "cli/format/duration.h"
#include "cli/format/result_units.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string WithoutPrefix(std::string name, const std::string& prefix) {
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  return name.empty() ? "-" : name;
}

}  // namespace

std::string RegressionStateLabel(v1::RegressionState state) {
  return WithoutPrefix(v1::RegressionState_Name(state), "REGRESSION_STATE_");
}

void PrintRegressionTable(const std::vector<v1::Regression>& regressions, std::ostream& out) {
  if (regressions.empty()) {
    out << "no regressions\n";
    return;
  }
  Table table({"ID", "STATE", "KIND", "CASE", "GPU", "DEVICE", "RUN", "CHANGE", "BLAME",
               "DETECTED"});
  for (const v1::Regression& g : regressions) {
    table.AddRow({std::to_string(g.id()), RegressionStateLabel(g.state()),
                  WithoutPrefix(v1::RegressionKind_Name(g.kind()), "REGRESSION_KIND_"),
                  TerminalSafe(g.case_().canonical()), TerminalSafe(g.gpu_model()),
                  g.device_uuid().empty() ? "-" : TerminalSafe(g.device_uuid()),
                  std::to_string(g.run_id()), FormatChange(g.change()),
                  WithoutPrefix(v1::Blame_Name(g.blame()), "BLAME_"),
                  FormatTimestamp(g.detected_at())});
  }
  table.Print(out);
}

void PrintTriaged(const v1::Regression& regression, std::ostream& out) {
  out << "regression " << regression.id() << ": " << RegressionStateLabel(regression.state())
      << " by " << TerminalSafe(regression.updated_by());
  if (!regression.note().empty()) out << " (" << TerminalSafe(regression.note()) << ")";
  out << "\n";
}

}  // namespace warpwatch::cli
