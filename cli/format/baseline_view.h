// File: cli/format/baseline_view.h
// Pinned baselines for people: the `baseline list` table and the line `baseline pin|unpin` print.
#ifndef WARPWATCH_CLI_FORMAT_BASELINE_VIEW_H_
#define WARPWATCH_CLI_FORMAT_BASELINE_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/baseline.pb.h"

namespace warpwatch::cli {

// "12 34 56" (the pin's run ids).
std::string PinRunsText(const v1::BaselinePin& pin);

// ID, RUNS, SERIES ("(every series)" for an every-series pin), BY, PINNED (UTC), NOTE; one row a
// pin, in the given order; "no baseline pins" when empty.
void PrintBaselineTable(const std::vector<v1::BaselinePin>& pins, std::ostream& out);

// "pinned baseline 7: runs 12 34 for every series (by ci)" / "unpinned baseline 7: ...".
void PrintPinChange(const v1::BaselinePin& pin, const std::string& verb, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_BASELINE_VIEW_H_
