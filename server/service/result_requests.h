// File: server/service/result_requests.h
// ResultService requests -> store queries, validated at the RPC edge. Every error is
// INVALID_ARGUMENT naming the field ("page_size: negative", "case_canonical: ...").
#ifndef WARPWATCH_SERVER_SERVICE_RESULT_REQUESTS_H_
#define WARPWATCH_SERVER_SERVICE_RESULT_REQUESTS_H_

#include "common/status/status.h"
#include "server/store/store.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server {

inline constexpr int kDefaultSeriesPoints = 400;
inline constexpr int kMaxSeriesPoints = 5000;
inline constexpr size_t kMaxRegressionNoteLength = 4096;

// page_size >= 0 (a size above the maximum is clamped by the store: paging.h), job_id >= 0,
// labels well formed, started.start < started.end when both are set, bounded token.
StatusOr<RunFilter> ToRunFilter(const v1::ListRunsRequest& request);
// run_id >= 0, page_size >= 0, bounded globs, token and series id.
StatusOr<MeasurementQuery> ToMeasurementQuery(const v1::QueryMeasurementsRequest& request);
// case_canonical a well-formed canonical key (catalog::ParseCanonical), gpu_model or device_uuid
// set, limit >= 0 (0 = kDefaultSeriesPoints, above kMaxSeriesPoints clamped), range in order.
StatusOr<SeriesQuery> ToSeriesQuery(const v1::GetSeriesRequest& request);
// page_size >= 0, bounded token and strings, run_id >= 0.
StatusOr<RegressionFilter> ToRegressionFilter(const v1::ListRegressionsRequest& request);
// id > 0, note at most kMaxRegressionNoteLength bytes (the target state is checked by the store).
Status ValidateUpdateRegression(const v1::UpdateRegressionRequest& request);
// Both ids > 0.
Status ValidateCompareRuns(const v1::CompareRunsRequest& request);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_RESULT_REQUESTS_H_
