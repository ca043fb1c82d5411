// File: cli/format/regression_view.h
// How regressions look to people: the `regressions` table and one regression after triage.
#ifndef WARPWATCH_CLI_FORMAT_REGRESSION_VIEW_H_
#define WARPWATCH_CLI_FORMAT_REGRESSION_VIEW_H_

#include <ostream>
#include <string>
#include <vector>

#include "warpwatch/v1/result.pb.h"

namespace warpwatch::cli {

// "OPEN", "ACKNOWLEDGED" ... (the enum name without its prefix).
std::string RegressionStateLabel(v1::RegressionState state);

// ID STATE KIND CASE GPU DEVICE RUN CHANGE BLAME DETECTED, one row per regression; "no
// regressions" when empty.
void PrintRegressionTable(const std::vector<v1::Regression>& regressions, std::ostream& out);

// "regression ID: STATE by WHO (note)".
void PrintTriaged(const v1::Regression& regression, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_REGRESSION_VIEW_H_
