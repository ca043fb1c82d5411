// File: cli/format/compare_view.h
// How `warpwatch compare` looks to people: each shared case's change and verdict with both runs'
// clocks and occupancy, then the cases only one run measured.
#ifndef WARPWATCH_CLI_FORMAT_COMPARE_VIEW_H_
#define WARPWATCH_CLI_FORMAT_COMPARE_VIEW_H_

#include <ostream>

#include "warpwatch/v1/result.pb.h"

namespace warpwatch::cli {

void PrintComparison(const v1::CompareRunsResponse& comparison, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_COMPARE_VIEW_H_
