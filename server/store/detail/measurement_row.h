// File: server/store/detail/measurement_row.h
// v1::Measurement <-> measurement table rows. Each sample array lives once, in its own column
// (samples_seconds, sample_sm_clock_mhz, sample_throttled, sample_kernel_seconds, sample_group);
// `doc_pb` keeps every other field of the proto (kernels, counters, notes ...), so a field added
// to Measurement is stored without a schema change. A batch is written by one statement. Past the
// raw-sample window doc_pb is slim (measurement_slim.h) and readers rebuild it from the columns.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_

#include <pqxx/result>
#include <pqxx/row>
#include <pqxx/transaction>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// Column text of a point status ("OK", "FAILED", "SKIPPED", "UNSPECIFIED") and of an occupancy
// limiter ("WARPS" ... "UNSPECIFIED"), as the measurement table's CHECKs and readers expect.
std::string PointStatusName(v1::PointStatus s);
std::string LimiterName(v1::OccupancyLimiter l);

// doc_pb of `m`: the proto without its sample arrays, run_id and series_id set, in binary form.
StatusOr<std::string> MeasurementDocument(int64_t run_id, const std::string& series_id,
                                          const v1::Measurement& m);
// The params and counters columns (jsonb) as JSON text; a non-finite counter is the string
// "NaN", "Infinity" or "-Infinity".
std::string ParamsJson(const v1::Measurement& m);
std::string CountersJson(const v1::Measurement& m);

// One element of the JSON array InsertMeasurements hands to json_to_recordset: every column of the
// row for `m`, its sample arrays as PostgreSQL array literals and the rest of the proto (run_id and
// series_id set, sample arrays cleared) as the hex of its binary form. Pure (no database): the
// upload fuzzer (tests/fuzz) checks it on any measurement a worker may send.
StatusOr<std::string> MeasurementRecord(int64_t run_id, const std::string& series_id,
                                        const v1::Measurement& m);

// Inserts `batch` into run `run_id` in one INSERT ... SELECT FROM json_to_recordset(...)
// ON CONFLICT (run_id, case_canonical) DO NOTHING: every field goes into its column, the rest of
// the proto (run_id and series_id set, sample arrays cleared), in its binary form, into `doc_pb`
// (`doc`, its JSON, stays NULL on rows stored since migration 0010). Returns how many rows
// were inserted; the others (already stored, or repeated in the batch) are duplicates. Each row's
// series_id is series::SeriesId(case, device_model, settings_key): `settings_key` is the run's
// series::SettingsKey (its job's, or the uploaded run's spec's, measurement settings).
// Precondition: every m.case_().canonical() is non-empty.
StatusOr<int> InsertMeasurements(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                                 const std::string& settings_key,
                                 const std::vector<v1::Measurement>& batch);

// The select list MeasurementFromRow reads, for the measurement table aliased `m`: the document
// (binary, and the JSON of rows stored before migration 0010), the summary columns a slim
// document is rebuilt from (SummaryColumns(), measurement_columns.h), then, when `with_samples`,
// the five sample arrays.
std::string MeasurementColumns(bool with_samples);

// Decodes a row selected with MeasurementColumns(with_samples) (from column 0): the whole
// measurement as it was uploaded (run_id and series_id set), a slim row's rebuilt from its columns
// and its slim document. Without samples (and on a row past the raw-sample window) the per-sample
// arrays stay empty.
StatusOr<v1::Measurement> MeasurementFromRow(const pqxx::row& row, bool with_samples);

// The slim document (measurement_slim.h) of a row selected with MeasurementColumns(false) (from
// column 0): its whole measurement, rebuilt if slim already, slimmed against its columns.
StatusOr<std::string> SlimDocumentOfRow(const pqxx::row& row);

// Decodes the first `count` rows of `rows` (selected with MeasurementColumns(with_samples)), in
// order. Same result as MeasurementFromRow on each; the JSON documents of older rows are parsed
// as one array in one call (protobuf's JSON parser spends most of a small document's time setting
// itself up).
StatusOr<std::vector<v1::Measurement>> MeasurementsFromRows(const pqxx::result& rows,
                                                            size_t count, bool with_samples);

// The measurements of run `run_id` as they were uploaded (with run_id and series_id set), in
// insertion order.
StatusOr<std::vector<v1::Measurement>> SelectMeasurements(pqxx::work& tx, int64_t run_id);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_
