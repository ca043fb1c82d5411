// File: cli/format/baseline_view.cc
#include "cli/format/baseline_view.h"

#include "cli/format/duration.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {

std::string PinRunsText(const v1::BaselinePin& pin) {
  std::string text;
  for (int64_t id : pin.run_ids()) text += (text.empty() ? "" : " ") + std::to_string(id);
  return text;
}

namespace {

std::string SeriesText(const v1::BaselinePin& pin) {
  return pin.series_id().empty() ? "(every series)" : pin.series_id();
}

}  // namespace

void PrintBaselineTable(const std::vector<v1::BaselinePin>& pins, std::ostream& out) {
  if (pins.empty()) {
    out << "no baseline pins\n";
    return;
  }
  Table table({"ID", "RUNS", "SERIES", "BY", "PINNED", "NOTE"});
  for (const v1::BaselinePin& pin : pins) {
    table.AddRow({std::to_string(pin.id()), PinRunsText(pin), TerminalSafe(SeriesText(pin)),
                  TerminalSafe(pin.pinned_by()), FormatTimestamp(pin.pinned_at()),
                  TerminalSafe(pin.note())});
  }
  table.Print(out);
}

void PrintPinChange(const v1::BaselinePin& pin, const std::string& verb, std::ostream& out) {
  out << verb << " baseline " << pin.id() << ": runs " << PinRunsText(pin) << " for "
      << TerminalSafe(pin.series_id().empty() ? "every series they measured"
                                              : "series " + pin.series_id())
      << " (by " << TerminalSafe(pin.pinned_by()) << ")\n";
}

}  // namespace warpwatch::cli
