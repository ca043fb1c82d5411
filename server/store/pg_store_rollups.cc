// File: server/store/pg_store_rollups.cc
// Summary retention: old measurements folded into week rollups (Store::DownsampleSummaries,
// migration 0012), and the rollups read back as GetSeries points (detail/rollup_points.h).
#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/retention_sql.h"
#include "server/store/detail/rollup_fold.h"
#include "server/store/detail/rollup_points.h"

namespace warpwatch::server::detail {
namespace {

// The batch: rows of runs finished before the cutoff that retention does not keep, skipping rows
// another replica holds.
std::string DownsampleSql() {
  return RollupFoldSql(std::string("SELECT") + kFoldPickColumns +
                           " FROM measurement m JOIN run r ON r.id = m.run_id"
                           " WHERE r.finished_at < now() - $1::bigint * interval '1 hour'"
                           " AND NOT" +
                           kRetainedRunSql + " ORDER BY m.id LIMIT $2 FOR UPDATE OF m SKIP LOCKED",
                       /*delete_picked=*/true);
}

double RollupFloat8(const pqxx::field& f) { return std::strtod(f.c_str(), nullptr); }

}  // namespace

StatusOr<int> PgStore::DownsampleSummaries(std::chrono::hours older_than, int batch) {
  static const std::string sql = DownsampleSql();
  return Run<int>("DownsampleSummaries", [&](pqxx::work& tx) -> StatusOr<int> {
    pqxx::row r =
        tx.exec_params1(sql, static_cast<int64_t>(older_than.count()), static_cast<int64_t>(batch));
    return static_cast<int>(r[0].as<int64_t>());
  });
}

std::vector<v1::SeriesPoint> RollupPoints(pqxx::work& tx, const SeriesWindow& w) {
  pqxx::result rows = tx.exec_params(
      "SELECT " + MicrosSql("first_at") + ", " + MicrosSql("last_at") +
          ", device_uuid, median_seconds, mean_sm_clock_mhz, throttled_fraction, p10_seconds,"
          " p90_seconds, cardinality(run_medians), min_seconds, max_seconds"
          " FROM measurement_rollup WHERE series_id = $1 AND ($2::text = '' OR device_uuid = $2)"
          " AND cardinality(run_medians) > 0"
          " AND (NOT $3::boolean"
          "      OR first_at >= 'epoch'::timestamptz + $4::bigint * interval '1 microsecond')"
          " AND (NOT $5::boolean"
          "      OR first_at < 'epoch'::timestamptz + $6::bigint * interval '1 microsecond')"
          " ORDER BY first_at DESC, device_uuid LIMIT $7",
      w.series_id, w.device_uuid, w.has_start, w.start_micros, w.has_end, w.end_micros, w.limit);
  std::vector<v1::SeriesPoint> out;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    const pqxx::row& row = *it;
    v1::SeriesPoint p;
    p.set_downsampled(true);
    *p.mutable_at() = TimestampFromMicros(row[0].as<int64_t>());
    *p.mutable_period_end() = TimestampFromMicros(row[1].as<int64_t>());
    p.set_device_uuid(row[2].c_str());
    p.set_median_seconds(RollupFloat8(row[3]));
    p.set_median_sm_clock_mhz(RollupFloat8(row[4]));
    p.set_median_cycles(p.median_seconds() * p.median_sm_clock_mhz() * 1e6);
    p.set_throttled_fraction(RollupFloat8(row[5]));
    p.set_p10_seconds(RollupFloat8(row[6]));
    p.set_p90_seconds(RollupFloat8(row[7]));
    p.set_runs(row[8].as<int>());
    p.set_min_seconds(RollupFloat8(row[9]));
    p.set_max_seconds(RollupFloat8(row[10]));
    p.set_verified(true);  // only good points are folded into the medians
    p.set_status(v1::POINT_STATUS_OK);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<v1::SeriesPoint> MergeSeriesPoints(std::vector<v1::SeriesPoint> fine,
                                               std::vector<v1::SeriesPoint> rolled, int limit) {
  if (rolled.empty()) return fine;
  std::vector<v1::SeriesPoint> all;
  all.reserve(fine.size() + rolled.size());
  std::merge(std::make_move_iterator(rolled.begin()), std::make_move_iterator(rolled.end()),
             std::make_move_iterator(fine.begin()), std::make_move_iterator(fine.end()),
             std::back_inserter(all), [](const v1::SeriesPoint& a, const v1::SeriesPoint& b) {
               return MicrosFromTimestamp(a.at()) < MicrosFromTimestamp(b.at());
             });
  if (static_cast<int>(all.size()) > limit) all.erase(all.begin(), all.end() - limit);
  return all;
}

}  // namespace warpwatch::server::detail
