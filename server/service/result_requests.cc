// File: server/service/result_requests.cc
#include "server/service/result_requests.h"

#include <google/protobuf/util/time_util.h>

#include <algorithm>

#include "common/catalog/plan.h"
#include "common/series/comparable_series.h"
#include "server/validation/detail/field_rules.h"
#include "server/validation/request_validator.h"

namespace warpwatch::server {
namespace {

using validation::detail::CheckLength;

constexpr size_t kMaxNameLength = 256;  // a glob, model, uuid, worker id or family

Status CheckPage(int32_t page_size, const std::string& page_token) {
  if (page_size < 0) {
    return InvalidArgumentError("page_size: negative (" + std::to_string(page_size) +
                                "); 0 means the default");
  }
  return CheckLength(page_token, validation::kMaxPageTokenLength, "page_token");
}

Status CheckRange(const v1::TimeRange& range, const std::string& field) {
  if (range.has_start() && range.has_end() &&
      google::protobuf::util::TimeUtil::TimestampToMicroseconds(range.start()) >=
          google::protobuf::util::TimeUtil::TimestampToMicroseconds(range.end())) {
    return InvalidArgumentError(field + ": start is not before end");
  }
  return OkStatus();
}

Status CheckNonNegative(int64_t id, const std::string& field) {
  if (id < 0) return InvalidArgumentError(field + ": negative");
  return OkStatus();
}

}  // namespace

StatusOr<RunFilter> ToRunFilter(const v1::ListRunsRequest& request) {
  RETURN_IF_ERROR(CheckPage(request.page_size(), request.page_token()));
  RETURN_IF_ERROR(CheckNonNegative(request.job_id(), "job_id"));
  RETURN_IF_ERROR(validation::detail::CheckLabels(request.labels(), "labels"));
  RETURN_IF_ERROR(CheckRange(request.started(), "started"));
  RETURN_IF_ERROR(CheckLength(request.device_uuid(), kMaxNameLength, "device_uuid"));
  RETURN_IF_ERROR(CheckLength(request.gpu_model(), kMaxNameLength, "gpu_model"));
  RETURN_IF_ERROR(CheckLength(request.worker_id(), kMaxNameLength, "worker_id"));
  RunFilter filter;
  filter.job_id = request.job_id();
  filter.device_uuid = request.device_uuid();
  filter.gpu_model = request.gpu_model();
  filter.worker_id = request.worker_id();
  filter.labels.insert(request.labels().begin(), request.labels().end());
  filter.started = request.started();
  filter.page_size = request.page_size();
  filter.page_token = request.page_token();
  return filter;
}

StatusOr<MeasurementQuery> ToMeasurementQuery(const v1::QueryMeasurementsRequest& request) {
  RETURN_IF_ERROR(CheckPage(request.page_size(), request.page_token()));
  RETURN_IF_ERROR(CheckNonNegative(request.run_id(), "run_id"));
  RETURN_IF_ERROR(CheckLength(request.family(), kMaxNameLength, "family"));
  RETURN_IF_ERROR(CheckLength(request.variant(), kMaxNameLength, "variant"));
  RETURN_IF_ERROR(CheckLength(request.series_id(), 4 * kMaxNameLength, "series_id"));
  for (const auto& [key, value] : request.params()) {
    if (key.empty()) return InvalidArgumentError("params: empty key");
    RETURN_IF_ERROR(CheckLength(key, kMaxNameLength, "params key"));
  }
  MeasurementQuery query;
  query.run_id = request.run_id();
  query.family_glob = request.family();
  query.variant_glob = request.variant();
  query.params.insert(request.params().begin(), request.params().end());
  query.series_id = request.series_id();
  query.include_samples = request.include_samples();
  query.page_size = request.page_size();
  query.page_token = request.page_token();
  return query;
}

StatusOr<SeriesQuery> ToSeriesQuery(const v1::GetSeriesRequest& request) {
  if (request.case_canonical().empty()) return InvalidArgumentError("case_canonical: empty");
  RETURN_IF_ERROR(CheckLength(request.case_canonical(), 4 * kMaxNameLength, "case_canonical"));
  StatusOr<catalog::Point> point = catalog::ParseCanonical(request.case_canonical());
  if (!point.ok()) {
    return InvalidArgumentError("case_canonical: \"" + request.case_canonical() +
                                "\" is not a case key (family/variant?axis=value&...): " +
                                point.status().message());
  }
  if (request.gpu_model().empty() && request.device_uuid().empty()) {
    return InvalidArgumentError("gpu_model or device_uuid: one is required");
  }
  RETURN_IF_ERROR(CheckLength(request.gpu_model(), kMaxNameLength, "gpu_model"));
  RETURN_IF_ERROR(CheckLength(request.device_uuid(), kMaxNameLength, "device_uuid"));
  RETURN_IF_ERROR(CheckRange(request.range(), "range"));
  if (request.limit() < 0) return InvalidArgumentError("limit: negative; 0 means the default");
  SeriesQuery query;
  query.case_canonical = request.case_canonical();
  query.gpu_model = request.gpu_model();
  query.device_uuid = request.device_uuid();
  query.settings_key = series::SettingsKey(request.measurement());
  query.range = request.range();
  query.limit =
      request.limit() == 0 ? kDefaultSeriesPoints : std::min(request.limit(), kMaxSeriesPoints);
  return query;
}

StatusOr<RegressionFilter> ToRegressionFilter(const v1::ListRegressionsRequest& request) {
  RETURN_IF_ERROR(CheckPage(request.page_size(), request.page_token()));
  RETURN_IF_ERROR(CheckNonNegative(request.run_id(), "run_id"));
  RETURN_IF_ERROR(CheckLength(request.gpu_model(), kMaxNameLength, "gpu_model"));
  RETURN_IF_ERROR(CheckLength(request.family(), kMaxNameLength, "family"));
  RETURN_IF_ERROR(CheckLength(request.device_uuid(), kMaxNameLength, "device_uuid"));
  RegressionFilter filter;
  for (int s : request.states()) {
    if (s == v1::REGRESSION_STATE_UNSPECIFIED || !v1::RegressionState_IsValid(s)) {
      return InvalidArgumentError("states: unknown regression state " + std::to_string(s));
    }
    filter.states.push_back(static_cast<v1::RegressionState>(s));
  }
  for (int k : request.kinds()) {
    if (k == v1::REGRESSION_KIND_UNSPECIFIED || !v1::RegressionKind_IsValid(k)) {
      return InvalidArgumentError("kinds: unknown regression kind " + std::to_string(k));
    }
    filter.kinds.push_back(static_cast<v1::RegressionKind>(k));
  }
  filter.gpu_model = request.gpu_model();
  filter.family = request.family();
  filter.device_uuid = request.device_uuid();
  filter.run_id = request.run_id();
  filter.page_size = request.page_size();
  filter.page_token = request.page_token();
  return filter;
}

Status ValidateUpdateRegression(const v1::UpdateRegressionRequest& request) {
  if (request.id() <= 0) return InvalidArgumentError("id: must be positive");
  return CheckLength(request.note(), kMaxRegressionNoteLength, "note");
}

Status ValidateCompareRuns(const v1::CompareRunsRequest& request) {
  if (request.base_run_id() <= 0) return InvalidArgumentError("base_run_id: must be positive");
  if (request.new_run_id() <= 0) return InvalidArgumentError("new_run_id: must be positive");
  return OkStatus();
}

}  // namespace warpwatch::server
