// File: server/store/detail/measurement_row.cc
#include "server/store/detail/measurement_row.h"

#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {
namespace {

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

std::string DoubleText(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

}  // namespace

std::string SeriesId(const std::string& case_canonical, const std::string& device_model) {
  return case_canonical + "@" + device_model;
}

StatusOr<bool> InsertMeasurement(pqxx::work& tx, int64_t run_id, const std::string& series_id,
                                 const v1::Measurement& m) {
  v1::Measurement doc = m;
  doc.set_run_id(run_id);
  doc.set_series_id(series_id);
  ASSIGN_OR_RETURN(std::string doc_json, MessageToJson(doc));

  nlohmann::json params = nlohmann::json::object();
  for (const auto& [k, v] : m.case_().params()) params[k] = v;
  nlohmann::json counters = nlohmann::json::object();
  for (const auto& [k, v] : m.counters()) counters[k] = v;
  const std::vector<double> samples(m.samples_seconds().begin(), m.samples_seconds().end());
  const std::vector<double> clocks(m.sample_sm_clock_mhz().begin(), m.sample_sm_clock_mhz().end());
  const std::vector<bool> throttled(m.sample_throttled().begin(), m.sample_throttled().end());
  const v1::SampleStats& st = m.stats();
  const v1::Occupancy& oc = m.occupancy();
  // NULL when achieved occupancy was not measured.
  const std::string achieved_text = DoubleText(oc.achieved());
  const char* achieved = oc.has_achieved() ? achieved_text.c_str() : nullptr;
  const int64_t measured_us = m.has_measured_at() ? MicrosFromTimestamp(m.measured_at()) : 0;

  pqxx::result r = tx.exec_params(
      "INSERT INTO measurement (run_id, case_canonical, family, variant, params, series_id,"
      "  kernel_name, status, error, samples_seconds, sample_sm_clock_mhz, sample_throttled,"
      "  throttled_fraction, median_seconds, mean_seconds, min_seconds, max_seconds,"
      "  stddev_seconds, p10_seconds, p90_seconds, rel_stderr, median_sm_clock_mhz, bytes, flops,"
      "  gbps, gflops, pct_of_peak_bandwidth, block_size, grid_size, registers_per_thread,"
      "  static_shared_bytes, dynamic_shared_bytes, local_bytes_per_thread,"
      "  max_threads_per_block, active_blocks_per_sm, theoretical_occupancy, occupancy_limiter,"
      "  achieved_occupancy, counters, counters_note, verified, max_error, l2_flushed,"
      "  stop_reason, measured_at, doc)"
      " VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10::double precision[],"
      "  $11::double precision[], $12::boolean[], $13, $14, $15, $16, $17, $18, $19, $20, $21,"
      "  $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37,"
      "  $38::double precision, $39::jsonb, $40, $41, $42, $43, $44,"
      "  CASE WHEN $45::bigint = 0 THEN NULL"
      "       ELSE 'epoch'::timestamptz + $45::bigint * interval '1 microsecond' END,"
      "  $46::jsonb)"
      " ON CONFLICT (run_id, case_canonical) DO NOTHING RETURNING id",
      run_id, m.case_().canonical(), m.case_().family(), m.case_().variant(), params.dump(),
      series_id, m.kernel_name(), PointStatusName(m.status()), m.error(),
      DoubleArrayLiteral(samples), DoubleArrayLiteral(clocks), BoolArrayLiteral(throttled),
      m.throttled_fraction(), st.median(), st.mean(), st.min(), st.max(), st.stddev(), st.p10(),
      st.p90(), st.rel_stderr(), m.median_sm_clock_mhz(), m.bytes(), m.flops(), m.gbps(),
      m.gflops(), m.pct_of_peak_bandwidth(), oc.block_size(), oc.grid_size(),
      oc.registers_per_thread(), oc.static_shared_bytes(), oc.dynamic_shared_bytes(),
      oc.local_bytes_per_thread(), oc.max_threads_per_block(), oc.active_blocks_per_sm(),
      oc.theoretical(), LimiterName(oc.limiter()), achieved,
      counters.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), m.counters_note(),
      m.verified(), m.max_error(), m.l2_flushed(), m.stop_reason(), measured_us, doc_json);
  return !r.empty();
}

}  // namespace warpwatch::server::detail
