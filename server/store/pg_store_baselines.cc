// File: server/store/pg_store_baselines.cc
// Pinned baselines (migration 0012): pin a list of runs as the baseline of one series or of every
// series they measured, unpin, list. The detector reads them in pg_analysis_reads.cc.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {
namespace {

// Columns of a pin, in the order PinFromRow reads them; `p` is baseline_pin.
std::string PinColumns() {
  return "p.id, p.series_id, p.note, p.pinned_by, " + MicrosSql("p.pinned_at") +
         ", (SELECT coalesce(string_agg(pr.run_id::text, ',' ORDER BY pr.run_id), '')"
         "   FROM baseline_pin_run pr WHERE pr.pin_id = p.id)";
}

v1::BaselinePin PinFromRow(const pqxx::row& row) {
  v1::BaselinePin pin;
  pin.set_id(row[0].as<int64_t>());
  pin.set_series_id(row[1].as<std::string>());
  pin.set_note(row[2].as<std::string>());
  pin.set_pinned_by(row[3].as<std::string>());
  *pin.mutable_pinned_at() = TimestampFromMicros(row[4].as<int64_t>());
  const std::string runs = row[5].as<std::string>();
  for (size_t start = 0; start < runs.size();) {
    size_t comma = runs.find(',', start);
    if (comma == std::string::npos) comma = runs.size();
    pin.add_run_ids(std::strtoll(runs.c_str() + start, nullptr, 10));
    start = comma + 1;
  }
  return pin;
}

// Why a stored point cannot serve as a baseline (detect::WhyNotGood's rules); "" when it can.
std::string WhyNotGood(const pqxx::row& row, double max_throttled_fraction) {
  const std::string status = row[0].as<std::string>();
  if (status != "OK") return status;
  if (!row[1].as<bool>()) return "unverified";
  const double throttled = row[2].as<double>();
  if (throttled > max_throttled_fraction) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "throttled %.0f %%", throttled * 100);
    return buffer;
  }
  const double median = std::strtod(row[3].c_str(), nullptr);
  if (!(median > 0) || !std::isfinite(median)) return "without a valid median";
  return "";
}

// NOT_FOUND / FAILED_PRECONDITION when run `id` cannot be pinned for `series_id`.
Status CheckPinnable(pqxx::work& tx, int64_t id, const std::string& series_id,
                     double max_throttled_fraction) {
  const std::string run = "run " + std::to_string(id);
  pqxx::result r = tx.exec_params("SELECT state FROM run WHERE id = $1 FOR SHARE", id);
  if (r.empty()) return NotFoundError(run + " not found");
  const std::string state = r[0][0].as<std::string>();
  if (state != "SUCCEEDED") {
    return FailedPreconditionError(run + " is " + state +
                                   ": only a SUCCEEDED run can be pinned as a baseline");
  }
  pqxx::result points = tx.exec_params(
      "SELECT status, verified, throttled_fraction, median_seconds FROM measurement"
      " WHERE run_id = $1 AND ($2::text = '' OR series_id = $2)",
      id, series_id);
  if (!series_id.empty()) {
    if (points.empty()) {
      return FailedPreconditionError(run + " did not measure series " + series_id);
    }
    const std::string why = WhyNotGood(points[0], max_throttled_fraction);
    if (!why.empty()) {
      return FailedPreconditionError(run + "'s point of " + series_id + " is " + why +
                                     ": not a baseline");
    }
    return OkStatus();
  }
  for (const pqxx::row& row : points) {
    if (WhyNotGood(row, max_throttled_fraction).empty()) return OkStatus();
  }
  return FailedPreconditionError(
      run + " has no good point (status OK, verified, not throttled): " + "not a baseline");
}

// The runs of schedule run `id` that CheckPinnable accepts, ascending.
StatusOr<std::vector<int64_t>> PinnableRunsOfScheduleRun(pqxx::work& tx, int64_t id,
                                                        const std::string& series_id,
                                                        double max_throttled_fraction) {
  const std::string what = "schedule run " + std::to_string(id);
  if (tx.exec_params("SELECT 1 FROM schedule_run WHERE id = $1", id).empty()) {
    return NotFoundError(what + " not found");
  }
  pqxx::result runs = tx.exec_params(
      "SELECT r.id FROM run r JOIN job j ON j.id = r.job_id"
      " WHERE j.schedule_run_id = $1 AND r.state = 'SUCCEEDED' ORDER BY r.id",
      id);
  std::vector<int64_t> ids;
  for (const pqxx::row& row : runs) {
    const int64_t run = row[0].as<int64_t>();
    if (CheckPinnable(tx, run, series_id, max_throttled_fraction).ok()) ids.push_back(run);
  }
  if (ids.empty()) {
    return FailedPreconditionError(
        what + " has no SUCCEEDED run with a good point" +
        (series_id.empty() ? std::string() : " of series " + series_id) + " (" +
        std::to_string(runs.size()) + " succeeded runs): nothing to pin");
  }
  return ids;
}

}  // namespace

StatusOr<v1::BaselinePin> PgStore::PinBaseline(const BaselinePinRequest& request,
                                               double max_throttled_fraction) {
  if (request.run_ids.empty() && request.schedule_run_id <= 0) {
    return InvalidArgumentError("run_ids: empty and no schedule run");
  }
  return Run<v1::BaselinePin>("PinBaseline", [&](pqxx::work& tx) -> StatusOr<v1::BaselinePin> {
    std::vector<int64_t> ids = request.run_ids;
    if (request.schedule_run_id > 0) {
      ASSIGN_OR_RETURN(std::vector<int64_t> of_schedule,
                       PinnableRunsOfScheduleRun(tx, request.schedule_run_id, request.series_id,
                                                 max_throttled_fraction));
      ids.insert(ids.end(), of_schedule.begin(), of_schedule.end());
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (int64_t id : ids) {
      RETURN_IF_ERROR(CheckPinnable(tx, id, request.series_id, max_throttled_fraction));
    }
    const int64_t pin_id =
        tx.exec_params1(
              "INSERT INTO baseline_pin (series_id, note, pinned_by) VALUES ($1, $2, $3)"
              " RETURNING id",
              request.series_id, request.note, request.pinned_by)[0]
            .as<int64_t>();
    tx.exec_params("INSERT INTO baseline_pin_run (pin_id, run_id) SELECT $1, unnest($2::bigint[])",
                   pin_id, BigintArrayLiteral(ids));
    return PinFromRow(
        tx.exec_params1("SELECT " + PinColumns() + " FROM baseline_pin p WHERE p.id = $1", pin_id));
  });
}

StatusOr<v1::BaselinePin> PgStore::UnpinBaseline(int64_t id, const PinGuard& guard) {
  return Run<v1::BaselinePin>("UnpinBaseline", [&](pqxx::work& tx) -> StatusOr<v1::BaselinePin> {
    pqxx::result r = tx.exec_params(
        "SELECT " + PinColumns() + " FROM baseline_pin p WHERE p.id = $1 FOR UPDATE", id);
    if (r.empty()) return NotFoundError("baseline pin " + std::to_string(id) + " not found");
    v1::BaselinePin pin = PinFromRow(r[0]);
    RETURN_IF_ERROR(guard(pin));
    tx.exec_params("DELETE FROM baseline_pin WHERE id = $1", id);
    return pin;
  });
}

StatusOr<BaselinePage> PgStore::ListBaselines(const BaselineFilter& filter) {
  const int page_size = EffectivePageSize(filter.page_size, kBaselinePageSizes);
  FilterFingerprint fingerprint;
  fingerprint.Add("baselines").Add(filter.series_id).Add(filter.run_id);
  int64_t before_id = 0;
  if (!filter.page_token.empty()) {
    ASSIGN_OR_RETURN(std::vector<std::string> position,
                     DecodePageToken(filter.page_token, fingerprint, 1));
    ASSIGN_OR_RETURN(before_id, PositiveIdFromPart(position[0]));
  }
  return Run<BaselinePage>("ListBaselines", [&](pqxx::work& tx) -> StatusOr<BaselinePage> {
    pqxx::result r = tx.exec_params(
        "SELECT " + PinColumns() +
            " FROM baseline_pin p"
            " WHERE ($1::text = '' OR p.series_id = $1"
            "        OR (p.series_id = '' AND EXISTS (SELECT 1 FROM baseline_pin_run pr"
            "            JOIN measurement m ON m.run_id = pr.run_id"
            "            WHERE pr.pin_id = p.id AND m.series_id = $1)))"
            "   AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM baseline_pin_run pr"
            "        WHERE pr.pin_id = p.id AND pr.run_id = $2))"
            "   AND ($3::bigint = 0 OR p.id < $3)"
            " ORDER BY p.id DESC LIMIT $4",
        filter.series_id, filter.run_id, before_id, page_size + 1);
    BaselinePage page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      page.pins.push_back(PinFromRow(r[i]));
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token = EncodePageToken({std::to_string(page.pins.back().id())}, fingerprint);
    }
    return page;
  });
}

}  // namespace warpwatch::server::detail
