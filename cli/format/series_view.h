// File: cli/format/series_view.h
// How a series looks to people (`warpwatch series`): a sparkline of the medians, a table of the
// points, then the change points and regressions on it.
#ifndef WARPWATCH_CLI_FORMAT_SERIES_VIEW_H_
#define WARPWATCH_CLI_FORMAT_SERIES_VIEW_H_

#include <ostream>

#include "warpwatch/v1/result.pb.h"

namespace warpwatch::cli {

void PrintSeries(const v1::Series& series, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_SERIES_VIEW_H_
