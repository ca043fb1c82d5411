// File: server/store/detail/rollup_points.h
// GetSeries' downsampled points: the week rollups of summary retention (Store::DownsampleSummaries)
// as SeriesPoints marked downsampled, and their merge with the fine points.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_POINTS_H_
#define WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_POINTS_H_

#include <cstdint>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::detail {

// Where the points of a GetSeries lie: one series, one device or all ("" ), a range on the run
// start ([start, end), each bound optional) and the latest `limit` points.
struct SeriesWindow {
  std::string series_id;
  std::string device_uuid;
  bool has_start = false;
  int64_t start_micros = 0;
  bool has_end = false;
  int64_t end_micros = 0;
  int limit = 400;
};

// The latest `window.limit` week rollups of the series (each device's weeks; only devices'
// `window.device_uuid` when set) whose first run start lies in the range, oldest first, as
// downsampled points. Weeks that folded only failed points are left out. Throws pqxx errors (the
// caller is inside Transact).
std::vector<v1::SeriesPoint> RollupPoints(pqxx::work& tx, const SeriesWindow& window);

// `fine` and `rolled` (each oldest first) merged by `at`, keeping the latest `limit`.
std::vector<v1::SeriesPoint> MergeSeriesPoints(std::vector<v1::SeriesPoint> fine,
                                               std::vector<v1::SeriesPoint> rolled, int limit);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_POINTS_H_
