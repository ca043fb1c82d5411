// File: server/store/pg_store_series.cc
// GetSeries: one case over time on one GPU model or one device, with the change points and the
// regressions the detector stored for it; weeks folded by summary retention come back as
// downsampled points (detail/rollup_points.h).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <pqxx/pqxx>

#include "common/series/comparable_series.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/generic_plan.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/regression_row.h"
#include "server/store/detail/rollup_points.h"

namespace warpwatch::server::detail {
namespace {

// Regressions returned with a series at most (newest first).
constexpr int kSeriesRegressionLimit = 200;

// The model of device `uuid`: as registered, else as its latest run recorded it; "" if unknown.
// The run is only looked at when the device is not registered (coalesce evaluates its subqueries
// lazily), and then through run_device_uuid_idx (device_uuid, started_at) backwards: one entry,
// not the device's every run sorted by id.
std::string DeviceModel(pqxx::work& tx, const std::string& uuid) {
  return tx
      .exec_params1(
          "SELECT coalesce((SELECT nullif(name, '') FROM device WHERE uuid = $1),"
          " (SELECT device_name FROM run WHERE device_uuid = $1"
          "  ORDER BY started_at DESC LIMIT 1), '')",
          uuid)[0]
      .as<std::string>();
}

// A float8 column's text. strtod reads PostgreSQL's spellings (NaN, Infinity, -Infinity) too, and
// costs a fraction of pqxx's stream-based as<double>(): a series is thousands of them.
double SeriesFloat8(const pqxx::field& f) { return std::strtod(f.c_str(), nullptr); }

StatusOr<v1::SeriesPoint> PointFromRow(const pqxx::row& row) {
  v1::SeriesPoint p;
  p.set_run_id(row[0].as<int64_t>());
  *p.mutable_at() = TimestampFromMicros(row[1].as<int64_t>());
  p.set_device_uuid(row[2].c_str());
  p.set_median_seconds(SeriesFloat8(row[3]));
  p.set_median_sm_clock_mhz(SeriesFloat8(row[4]));
  // Cycles per launch: seconds x MHz x 1e6; unknown (0) without a clock.
  p.set_median_cycles(p.median_seconds() * p.median_sm_clock_mhz() * 1e6);
  p.set_throttled_fraction(SeriesFloat8(row[5]));
  p.set_verified(row[6].as<bool>());
  if (std::strcmp(row[7].c_str(), "{}") != 0) {  // most runs carry no labels
    ASSIGN_OR_RETURN(auto labels, StringMapFromJson(row[7].as<std::string>()));
    p.mutable_labels()->insert(labels.begin(), labels.end());
  }
  p.set_p10_seconds(SeriesFloat8(row[8]));
  p.set_p90_seconds(SeriesFloat8(row[9]));
  p.set_theoretical_occupancy(SeriesFloat8(row[10]));
  if (!row[11].is_null()) p.set_achieved_occupancy(SeriesFloat8(row[11]));
  const std::string status = row[12].as<std::string>();
  p.set_status(status == "OK"        ? v1::POINT_STATUS_OK
               : status == "FAILED"  ? v1::POINT_STATUS_FAILED
               : status == "SKIPPED" ? v1::POINT_STATUS_SKIPPED
                                     : v1::POINT_STATUS_UNSPECIFIED);
  return p;
}

}  // namespace

StatusOr<v1::Series> PgStore::GetSeries(const SeriesQuery& query) {
  if (query.case_canonical.empty()) return InvalidArgumentError("case_canonical: empty");
  if (query.gpu_model.empty() && query.device_uuid.empty()) {
    return InvalidArgumentError("gpu_model or device_uuid: one is required");
  }
  const int limit = std::max(query.limit, 1);
  const bool has_start = query.range.has_start();
  const bool has_end = query.range.has_end();
  const int64_t start_us = has_start ? MicrosFromTimestamp(query.range.start()) : 0;
  const int64_t end_us = has_end ? MicrosFromTimestamp(query.range.end()) : 0;
  return Run<v1::Series>("GetSeries", [&](pqxx::work& tx) -> StatusOr<v1::Series> {
    std::string model = query.gpu_model;
    if (!query.device_uuid.empty()) {
      const std::string device_model = DeviceModel(tx, query.device_uuid);
      if (device_model.empty()) {
        return NotFoundError("device " + query.device_uuid + " not found");
      }
      if (!model.empty() && model != device_model) {
        return InvalidArgumentError("device_uuid: " + query.device_uuid + " is a " + device_model +
                                    ", not a " + model);
      }
      model = device_model;
    }
    v1::Series series;
    series.set_series_id(series::SeriesId(query.case_canonical, model, query.settings_key));
    series.set_settings_key(query.settings_key);
    pqxx::result noise = tx.exec_params(
        "SELECT sigma_relative, min_detectable_change, pairs, " + MicrosSql("computed_at") +
            " FROM series_noise WHERE series_id = $1 AND device_uuid = $2",
        series.series_id(), query.device_uuid);
    if (!noise.empty()) {
      if (!noise[0][0].is_null()) series.set_noise_sigma(noise[0][0].as<double>());
      if (!noise[0][1].is_null()) series.set_min_detectable_change(noise[0][1].as<double>());
      series.set_noise_pairs(noise[0][2].as<int32_t>());
      *series.mutable_noise_computed_at() = TimestampFromMicros(noise[0][3].as<int64_t>());
    }
    series.set_gpu_model(model);
    series.set_device_uuid(query.device_uuid);
    // The latest `limit` points, oldest first. Both walk an index that carries every measurement
    // column returned (migration 0010), backwards in run order, as index-only scans: a device's
    // measurement_device_series_idx (series_id, device_uuid, run_id), a model's
    // measurement_series_idx (series_id, run_id); the run's columns come by its primary key.
    const std::string point_columns =
        "SELECT r.id, " + MicrosSql("r.started_at") +
        ", r.device_uuid, m.median_seconds, m.median_sm_clock_mhz,"
        " m.throttled_fraction, m.verified, r.labels::text, m.p10_seconds, m.p90_seconds,"
        " m.theoretical_occupancy, m.achieved_occupancy, m.status";
    const std::string in_range =
        "   AND (NOT $3::boolean"
        "        OR r.started_at >= 'epoch'::timestamptz + $4::bigint * interval '1 microsecond')"
        "   AND (NOT $5::boolean"
        "        OR r.started_at < 'epoch'::timestamptz + $6::bigint * interval '1 microsecond')";
    // The device condition is spelled out in each statement (not "$2 = '' OR ...") so that the
    // planner sees which index serves it.
    const std::string device_condition =
        query.device_uuid.empty() ? " AND $2::text = ''" : " AND m.device_uuid = $2";
    // A generic plan, prepared once per connection (detail/generic_plan.h): planning this read
    // over every partition took 4.1 of its 10 ms a call on a year of month partitions; its plan
    // is the same for every series, device and range (the range is a filter on the run).
    pqxx::result points = ExecGenericPlan(
        tx, point_columns + " FROM measurement m JOIN run r ON r.id = m.run_id WHERE m.series_id = $1" +
            device_condition + in_range + " ORDER BY m.run_id DESC LIMIT $7",
        series.series_id(), query.device_uuid, has_start, start_us, has_end, end_us, limit);
    std::vector<v1::SeriesPoint> fine;
    fine.reserve(points.size());
    for (auto it = points.rbegin(); it != points.rend(); ++it) {
      ASSIGN_OR_RETURN(v1::SeriesPoint p, PointFromRow(*it));
      fine.push_back(std::move(p));
    }
    // Weeks folded by summary retention, older than every fine point of the same device.
    const SeriesWindow window{
        series.series_id(), query.device_uuid, has_start, start_us, has_end, end_us, limit};
    for (v1::SeriesPoint& p : MergeSeriesPoints(std::move(fine), RollupPoints(tx, window), limit)) {
      *series.add_points() = std::move(p);
    }
    pqxx::result changes = tx.exec_params(
        "SELECT run_id, " + MicrosSql("at") +
            ", median_before, median_after, relative_change, p_value, device_uuid"
            " FROM change_point WHERE series_id = $1 AND device_uuid = $2 ORDER BY at, run_id",
        series.series_id(), query.device_uuid);
    for (const pqxx::row& row : changes) {
      v1::ChangePoint* c = series.add_change_points();
      c->set_run_id(row[0].as<int64_t>());
      *c->mutable_at() = TimestampFromMicros(row[1].as<int64_t>());
      c->set_median_before(row[2].as<double>());
      c->set_median_after(row[3].as<double>());
      c->set_relative_change(row[4].as<double>());
      c->set_p_value(row[5].as<double>());
      c->set_device_uuid(row[6].as<std::string>());
    }
    pqxx::result regressions = tx.exec_params(
        "SELECT " + RegressionColumns() +
            " FROM regression g WHERE g.series_id = $1 AND ($2::text = '' OR g.device_uuid = $2)"
            " ORDER BY g.id DESC LIMIT $3",
        series.series_id(), query.device_uuid, kSeriesRegressionLimit);
    for (const pqxx::row& row : regressions) {
      ASSIGN_OR_RETURN(*series.add_regressions(), RegressionFromRow(row));
    }
    return series;
  });
}

}  // namespace warpwatch::server::detail
