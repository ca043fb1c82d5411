// File: server/store/pg_store_history.cc
// History reads for ResultService: one run, runs by filters, measurements by filters (keyset
// paging on id with tokens bound to the filters).
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/page_token.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/run_row.h"

namespace warpwatch::server::detail {
namespace {

FilterFingerprint RunFilterFingerprint(const RunFilter& filter) {
  FilterFingerprint f;
  f.Add("runs").Add(filter.job_id).Add(filter.device_uuid).Add(filter.gpu_model);
  f.Add(filter.worker_id).Add(static_cast<int64_t>(filter.labels.size()));
  for (const auto& [key, value] : filter.labels) f.Add(key).Add(value);
  f.Add(filter.started.has_start() ? MicrosFromTimestamp(filter.started.start()) : -1);
  f.Add(filter.started.has_end() ? MicrosFromTimestamp(filter.started.end()) : -1);
  return f;
}

FilterFingerprint MeasurementQueryFingerprint(const MeasurementQuery& query) {
  FilterFingerprint f;
  f.Add("measurements").Add(query.run_id).Add(query.family_glob).Add(query.variant_glob);
  f.Add(static_cast<int64_t>(query.params.size()));
  for (const auto& [key, value] : query.params) f.Add(key).Add(value);
  f.Add(query.series_id).Add(query.include_samples ? 1 : 0);
  return f;
}

// The id after which a page starts (0 = the first page).
StatusOr<int64_t> PagePosition(const std::string& token, const FilterFingerprint& fingerprint) {
  if (token.empty()) return int64_t{0};
  ASSIGN_OR_RETURN(std::vector<std::string> position, DecodePageToken(token, fingerprint, 1));
  return PositiveIdFromPart(position[0]);
}

}  // namespace

StatusOr<v1::Run> PgStore::GetRun(int64_t run_id) {
  return Run<v1::Run>("GetRun", [&](pqxx::work& tx) -> StatusOr<v1::Run> {
    pqxx::result r =
        tx.exec_params("SELECT " + RunColumns() + " FROM run r WHERE r.id = $1", run_id);
    if (r.empty()) return NotFoundError("run " + std::to_string(run_id) + " not found");
    return RunFromRow(r[0]);
  });
}

StatusOr<RunPage> PgStore::ListRuns(const RunFilter& filter) {
  const int page_size = EffectivePageSize(filter.page_size, kRunPageSizes);
  const FilterFingerprint fingerprint = RunFilterFingerprint(filter);
  ASSIGN_OR_RETURN(const int64_t before_id, PagePosition(filter.page_token, fingerprint));
  const bool has_start = filter.started.has_start();
  const bool has_end = filter.started.has_end();
  const int64_t start_us = has_start ? MicrosFromTimestamp(filter.started.start()) : 0;
  const int64_t end_us = has_end ? MicrosFromTimestamp(filter.started.end()) : 0;
  const std::string labels = StringMapToJson(filter.labels);
  return Run<RunPage>("ListRuns", [&](pqxx::work& tx) -> StatusOr<RunPage> {
    pqxx::result r = tx.exec_params(
        "SELECT " + RunColumns() +
            " FROM run r"
            " WHERE ($1::bigint = 0 OR r.job_id = $1)"
            "   AND ($2::text = '' OR r.device_uuid = $2)"
            "   AND ($3::text = '' OR r.device_name = $3)"
            "   AND ($4::text = '' OR r.worker_id = $4)"
            "   AND r.labels @> $5::jsonb"
            "   AND (NOT $6::boolean"
            "        OR r.started_at >= 'epoch'::timestamptz + $7::bigint * interval '1 microsecond')"
            "   AND (NOT $8::boolean"
            "        OR r.started_at < 'epoch'::timestamptz + $9::bigint * interval '1 microsecond')"
            "   AND ($10::bigint = 0 OR r.id < $10::bigint)"
            " ORDER BY r.id DESC LIMIT $11",
        filter.job_id, filter.device_uuid, filter.gpu_model, filter.worker_id, labels, has_start,
        start_us, has_end, end_us, before_id, page_size + 1);
    RunPage page;
    for (size_t i = 0; i < r.size() && static_cast<int>(i) < page_size; ++i) {
      ASSIGN_OR_RETURN(v1::Run run, RunFromRow(r[i]));
      page.runs.push_back(std::move(run));
    }
    if (static_cast<int>(r.size()) > page_size) {
      page.next_page_token = EncodePageToken({std::to_string(page.runs.back().id())}, fingerprint);
    }
    return page;
  });
}

StatusOr<MeasurementPage> PgStore::QueryMeasurements(const MeasurementQuery& query) {
  const int page_size = EffectivePageSize(query.page_size, kMeasurementPageSizes);
  const FilterFingerprint fingerprint = MeasurementQueryFingerprint(query);
  ASSIGN_OR_RETURN(const int64_t after_id, PagePosition(query.page_token, fingerprint));
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [key, value] : query.params) params[key] = value;
  const std::string params_json = params.dump();
  return Run<MeasurementPage>(
      "QueryMeasurements", [&](pqxx::work& tx) -> StatusOr<MeasurementPage> {
        if (query.run_id != 0 &&
            tx.exec_params("SELECT 1 FROM run WHERE id = $1", query.run_id).empty()) {
          return NotFoundError("run " + std::to_string(query.run_id) + " not found");
        }
        pqxx::result r = tx.exec_params(
            "SELECT " + MeasurementColumns(query.include_samples) +
                ", m.device_uuid, m.id FROM measurement m"
                " WHERE ($1::bigint = 0 OR m.run_id = $1)"
                "   AND ($2::text = '' OR m.family LIKE ww_glob_to_like($2))"
                "   AND ($3::text = '' OR m.variant LIKE ww_glob_to_like($3))"
                "   AND m.params @> $4::jsonb"
                "   AND ($5::text = '' OR m.series_id = $5)"
                "   AND m.id > $6::bigint"
                " ORDER BY m.id LIMIT $7",
            query.run_id, query.family_glob, query.variant_glob, params_json, query.series_id,
            after_id, page_size + 1);
        MeasurementPage page;
        ASSIGN_OR_RETURN(page.measurements,
                         MeasurementsFromRows(r, static_cast<size_t>(page_size),
                                              query.include_samples));
        // Each point's series sensitivity on its GPU (series_noise, written by the analysis),
        // by the (series_id, device_uuid) the page's rows carry: series_noise alone, never a
        // second read of measurement, whose statement would be planned over every partition.
        std::vector<std::string> series_ids;
        std::vector<std::string> device_uuids;
        std::vector<size_t> positions;  // page index of each key
        for (size_t i = 0; i < page.measurements.size(); ++i) {
          const pqxx::row row = r[static_cast<pqxx::result::size_type>(i)];
          const pqxx::field device = row[row.size() - 2];
          if (device.is_null()) continue;  // no GPU recorded: no device noise row can match
          series_ids.push_back(page.measurements[i].series_id());
          device_uuids.push_back(device.as<std::string>());
          positions.push_back(i);
        }
        if (!positions.empty()) {
          for (const pqxx::row& n : tx.exec_params(
                   "SELECT k.i, n.sigma_relative, n.min_detectable_change"
                   " FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(series_id,"
                   "  device_uuid, i)"
                   " JOIN series_noise n ON n.series_id = k.series_id"
                   "  AND n.device_uuid = k.device_uuid",
                   TextArrayLiteral(series_ids), TextArrayLiteral(device_uuids))) {
            v1::Measurement& m = page.measurements[positions.at(n[0].as<size_t>() - 1)];
            if (!n[1].is_null()) m.set_noise_sigma(n[1].as<double>());
            if (!n[2].is_null()) m.set_min_detectable_change(n[2].as<double>());
          }
        }
        if (static_cast<int>(r.size()) > page_size) {
          // m.id, after the measurement's columns, of the page's last row
          const pqxx::row last = r[static_cast<pqxx::result::size_type>(page_size - 1)];
          const int64_t last_id = last[last.size() - 1].as<int64_t>();
          page.next_page_token = EncodePageToken({std::to_string(last_id)}, fingerprint);
        }
        return page;
      });
}

}  // namespace warpwatch::server::detail
