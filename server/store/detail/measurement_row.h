// File: server/store/detail/measurement_row.h
// v1::Measurement -> a measurement table row.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_
#define WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_

#include <pqxx/transaction>
#include <string>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// series_id of a case on a GPU model: "<canonical>@<device model>".
std::string SeriesId(const std::string& case_canonical, const std::string& device_model);

// INSERT ... ON CONFLICT (run_id, case_canonical) DO NOTHING. Every Measurement field goes into
// its column; the full proto (with run_id and series_id set) into `doc`. Returns true when the
// row was inserted, false when the case was already stored for this run.
// Precondition: m.case_().canonical() is not empty.
StatusOr<bool> InsertMeasurement(pqxx::work& tx, int64_t run_id, const std::string& series_id,
                                 const v1::Measurement& m);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_ROW_H_
