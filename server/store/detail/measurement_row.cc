// File: server/store/detail/measurement_row.cc
#include "server/store/detail/measurement_row.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "common/series/comparable_series.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_columns.h"
#include "server/store/detail/measurement_slim.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::detail {
std::string PointStatusName(v1::PointStatus s) {
  switch (s) {
    case v1::POINT_STATUS_OK:
      return "OK";
    case v1::POINT_STATUS_FAILED:
      return "FAILED";
    case v1::POINT_STATUS_SKIPPED:
      return "SKIPPED";
    default:
      return "UNSPECIFIED";
  }
}

std::string LimiterName(v1::OccupancyLimiter l) {
  switch (l) {
    case v1::OCCUPANCY_LIMITER_WARPS:
      return "WARPS";
    case v1::OCCUPANCY_LIMITER_REGISTERS:
      return "REGISTERS";
    case v1::OCCUPANCY_LIMITER_SHARED_MEMORY:
      return "SHARED_MEMORY";
    case v1::OCCUPANCY_LIMITER_BLOCKS:
      return "BLOCKS";
    default:
      return "UNSPECIFIED";
  }
}

namespace {

// A double for json_to_recordset: a JSON number (printed exactly), or PostgreSQL's spelling of
// a non-finite value as a string (JSON has no NaN; float8 input reads the string).
nlohmann::json Double(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

// Sample arrays travel as PostgreSQL array literals inside the JSON (a text field cast in SQL):
// array_in reads them far faster than json_to_recordset converts thousands of JSON numbers.
template <typename Repeated>
std::string DoubleArray(const Repeated& values) {
  return DoubleArrayLiteral(std::vector<double>(values.begin(), values.end()));
}

// The columns of one row, the record type of json_to_recordset below (same order).
constexpr const char* kRecordColumns =
    "case_canonical text, family text, variant text, params jsonb, series_id text,"
    " kernel_name text, status text, error text, samples_seconds text,"
    " sample_sm_clock_mhz text, sample_throttled text, sample_kernel_seconds text,"
    " sample_group text,"
    " throttled_fraction double precision, median_seconds double precision,"
    " mean_seconds double precision, min_seconds double precision, max_seconds double precision,"
    " stddev_seconds double precision, p10_seconds double precision, p90_seconds double precision,"
    " rel_stderr double precision, median_sm_clock_mhz double precision, bytes double precision,"
    " flops double precision, gbps double precision, gflops double precision,"
    " pct_of_peak_bandwidth double precision, block_size integer, grid_size bigint,"
    " registers_per_thread integer, static_shared_bytes bigint, dynamic_shared_bytes bigint,"
    " local_bytes_per_thread bigint, max_threads_per_block integer, active_blocks_per_sm integer,"
    " theoretical_occupancy double precision, occupancy_limiter text,"
    " achieved_occupancy double precision, counters jsonb, counters_note text, verified boolean,"
    " max_error double precision, l2_flushed boolean, stop_reason text, measured_us bigint,"
    " doc_pb text";

constexpr const char* kInsertColumns =
    "run_id, case_canonical, family, variant, params, series_id, kernel_name, status, error,"
    " samples_seconds, sample_sm_clock_mhz, sample_throttled, sample_kernel_seconds, sample_group,"
    " throttled_fraction, median_seconds, mean_seconds, min_seconds, max_seconds, stddev_seconds,"
    " p10_seconds, p90_seconds, rel_stderr, median_sm_clock_mhz, bytes, flops, gbps, gflops,"
    " pct_of_peak_bandwidth, block_size, grid_size, registers_per_thread, static_shared_bytes,"
    " dynamic_shared_bytes, local_bytes_per_thread, max_threads_per_block, active_blocks_per_sm,"
    " theoretical_occupancy, occupancy_limiter, achieved_occupancy, counters, counters_note,"
    " verified, max_error, l2_flushed, stop_reason, measured_at, doc_pb, device_uuid";

// Elements of a one-dimensional PostgreSQL array literal ("{1.5,NaN}", "{t,f}"); no quoting
// (numbers and booleans only).
std::vector<std::string> ArrayElements(const std::string& literal) {
  std::vector<std::string> out;
  if (literal.size() < 2) return out;
  const std::string body = literal.substr(1, literal.size() - 2);
  size_t start = 0;
  while (start <= body.size() && !body.empty()) {
    const size_t comma = body.find(',', start);
    out.push_back(
        body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

double ParseDouble(const std::string& text) {
  if (text == "NaN") return std::nan("");
  if (text == "Infinity") return HUGE_VAL;
  if (text == "-Infinity") return -HUGE_VAL;
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace

StatusOr<std::string> MeasurementDocument(int64_t run_id, const std::string& series_id,
                                          const v1::Measurement& m) {
  // Everything but the sample arrays, which have columns of their own, as the proto's binary form
  // (migration 0010: a page of 100 decodes in well under a millisecond, where protobuf's JSON
  // parser needed ~20 ms for the same documents).
  v1::Measurement doc = m;
  doc.set_run_id(run_id);
  doc.set_series_id(series_id);
  doc.clear_samples_seconds();
  doc.clear_sample_sm_clock_mhz();
  doc.clear_sample_throttled();
  doc.clear_sample_kernel_seconds();
  doc.clear_sample_group();
  std::string doc_bytes;
  if (!doc.SerializeToString(&doc_bytes)) return InternalError("serializing a measurement failed");
  return doc_bytes;
}

std::string ParamsJson(const v1::Measurement& m) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : m.case_().params()) params[k] = v;
  return params.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string CountersJson(const v1::Measurement& m) {
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [k, v] : m.counters()) counters[k] = Double(v);
  return counters.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

StatusOr<std::string> MeasurementRecord(int64_t run_id, const std::string& series_id,
                                        const v1::Measurement& m) {
  ASSIGN_OR_RETURN(const std::string doc_bytes, MeasurementDocument(run_id, series_id, m));
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : m.case_().params()) params[k] = v;
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [k, v] : m.counters()) counters[k] = Double(v);
  const std::string throttled =
      BoolArrayLiteral(std::vector<bool>(m.sample_throttled().begin(), m.sample_throttled().end()));
  const std::string groups =
      BigintArrayLiteral(std::vector<int64_t>(m.sample_group().begin(), m.sample_group().end()));
  const v1::SampleStats& st = m.stats();
  const v1::Occupancy& oc = m.occupancy();

  nlohmann::json r;
  r["case_canonical"] = m.case_().canonical();
  r["family"] = m.case_().family();
  r["variant"] = m.case_().variant();
  r["params"] = std::move(params);
  r["series_id"] = series_id;
  r["kernel_name"] = m.kernel_name();
  r["status"] = PointStatusName(m.status());
  r["error"] = m.error();
  r["throttled_fraction"] = Double(m.throttled_fraction());
  r["median_seconds"] = Double(st.median());
  r["mean_seconds"] = Double(st.mean());
  r["min_seconds"] = Double(st.min());
  r["max_seconds"] = Double(st.max());
  r["stddev_seconds"] = Double(st.stddev());
  r["p10_seconds"] = Double(st.p10());
  r["p90_seconds"] = Double(st.p90());
  r["rel_stderr"] = Double(st.rel_stderr());
  r["median_sm_clock_mhz"] = Double(m.median_sm_clock_mhz());
  r["bytes"] = Double(m.bytes());
  r["flops"] = Double(m.flops());
  r["gbps"] = Double(m.gbps());
  r["gflops"] = Double(m.gflops());
  r["pct_of_peak_bandwidth"] = Double(m.pct_of_peak_bandwidth());
  r["block_size"] = oc.block_size();
  r["grid_size"] = oc.grid_size();
  r["registers_per_thread"] = oc.registers_per_thread();
  r["static_shared_bytes"] = oc.static_shared_bytes();
  r["dynamic_shared_bytes"] = oc.dynamic_shared_bytes();
  r["local_bytes_per_thread"] = oc.local_bytes_per_thread();
  r["max_threads_per_block"] = oc.max_threads_per_block();
  r["active_blocks_per_sm"] = oc.active_blocks_per_sm();
  r["theoretical_occupancy"] = Double(oc.theoretical());
  r["occupancy_limiter"] = LimiterName(oc.limiter());
  // NULL when achieved occupancy was not measured.
  r["achieved_occupancy"] = oc.has_achieved() ? Double(oc.achieved()) : nlohmann::json();
  r["counters"] = std::move(counters);
  r["counters_note"] = m.counters_note();
  r["verified"] = m.verified();
  r["max_error"] = Double(m.max_error());
  r["l2_flushed"] = m.l2_flushed();
  r["stop_reason"] = m.stop_reason();
  r["measured_us"] = m.has_measured_at() ? MicrosFromTimestamp(m.measured_at()) : 0;
  // The sample arrays and the document are spliced in as text, not built and escaped again by
  // the JSON library: array literals hold only digits, signs, '.', 'e', ',', braces and the
  // letters of NaN/Infinity/t/f, the document is hex; JSON escapes none of them.
  std::string text = r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  text.pop_back();  // the closing brace
  const std::pair<const char*, std::string> arrays[] = {
      {"samples_seconds", DoubleArray(m.samples_seconds())},
      {"sample_sm_clock_mhz", DoubleArray(m.sample_sm_clock_mhz())},
      {"sample_throttled", throttled},
      {"sample_kernel_seconds", DoubleArray(m.sample_kernel_seconds())},
      {"sample_group", groups}};
  for (const auto& [name, literal] : arrays) {
    text += ",\"";
    text += name;
    text += "\":\"";
    text += literal;
    text += '"';
  }
  text += ",\"doc_pb\":\"";
  text += HexEncode(doc_bytes);
  text += "\"}";
  return text;
}

StatusOr<int> InsertMeasurements(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                                 const std::string& settings_key,
                                 const std::vector<v1::Measurement>& batch) {
  if (batch.empty()) return 0;
  std::string records = "[";
  for (const v1::Measurement& m : batch) {
    ASSIGN_OR_RETURN(
        std::string record,
        MeasurementRecord(run_id,
                          series::SeriesId(m.case_().canonical(), device_model, settings_key), m));
    if (records.size() > 1) records += ',';
    records += record;
  }
  records += ']';
  // One round trip for the whole batch. Rows conflicting with stored ones, or with an earlier
  // row of the same batch, are skipped. device_uuid is the run's (migration 0010: GetSeries of
  // one device reads it from measurement_device_series_idx).
  pqxx::result r = tx.exec_params(
      std::string("INSERT INTO measurement (") + kInsertColumns +
          ") SELECT $1, case_canonical, family, variant, params, series_id, kernel_name, status,"
          " error, samples_seconds::double precision[], sample_sm_clock_mhz::double precision[],"
          " sample_throttled::boolean[], sample_kernel_seconds::double precision[],"
          " sample_group::integer[], throttled_fraction, median_seconds, mean_seconds, min_seconds,"
          " max_seconds, stddev_seconds, p10_seconds, p90_seconds, rel_stderr,"
          " median_sm_clock_mhz, bytes, flops, gbps, gflops, pct_of_peak_bandwidth, block_size,"
          " grid_size, registers_per_thread, static_shared_bytes, dynamic_shared_bytes,"
          " local_bytes_per_thread, max_threads_per_block, active_blocks_per_sm,"
          " theoretical_occupancy, occupancy_limiter, achieved_occupancy, counters, counters_note,"
          " verified, max_error, l2_flushed, stop_reason,"
          " CASE WHEN measured_us = 0 THEN NULL"
          "      ELSE 'epoch'::timestamptz + measured_us * interval '1 microsecond' END,"
          " decode(doc_pb, 'hex'), (SELECT device_uuid FROM run WHERE id = $1)"
          " FROM json_to_recordset($2::json) AS r(" +
          kRecordColumns + ") ON CONFLICT (run_id, case_canonical) DO NOTHING RETURNING id",
      run_id, records);
  return static_cast<int>(r.size());
}

std::string MeasurementColumns(bool with_samples) {
  std::string columns = "m.doc_pb, m.doc::text, " + SummaryColumns();
  if (with_samples) {
    columns +=
        ", m.samples_seconds::text, m.sample_sm_clock_mhz::text, m.sample_throttled::text,"
        " m.sample_kernel_seconds::text, m.sample_group::text";
  }
  return columns;
}

namespace {

constexpr int kFirstSummaryColumn = 2;  // after doc_pb and doc
constexpr int kFirstSampleColumn = kFirstSummaryColumn + kSummaryColumnCount;

// The sample arrays of a row selected with MeasurementColumns(true), into `m`.
void AddSamples(const pqxx::row& row, v1::Measurement& m) {
  const int c = kFirstSampleColumn;
  for (const std::string& v : ArrayElements(row[c].as<std::string>())) {
    m.add_samples_seconds(ParseDouble(v));
  }
  for (const std::string& v : ArrayElements(row[c + 1].as<std::string>())) {
    m.add_sample_sm_clock_mhz(ParseDouble(v));
  }
  for (const std::string& v : ArrayElements(row[c + 2].as<std::string>())) {
    m.add_sample_throttled(v == "t");
  }
  for (const std::string& v : ArrayElements(row[c + 3].as<std::string>())) {
    m.add_sample_kernel_seconds(ParseDouble(v));
  }
  for (const std::string& v : ArrayElements(row[c + 4].as<std::string>())) {
    m.add_sample_group(static_cast<int32_t>(std::strtol(v.c_str(), nullptr, 10)));
  }
}

// A row's binary document (doc_pb) into `m`, rebuilt from the row's columns when it is slim;
// false when the row has none (stored before migration 0010: its document is the JSON in `doc`).
StatusOr<bool> DecodeBinaryDoc(const pqxx::row& row, v1::Measurement& m) {
  if (row[0].is_null()) return false;
  const pqxx::binarystring bytes(row[0]);
  if (IsSlimDocument(bytes.get(), bytes.size())) {
    ASSIGN_OR_RETURN(v1::Measurement columns, MeasurementFromColumns(row, kFirstSummaryColumn));
    ASSIGN_OR_RETURN(m, MeasurementFromSlimDocument(bytes.get(), bytes.size(), std::move(columns)));
    return true;
  }
  if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return InternalError("decoding a stored measurement document failed");
  }
  return true;
}

}  // namespace

StatusOr<v1::Measurement> MeasurementFromRow(const pqxx::row& row, bool with_samples) {
  v1::Measurement m;
  ASSIGN_OR_RETURN(const bool binary, DecodeBinaryDoc(row, m));
  if (!binary) RETURN_IF_ERROR(MessageFromJson(row[1].as<std::string>(), &m));
  if (with_samples) AddSamples(row, m);
  return m;
}

StatusOr<std::string> SlimDocumentOfRow(const pqxx::row& row) {
  ASSIGN_OR_RETURN(const v1::Measurement full, MeasurementFromRow(row, false));
  ASSIGN_OR_RETURN(const v1::Measurement columns, MeasurementFromColumns(row, kFirstSummaryColumn));
  return SlimDocumentOf(full, columns);
}

StatusOr<std::vector<v1::Measurement>> MeasurementsFromRows(const pqxx::result& rows,
                                                            size_t count, bool with_samples) {
  count = std::min(count, static_cast<size_t>(rows.size()));
  std::vector<v1::Measurement> out(count);
  // Rows stored before migration 0010 carry JSON: those are parsed together, as one array in one
  // call, since protobuf's JSON parser spends most of a small document's time setting itself up.
  std::vector<size_t> json_rows;
  std::string json = "{\"measurements\":[";
  for (size_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(const bool binary, DecodeBinaryDoc(rows[i], out[i]));
    if (binary) continue;
    if (!json_rows.empty()) json += ',';
    json.append(rows[i][1].c_str(), rows[i][1].size());
    json_rows.push_back(i);
  }
  json += "]}";
  if (!json_rows.empty()) {
    v1::QueryMeasurementsResponse page;
    RETURN_IF_ERROR(MessageFromJson(json, &page));
    if (static_cast<size_t>(page.measurements_size()) != json_rows.size()) {
      return InternalError("decoding stored measurements: " + std::to_string(json_rows.size()) +
                           " documents gave " + std::to_string(page.measurements_size()));
    }
    for (size_t k = 0; k < json_rows.size(); ++k) {
      out[json_rows[k]].Swap(page.mutable_measurements(static_cast<int>(k)));
    }
  }
  if (with_samples) {
    for (size_t i = 0; i < count; ++i) AddSamples(rows[i], out[i]);
  }
  return out;
}

StatusOr<std::vector<v1::Measurement>> SelectMeasurements(pqxx::work& tx, int64_t run_id) {
  pqxx::result rows = tx.exec_params(
      "SELECT " + MeasurementColumns(true) + " FROM measurement m WHERE m.run_id = $1 ORDER BY m.id",
      run_id);
  return MeasurementsFromRows(rows, rows.size(), true);
}

}  // namespace warpwatch::server::detail
