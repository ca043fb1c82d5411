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
#include "server/store/detail/rollup_points.h"

namespace warpwatch::server::detail {
namespace {

// One statement: pick the batch (skipping rows another replica holds), delete it, fold it into
// the weeks' rollups, merging with a week already there (its medians kept sorted, so the
// percentiles are recomputed exactly). A good point is detect::IsGoodRun's, bar the throttle bound:
// a throttled run is still history worth summarising, and its fraction is kept in the mean.
constexpr const char* kFoldSql =
    "WITH picked AS ("
    "  SELECT m.id, m.series_id, m.device_uuid, m.case_canonical, r.started_at,"
    "   date_trunc('week', r.started_at AT TIME ZONE 'UTC')::date AS week,"
    "   (m.status = 'OK' AND m.verified AND m.median_seconds > 0"
    "    AND m.median_seconds < 'Infinity'::double precision) AS good,"
    "   m.median_seconds, m.median_sm_clock_mhz, m.throttled_fraction"
    "  FROM measurement m JOIN run r ON r.id = m.run_id"
    "  WHERE r.finished_at < now() - $1::bigint * interval '1 hour' AND NOT %RETAINED%"
    "  ORDER BY m.id LIMIT $2 FOR UPDATE OF m SKIP LOCKED),"
    " gone AS (DELETE FROM measurement WHERE id IN (SELECT id FROM picked) RETURNING id),"
    " folded AS ("
    "  SELECT series_id, device_uuid, min(case_canonical) AS case_canonical, week,"
    "   coalesce(array_agg(median_seconds ORDER BY median_seconds) FILTER (WHERE good),"
    "            '{}') AS medians,"
    "   count(*) FILTER (WHERE NOT good) AS failed,"
    "   coalesce(avg(median_sm_clock_mhz) FILTER (WHERE good AND median_sm_clock_mhz > 0), 0)"
    "     AS clock,"
    "   count(*) FILTER (WHERE good AND median_sm_clock_mhz > 0) AS clock_n,"
    "   coalesce(avg(throttled_fraction) FILTER (WHERE good), 0) AS throttled,"
    "   min(started_at) AS first_at, max(started_at) AS last_at"
    "  FROM picked GROUP BY series_id, device_uuid, week),"
    " merged AS ("
    "  INSERT INTO measurement_rollup AS u (series_id, device_uuid, case_canonical, week,"
    "   run_medians, failed_points, median_seconds, p10_seconds, p90_seconds, min_seconds,"
    "   max_seconds, mean_sm_clock_mhz, clock_points, throttled_fraction, first_at, last_at)"
    "  SELECT series_id, device_uuid, case_canonical, week, medians, failed,"
    "   warpwatch_percentile(medians, 0.5), warpwatch_percentile(medians, 0.1),"
    "   warpwatch_percentile(medians, 0.9), medians[1], medians[cardinality(medians)],"
    "   clock, clock_n, throttled, first_at, last_at FROM folded"
    "  ON CONFLICT (series_id, device_uuid, week) DO UPDATE SET"
    "   run_medians = ARRAY(SELECT v FROM unnest(u.run_medians || EXCLUDED.run_medians) v"
    "                       ORDER BY v),"
    "   failed_points = u.failed_points + EXCLUDED.failed_points,"
    "   median_seconds = warpwatch_percentile(u.run_medians || EXCLUDED.run_medians, 0.5),"
    "   p10_seconds = warpwatch_percentile(u.run_medians || EXCLUDED.run_medians, 0.1),"
    "   p90_seconds = warpwatch_percentile(u.run_medians || EXCLUDED.run_medians, 0.9),"
    "   min_seconds = least(u.min_seconds, EXCLUDED.min_seconds),"
    "   max_seconds = greatest(u.max_seconds, EXCLUDED.max_seconds),"
    "   mean_sm_clock_mhz = CASE WHEN u.clock_points + EXCLUDED.clock_points = 0 THEN 0 ELSE"
    "    (u.mean_sm_clock_mhz * u.clock_points + EXCLUDED.mean_sm_clock_mhz"
    "     * EXCLUDED.clock_points) / (u.clock_points + EXCLUDED.clock_points) END,"
    "   clock_points = u.clock_points + EXCLUDED.clock_points,"
    "   throttled_fraction = CASE"
    "    WHEN cardinality(u.run_medians) + cardinality(EXCLUDED.run_medians) = 0 THEN 0 ELSE"
    "    (u.throttled_fraction * cardinality(u.run_medians) + EXCLUDED.throttled_fraction"
    "     * cardinality(EXCLUDED.run_medians))"
    "    / (cardinality(u.run_medians) + cardinality(EXCLUDED.run_medians)) END,"
    "   first_at = least(u.first_at, EXCLUDED.first_at),"
    "   last_at = greatest(u.last_at, EXCLUDED.last_at)"
    "  RETURNING 1)"
    " SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM merged)";

std::string FoldSql() {
  std::string sql = kFoldSql;
  const std::string marker = "%RETAINED%";
  sql.replace(sql.find(marker), marker.size(), kRetainedRunSql);
  return sql;
}

double Float8(const pqxx::field& f) { return std::strtod(f.c_str(), nullptr); }

}  // namespace

StatusOr<int> PgStore::DownsampleSummaries(std::chrono::hours older_than, int batch) {
  static const std::string sql = FoldSql();
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
    p.set_median_seconds(Float8(row[3]));
    p.set_median_sm_clock_mhz(Float8(row[4]));
    p.set_median_cycles(p.median_seconds() * p.median_sm_clock_mhz() * 1e6);
    p.set_throttled_fraction(Float8(row[5]));
    p.set_p10_seconds(Float8(row[6]));
    p.set_p90_seconds(Float8(row[7]));
    p.set_runs(row[8].as<int>());
    p.set_min_seconds(Float8(row[9]));
    p.set_max_seconds(Float8(row[10]));
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
