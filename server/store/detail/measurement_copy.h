// File: server/store/detail/measurement_copy.h
// Measurement ingest by binary COPY: the batch's rows go to the server as binary values (no JSON
// to lex, no sample text to parse on either side), duplicates dropped before the COPY.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COPY_H_
#define WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COPY_H_

#include <pqxx/transaction>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detail {

// The binary COPY stream of `batch`'s rows for run `run_id` (the column list of
// kCopyMeasurementColumns), every column as InsertMeasurements (measurement_row.h) stores it;
// series ids from `device_model` and `settings_key`, device_uuid the run's. Pure (no database).
StatusOr<std::string> MeasurementCopyStream(int64_t run_id, const std::string& device_model,
                                            const std::string& device_uuid,
                                            const std::string& settings_key,
                                            const std::vector<const v1::Measurement*>& batch);

// Same contract as InsertMeasurements (measurement_row.h): stores `batch` in run `run_id`,
// idempotent on (run, case canonical), returns how many rows were inserted. One query reads the
// run's device and which of the batch's cases are stored already; the rest (first of each case in
// the batch) go in one binary COPY. Precondition: the caller holds run `run_id`'s row lock FOR NO
// KEY UPDATE (or created the run in `tx`), so no other upload of the run commits in between: COPY
// has no ON CONFLICT. NOT_FOUND when the run does not exist.
StatusOr<int> CopyMeasurements(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                               const std::string& settings_key,
                               const std::vector<v1::Measurement>& batch);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_MEASUREMENT_COPY_H_
