// File: server/store/detail/measurement_columns.h
// What a measurement row's summary columns say on their own, read back into a v1::Measurement:
// the fields a slim document (measurement_slim.h) leaves to the columns.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COLUMNS_H_
#define WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COLUMNS_H_

#include <google/protobuf/descriptor.h>

#include <pqxx/row>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// The select list, for the measurement table aliased `m`, of the kSummaryColumnCount columns
// MeasurementFromColumns reads, in its order.
std::string SummaryColumns();
inline constexpr int kSummaryColumnCount = 42;

// The Measurement that columns first .. first + kSummaryColumnCount - 1 of `row` (selected with
// SummaryColumns()) give: exactly the fields ColumnFields() lists, as InsertMeasurements and
// CopyMeasurements stored them (case, status, error, throttled_fraction, stats, clocks and
// throughput, occupancy, counters, verified, max_error, l2_flushed, stop_reason, measured_at,
// series_id, run_id, counters_note, kernel_name); every other field is unset. stats and occupancy
// are set only when a column of theirs is not its default; measured_at only when not NULL.
// INTERNAL when the params or counters JSON is not an object of numbers (or, for counters, of
// the strings "NaN", "Infinity", "-Infinity").
StatusOr<v1::Measurement> MeasurementFromColumns(const pqxx::row& row, int first);

// The v1::Measurement fields that columns hold, in field-number order (the ones
// MeasurementFromColumns sets). The sample arrays have columns too but are not listed: no
// document ever carries them.
const std::vector<const google::protobuf::FieldDescriptor*>& ColumnFields();

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COLUMNS_H_
