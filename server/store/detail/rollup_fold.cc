// File: server/store/detail/rollup_fold.cc
#include "server/store/detail/rollup_fold.h"

namespace warpwatch::server::detail {
namespace {

// After `picked` (and `gone`): fold the picked rows per series, device and ISO week and merge them
// into measurement_rollup.
constexpr const char* kFoldAndMergeSql =
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
    " SELECT count(*) FROM picked";

}  // namespace

const char* const kFoldPickColumns =
    " m.run_id, m.id, m.series_id, m.device_uuid, m.case_canonical, r.started_at,"
    " date_trunc('week', r.started_at AT TIME ZONE 'UTC')::date AS week,"
    " (m.status = 'OK' AND m.verified AND m.median_seconds > 0"
    "  AND m.median_seconds < 'Infinity'::double precision) AS good,"
    " m.median_seconds, m.median_sm_clock_mhz, m.throttled_fraction";

std::string RollupFoldSql(const std::string& picked, bool delete_picked) {
  std::string sql = "WITH picked AS MATERIALIZED (" + picked + "),";
  if (delete_picked) {
    sql += " gone AS (DELETE FROM measurement WHERE (run_id, id) IN"
           " (SELECT run_id, id FROM picked)),";
  }
  return sql + kFoldAndMergeSql;
}

}  // namespace warpwatch::server::detail
