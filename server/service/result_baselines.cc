// File: server/service/result_baselines.cc
// ResultService's pinned-baseline methods (baseline.proto): PinBaseline and UnpinBaseline for
// submitters and admins, ListBaselines for readers (server/auth/role.cc). The pin's author is the
// caller's principal, never a request field; a submitter unpins only its own pins.
#include <spdlog/spdlog.h>

#include <string_view>

#include "server/auth/ownership.h"
#include "server/detect/detection_config.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/result_service.h"
#include "server/validation/detail/field_rules.h"
#include "server/validation/request_validator.h"

namespace warpwatch::server {
namespace {

using validation::detail::CheckLength;

constexpr std::string_view kPinBaseline = "/warpwatch.v1.ResultService/PinBaseline";
constexpr std::string_view kUnpinBaseline = "/warpwatch.v1.ResultService/UnpinBaseline";
constexpr std::string_view kListBaselines = "/warpwatch.v1.ResultService/ListBaselines";

constexpr int kMaxPinRuns = 64;  // a schedule run of a large fleet still fits
constexpr size_t kMaxPinNoteLength = 4096;
constexpr size_t kMaxSeriesIdLength = 1024;

StatusOr<BaselinePinRequest> ToPinRequest(const v1::PinBaselineRequest& request,
                                          const std::string& principal) {
  if (request.schedule_run_id() < 0) return InvalidArgumentError("schedule_run_id: negative");
  if (request.run_ids().empty() && request.schedule_run_id() == 0) {
    return InvalidArgumentError("run_ids: at least one run, or a schedule_run_id");
  }
  if (request.run_ids_size() > kMaxPinRuns) {
    return InvalidArgumentError("run_ids: at most " + std::to_string(kMaxPinRuns) + " runs");
  }
  BaselinePinRequest pin;
  for (int64_t id : request.run_ids()) {
    if (id <= 0) return InvalidArgumentError("run_ids: " + std::to_string(id) + " is not a run id");
    pin.run_ids.push_back(id);
  }
  RETURN_IF_ERROR(CheckLength(request.series_id(), kMaxSeriesIdLength, "series_id"));
  if (!request.series_id().empty() && request.series_id().find('@') == std::string::npos) {
    return InvalidArgumentError("series_id: \"" + request.series_id() +
                                "\" is not a series id (<case canonical>@<GPU model>)");
  }
  RETURN_IF_ERROR(CheckLength(request.note(), kMaxPinNoteLength, "note"));
  pin.schedule_run_id = request.schedule_run_id();
  pin.series_id = request.series_id();
  pin.note = request.note();
  pin.pinned_by = principal;
  return pin;
}

StatusOr<BaselineFilter> ToBaselineFilter(const v1::ListBaselinesRequest& request) {
  if (request.page_size() < 0) {
    return InvalidArgumentError("page_size: negative (" + std::to_string(request.page_size()) +
                                "); 0 means the default");
  }
  RETURN_IF_ERROR(CheckLength(request.page_token(), validation::kMaxPageTokenLength, "page_token"));
  RETURN_IF_ERROR(CheckLength(request.series_id(), kMaxSeriesIdLength, "series_id"));
  if (request.run_id() < 0) return InvalidArgumentError("run_id: negative");
  BaselineFilter filter;
  filter.series_id = request.series_id();
  filter.run_id = request.run_id();
  filter.page_size = request.page_size();
  filter.page_token = request.page_token();
  return filter;
}

}  // namespace

grpc::Status ResultServiceImpl::PinBaseline(grpc::ServerContext* context,
                                            const v1::PinBaselineRequest* request,
                                            v1::BaselinePin* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kPinBaseline, [&](const auth::Principal& caller) -> Status {
        ASSIGN_OR_RETURN(BaselinePinRequest pin, ToPinRequest(*request, caller.name));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        // The detector's own goodness bound: a run it would not use is refused here.
        ASSIGN_OR_RETURN(*response,
                         store->PinBaseline(pin, detect::DetectionConfig().max_throttled_fraction));
        spdlog::info("msg=\"baseline pinned\" pin_id={} runs={} series=\"{}\" by={}",
                     response->id(), response->run_ids_size(), response->series_id(), caller.name);
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::UnpinBaseline(grpc::ServerContext* context,
                                              const v1::UnpinBaselineRequest* request,
                                              v1::BaselinePin* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kUnpinBaseline, [&](const auth::Principal& caller) -> Status {
        if (request->id() <= 0) return InvalidArgumentError("id: must be positive");
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(*response,
                         store->UnpinBaseline(request->id(), [&](const v1::BaselinePin& pin) {
                           return auth::CheckCreator(caller, pin.pinned_by(),
                                                     "baseline pin " + std::to_string(pin.id()));
                         }));
        spdlog::info("msg=\"baseline unpinned\" pin_id={} by={}", response->id(), caller.name);
        return OkStatus();
      });
}

grpc::Status ResultServiceImpl::ListBaselines(grpc::ServerContext* context,
                                              const v1::ListBaselinesRequest* request,
                                              v1::ListBaselinesResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListBaselines, [&](const auth::Principal&) -> Status {
        ASSIGN_OR_RETURN(BaselineFilter filter, ToBaselineFilter(*request));
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(BaselinePage page, store->ListBaselines(filter));
        for (v1::BaselinePin& pin : page.pins) *response->add_pins() = std::move(pin);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

}  // namespace warpwatch::server
