// File: server/analysis/series_change_points.h
// Change points of one stored series: FindChangePoints over its run medians, mapped back to the
// runs (the first run at each new level) for the change_point table.
#ifndef WARPWATCH_SERVER_ANALYSIS_SERIES_CHANGE_POINTS_H_
#define WARPWATCH_SERVER_ANALYSIS_SERIES_CHANGE_POINTS_H_

#include <vector>

#include "common/status/status.h"
#include "server/analysis/analysis_store.h"
#include "server/detect/change_points.h"

namespace warpwatch::server::analysis {

// `points` oldest first (as LoadSeries returns them). The newest config.max_points are used.
// Errors: FindChangePoints' INVALID_ARGUMENT (a non-finite median cannot come from LoadSeries).
StatusOr<std::vector<StoredChangePoint>> SeriesChangePoints(
    const std::vector<SeriesPoint>& points, const detect::ChangePointConfig& config);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_SERIES_CHANGE_POINTS_H_
