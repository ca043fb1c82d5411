// File: cli/format/compare_view.cc
#include "cli/format/compare_view.h"

#include <cstdio>
#include <map>
#include <string>

#include "cli/format/result_units.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string CompareWithoutPrefix(std::string name, const std::string& prefix) {
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  return name.empty() ? "-" : name;
}

std::string Clocks(double a, double b) {
  auto one = [](double mhz) { return mhz > 0 ? std::to_string(static_cast<int>(mhz)) : "-"; };
  return one(a) + "/" + one(b);
}

std::string PValue(const v1::CaseComparison& c) {
  if (!c.has_p_value()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", c.p_value());
  return buf;
}

}  // namespace

void PrintComparison(const v1::CompareRunsResponse& comparison, std::ostream& out) {
  if (comparison.cases().empty()) {
    out << "no shared cases\n";
  } else {
    Table table({"CASE", "BASE", "NEW", "CHANGE", "CYCLES", "P", "VERDICT", "BLAME",
                 "CLOCK MHZ", "OCC THEO", "OCC ACH"});
    std::map<std::string, int> verdicts;
    for (const v1::CaseComparison& c : comparison.cases()) {
      const std::string verdict =
          CompareWithoutPrefix(v1::ComparisonVerdict_Name(c.verdict()), "COMPARISON_VERDICT_");
      ++verdicts[verdict];
      table.AddRow(
          {TerminalSafe(c.case_().canonical()), FormatSeconds(c.base_median_seconds()),
           FormatSeconds(c.new_median_seconds()), FormatChange(c.change()),
           c.has_cycles_change() ? FormatChange(c.cycles_change()) : "-", PValue(c), verdict,
           CompareWithoutPrefix(v1::Blame_Name(c.blame()), "BLAME_"),
           Clocks(c.base_sm_clock_mhz(), c.new_sm_clock_mhz()),
           FormatPercent(c.base_theoretical_occupancy()) + "/" +
               FormatPercent(c.new_theoretical_occupancy()),
           (c.has_base_achieved_occupancy() ? FormatPercent(c.base_achieved_occupancy()) : "-") +
               "/" +
               (c.has_new_achieved_occupancy() ? FormatPercent(c.new_achieved_occupancy()) : "-")});
    }
    table.Print(out);
    out << comparison.cases_size() << " shared cases:";
    for (const auto& [verdict, n] : verdicts) out << " " << verdict << " " << n;
    out << "\n";
  }
  for (const std::string& key : comparison.only_in_base()) {
    out << "only in base: " << TerminalSafe(key) << "\n";
  }
  for (const std::string& key : comparison.only_in_new()) {
    out << "only in new:  " << TerminalSafe(key) << "\n";
  }
}

}  // namespace warpwatch::cli
