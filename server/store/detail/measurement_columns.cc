// File: server/store/detail/measurement_columns.cc
#include "server/store/detail/measurement_columns.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"

namespace warpwatch::server::detail {
namespace {

// PostgreSQL's float8 text (shortest exact form since PostgreSQL 12; NaN, Infinity, -Infinity
// spelled out, which strtod reads too).
double Float8(const pqxx::field& f) { return std::strtod(f.c_str(), nullptr); }

v1::PointStatus PointStatusFromName(const std::string& name) {
  if (name == "OK") return v1::POINT_STATUS_OK;
  if (name == "FAILED") return v1::POINT_STATUS_FAILED;
  if (name == "SKIPPED") return v1::POINT_STATUS_SKIPPED;
  return v1::POINT_STATUS_UNSPECIFIED;
}

v1::OccupancyLimiter LimiterFromName(const std::string& name) {
  if (name == "WARPS") return v1::OCCUPANCY_LIMITER_WARPS;
  if (name == "REGISTERS") return v1::OCCUPANCY_LIMITER_REGISTERS;
  if (name == "SHARED_MEMORY") return v1::OCCUPANCY_LIMITER_SHARED_MEMORY;
  if (name == "BLOCKS") return v1::OCCUPANCY_LIMITER_BLOCKS;
  return v1::OCCUPANCY_LIMITER_UNSPECIFIED;
}

StatusOr<nlohmann::json> JsonObject(const pqxx::field& f, const char* column) {
  nlohmann::json parsed = nlohmann::json::parse(f.c_str(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) {
    return InternalError(std::string("measurement.") + column + ": not an object");
  }
  return parsed;
}

using M = v1::Measurement;
constexpr int kColumnFieldNumbers[] = {M::kCaseFieldNumber,
                                       M::kStatusFieldNumber,
                                       M::kErrorFieldNumber,
                                       M::kThrottledFractionFieldNumber,
                                       M::kStatsFieldNumber,
                                       M::kMedianSmClockMhzFieldNumber,
                                       M::kBytesFieldNumber,
                                       M::kFlopsFieldNumber,
                                       M::kGbpsFieldNumber,
                                       M::kGflopsFieldNumber,
                                       M::kPctOfPeakBandwidthFieldNumber,
                                       M::kOccupancyFieldNumber,
                                       M::kCountersFieldNumber,
                                       M::kVerifiedFieldNumber,
                                       M::kMaxErrorFieldNumber,
                                       M::kL2FlushedFieldNumber,
                                       M::kStopReasonFieldNumber,
                                       M::kMeasuredAtFieldNumber,
                                       M::kSeriesIdFieldNumber,
                                       M::kRunIdFieldNumber,
                                       M::kCountersNoteFieldNumber,
                                       M::kKernelNameFieldNumber};

}  // namespace

std::string SummaryColumns() {
  return "m.case_canonical, m.family, m.variant, m.params::text, m.series_id, m.run_id,"
         " m.kernel_name, m.status, m.error, m.throttled_fraction, m.median_seconds,"
         " m.mean_seconds, m.min_seconds, m.max_seconds, m.stddev_seconds, m.p10_seconds,"
         " m.p90_seconds, m.rel_stderr, m.median_sm_clock_mhz, m.bytes, m.flops, m.gbps, m.gflops,"
         " m.pct_of_peak_bandwidth, m.block_size, m.grid_size, m.registers_per_thread,"
         " m.static_shared_bytes, m.dynamic_shared_bytes, m.local_bytes_per_thread,"
         " m.max_threads_per_block, m.active_blocks_per_sm, m.theoretical_occupancy,"
         " m.occupancy_limiter, m.achieved_occupancy, m.counters::text, m.counters_note,"
         " m.verified, m.max_error, m.l2_flushed, m.stop_reason,"
         " (extract(epoch from m.measured_at) * 1000000)::bigint";
}

StatusOr<v1::Measurement> MeasurementFromColumns(const pqxx::row& row, int first) {
  auto col = [&](int i) { return row[first + i]; };
  v1::Measurement m;
  v1::CaseKey* c = m.mutable_case_();
  c->set_canonical(col(0).as<std::string>());
  c->set_family(col(1).as<std::string>());
  c->set_variant(col(2).as<std::string>());
  ASSIGN_OR_RETURN(const nlohmann::json params, JsonObject(col(3), "params"));
  for (const auto& [key, value] : params.items()) {
    if (!value.is_number_integer()) return InternalError("measurement.params: " + key);
    (*c->mutable_params())[key] = value.get<int64_t>();
  }
  m.set_series_id(col(4).as<std::string>());
  m.set_run_id(col(5).as<int64_t>());
  m.set_kernel_name(col(6).as<std::string>());
  m.set_status(PointStatusFromName(col(7).as<std::string>()));
  m.set_error(col(8).as<std::string>());
  m.set_throttled_fraction(Float8(col(9)));
  v1::SampleStats stats;
  stats.set_median(Float8(col(10)));
  stats.set_mean(Float8(col(11)));
  stats.set_min(Float8(col(12)));
  stats.set_max(Float8(col(13)));
  stats.set_stddev(Float8(col(14)));
  stats.set_p10(Float8(col(15)));
  stats.set_p90(Float8(col(16)));
  stats.set_rel_stderr(Float8(col(17)));
  if (stats.ByteSizeLong() > 0) *m.mutable_stats() = std::move(stats);
  m.set_median_sm_clock_mhz(Float8(col(18)));
  m.set_bytes(Float8(col(19)));
  m.set_flops(Float8(col(20)));
  m.set_gbps(Float8(col(21)));
  m.set_gflops(Float8(col(22)));
  m.set_pct_of_peak_bandwidth(Float8(col(23)));
  v1::Occupancy oc;
  oc.set_block_size(col(24).as<int32_t>());
  oc.set_grid_size(col(25).as<int64_t>());
  oc.set_registers_per_thread(col(26).as<int32_t>());
  oc.set_static_shared_bytes(col(27).as<int64_t>());
  oc.set_dynamic_shared_bytes(col(28).as<int64_t>());
  oc.set_local_bytes_per_thread(col(29).as<int64_t>());
  oc.set_max_threads_per_block(col(30).as<int32_t>());
  oc.set_active_blocks_per_sm(col(31).as<int32_t>());
  oc.set_theoretical(Float8(col(32)));
  oc.set_limiter(LimiterFromName(col(33).as<std::string>()));
  if (!col(34).is_null()) oc.set_achieved(Float8(col(34)));
  if (oc.ByteSizeLong() > 0) *m.mutable_occupancy() = std::move(oc);
  ASSIGN_OR_RETURN(const nlohmann::json counters, JsonObject(col(35), "counters"));
  for (const auto& [key, value] : counters.items()) {
    // CountersJson (measurement_row.h) spells a non-finite value as a string.
    if (value.is_string()) {
      (*m.mutable_counters())[key] = std::strtod(value.get<std::string>().c_str(), nullptr);
    } else if (value.is_number()) {
      (*m.mutable_counters())[key] = value.get<double>();
    } else {
      return InternalError("measurement.counters: " + key);
    }
  }
  m.set_counters_note(col(36).as<std::string>());
  m.set_verified(col(37).as<bool>());
  m.set_max_error(Float8(col(38)));
  m.set_l2_flushed(col(39).as<bool>());
  m.set_stop_reason(col(40).as<std::string>());
  if (!col(41).is_null()) *m.mutable_measured_at() = TimestampFromMicros(col(41).as<int64_t>());
  return m;
}

const std::vector<const google::protobuf::FieldDescriptor*>& ColumnFields() {
  static const auto* const kFields = [] {
    const google::protobuf::Descriptor* d = v1::Measurement::descriptor();
    auto* fields = new std::vector<const google::protobuf::FieldDescriptor*>;
    for (int number : kColumnFieldNumbers) {
      fields->push_back(d->FindFieldByNumber(number));
    }
    return fields;
  }();
  return *kFields;
}

}  // namespace warpwatch::server::detail
