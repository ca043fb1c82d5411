// File: server/store/detail/measurement_copy.cc
#include "server/store/detail/measurement_copy.h"

#include <pqxx/pqxx>
#include <set>

#include "common/series/comparable_series.h"
#include "server/store/detail/conversions.h"
#include "server/store/detail/copy_binary.h"
#include "server/store/detail/measurement_row.h"

namespace warpwatch::server::detail {
namespace {

// The COPY's columns, in the order MeasurementCopyStream writes them.
constexpr const char* kCopyStatement =
    "COPY measurement (run_id, case_canonical, family, variant, params, series_id, kernel_name,"
    " status, error, samples_seconds, sample_sm_clock_mhz, sample_throttled,"
    " sample_kernel_seconds, sample_group, throttled_fraction, median_seconds, mean_seconds,"
    " min_seconds, max_seconds, stddev_seconds, p10_seconds, p90_seconds, rel_stderr,"
    " median_sm_clock_mhz, bytes, flops, gbps, gflops, pct_of_peak_bandwidth, block_size,"
    " grid_size, registers_per_thread, static_shared_bytes, dynamic_shared_bytes,"
    " local_bytes_per_thread, max_threads_per_block, active_blocks_per_sm, theoretical_occupancy,"
    " occupancy_limiter, achieved_occupancy, counters, counters_note, verified, max_error,"
    " l2_flushed, stop_reason, measured_at, doc_pb, device_uuid) FROM STDIN (FORMAT binary)";
constexpr int16_t kCopyColumns = 49;

}  // namespace

StatusOr<std::string> MeasurementCopyStream(int64_t run_id, const std::string& device_model,
                                            const std::string& device_uuid,
                                            const std::string& settings_key,
                                            const std::vector<const v1::Measurement*>& batch) {
  CopyBinaryWriter w;
  for (const v1::Measurement* mp : batch) {
    const v1::Measurement& m = *mp;
    const std::string series_id =
        series::SeriesId(m.case_().canonical(), device_model, settings_key);
    ASSIGN_OR_RETURN(const std::string doc, MeasurementDocument(run_id, series_id, m));
    const v1::SampleStats& st = m.stats();
    const v1::Occupancy& oc = m.occupancy();
    w.BeginRow(kCopyColumns);
    w.Int8(run_id);
    w.Text(m.case_().canonical());
    w.Text(m.case_().family());
    w.Text(m.case_().variant());
    w.Jsonb(ParamsJson(m));
    w.Text(series_id);
    w.Text(m.kernel_name());
    w.Text(PointStatusName(m.status()));
    w.Text(m.error());
    w.Float8Array(m.samples_seconds());
    w.Float8Array(m.sample_sm_clock_mhz());
    w.BoolArray(m.sample_throttled());
    w.Float8Array(m.sample_kernel_seconds());
    w.Int4Array(m.sample_group());
    for (double v : {m.throttled_fraction(), st.median(), st.mean(), st.min(), st.max(),
                     st.stddev(), st.p10(), st.p90(), st.rel_stderr(), m.median_sm_clock_mhz(),
                     m.bytes(), m.flops(), m.gbps(), m.gflops(), m.pct_of_peak_bandwidth()}) {
      w.Float8(v);
    }
    w.Int4(oc.block_size());
    w.Int8(oc.grid_size());
    w.Int4(oc.registers_per_thread());
    w.Int8(oc.static_shared_bytes());
    w.Int8(oc.dynamic_shared_bytes());
    w.Int8(oc.local_bytes_per_thread());
    w.Int4(oc.max_threads_per_block());
    w.Int4(oc.active_blocks_per_sm());
    w.Float8(oc.theoretical());
    w.Text(LimiterName(oc.limiter()));
    if (oc.has_achieved()) {
      w.Float8(oc.achieved());
    } else {
      w.Null();  // not profiled
    }
    w.Jsonb(CountersJson(m));
    w.Text(m.counters_note());
    w.Bool(m.verified());
    w.Float8(m.max_error());
    w.Bool(m.l2_flushed());
    w.Text(m.stop_reason());
    if (m.has_measured_at()) {
      w.TimestamptzFromUnixMicros(MicrosFromTimestamp(m.measured_at()));
    } else {
      w.Null();
    }
    w.Text(doc);
    w.Text(device_uuid);
  }
  return w.Finish();
}

StatusOr<int> CopyMeasurements(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                               const std::string& settings_key,
                               const std::vector<v1::Measurement>& batch) {
  if (batch.empty()) return 0;
  std::vector<std::string> cases;
  cases.reserve(batch.size());
  for (const v1::Measurement& m : batch) cases.push_back(m.case_().canonical());
  // The run's device, and the batch's cases already stored (NULL when none is), in one round
  // trip: each case is one probe of the (run_id, case_canonical) key in the run's partition, so
  // a batch costs the same however many rows its run already holds. (A join of the run's rows
  // against the batch's cases read every stored row of the run, each batch: ingest slowed as
  // runs grew.)
  pqxx::result known = tx.exec_params(
      "SELECT r.device_uuid, k.case_canonical FROM run r LEFT JOIN ("
      "  SELECT m.case_canonical FROM unnest($2::text[]) AS c(case_canonical)"
      "  JOIN measurement m ON m.run_id = $1 AND m.case_canonical = c.case_canonical) k ON true"
      " WHERE r.id = $1",
      run_id, TextArrayLiteral(cases));
  if (known.empty()) return NotFoundError("run " + std::to_string(run_id) + " not found");
  const std::string device_uuid = known[0][0].as<std::string>();
  std::set<std::string> seen;
  for (const pqxx::row& row : known) {
    if (!row[1].is_null()) seen.insert(row[1].as<std::string>());
  }
  std::vector<const v1::Measurement*> fresh;
  for (const v1::Measurement& m : batch) {
    if (seen.insert(m.case_().canonical()).second) fresh.push_back(&m);
  }
  if (fresh.empty()) return 0;
  ASSIGN_OR_RETURN(const std::string stream,
                   MeasurementCopyStream(run_id, device_model, device_uuid, settings_key, fresh));
  return static_cast<int>(CopyIn(tx, kCopyStatement, stream));
}

}  // namespace warpwatch::server::detail
