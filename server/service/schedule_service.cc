// File: server/service/schedule_service.cc
#include "server/service/schedule_service.h"

#include <spdlog/spdlog.h>

#include "server/auth/ownership.h"
#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/detail/schedule_requests.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kCreate = "/warpwatch.v1.ScheduleService/CreateSchedule";
constexpr std::string_view kGet = "/warpwatch.v1.ScheduleService/GetSchedule";
constexpr std::string_view kList = "/warpwatch.v1.ScheduleService/ListSchedules";
constexpr std::string_view kUpdate = "/warpwatch.v1.ScheduleService/UpdateSchedule";
constexpr std::string_view kDelete = "/warpwatch.v1.ScheduleService/DeleteSchedule";
constexpr std::string_view kTrigger = "/warpwatch.v1.ScheduleService/TriggerSchedule";
constexpr std::string_view kScheduleListRuns = "/warpwatch.v1.ScheduleService/ListScheduleRuns";
constexpr size_t kScheduleMaxPageTokenLength = 1024;

Status CheckPaging(int page_size, const std::string& page_token) {
  if (page_size < 0) return InvalidArgumentError("page_size: negative");
  if (page_token.size() > kScheduleMaxPageTokenLength)
    return InvalidArgumentError("page_token: too long");
  return OkStatus();
}

// Admins act on every schedule, submitters on the ones they created (server/auth/ownership.h).
schedule::ScheduleStore::Guard CreatorGuard(const auth::Principal& caller) {
  return [caller](const v1::Schedule& current) {
    return auth::CheckCreator(caller, current.created_by(), "schedule \"" + current.name() + "\"");
  };
}

}  // namespace

ScheduleServiceImpl::ScheduleServiceImpl(Database* database, schedule::ScheduleStore* store,
                                         const auth::Authorizer* authorizer,
                                         validation::SpecLimits limits, schedule::Clock clock,
                                         detail::ScheduleLimits bounds)
    : database_(database),
      store_(store),
      authorizer_(authorizer),
      limits_(limits),
      clock_(std::move(clock)),
      bounds_(bounds) {
  AuthorizeBeforeReading();
}

StatusOr<schedule::ScheduleStore*> ScheduleServiceImpl::Ready() {
  if (store_ == nullptr) return UnimplementedError("schedules need the PostgreSQL store");
  RETURN_IF_ERROR(database_->ReadyStore().status());
  return store_;
}

grpc::Status ScheduleServiceImpl::CreateSchedule(grpc::ServerContext* context,
                                                 const v1::CreateScheduleRequest* request,
                                                 v1::Schedule* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kCreate, [&](const auth::Principal& caller) -> Status {
        const absl::Time now = clock_();
        ASSIGN_OR_RETURN(schedule::ScheduleWrite write,
                         detail::BuildScheduleWrite(request->schedule(), limits_, now));
        RETURN_IF_ERROR(detail::CheckCronInterval(write.schedule, bounds_.min_interval, now));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        StatusOr<v1::Schedule> created =
            store->CreateSchedule(write, caller.name, bounds_.max_per_principal);
        if (created.status().code() == StatusCode::kResourceExhausted) {
          return ResourceExhaustedError(created.status().message() +
                                        " (--max-schedules-per-principal)");
        }
        ASSIGN_OR_RETURN(*response, std::move(created));
        spdlog::info("msg=\"schedule created\" schedule={} cron=\"{}\" time_zone={} by={}",
                     response->name(), response->cron(), response->time_zone(), caller.name);
        return OkStatus();
      });
}

grpc::Status ScheduleServiceImpl::GetSchedule(grpc::ServerContext* context,
                                              const v1::GetScheduleRequest* request,
                                              v1::Schedule* response) {
  return detail::AuthorizedCall(*authorizer_, *context, kGet,
                                [&](const auth::Principal&) -> Status {
                                  RETURN_IF_ERROR(
                                      detail::ValidateScheduleName(request->name(), "name"));
                                  ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
                                  ASSIGN_OR_RETURN(*response, store->GetSchedule(request->name()));
                                  return OkStatus();
                                });
}

grpc::Status ScheduleServiceImpl::ListSchedules(grpc::ServerContext* context,
                                                const v1::ListSchedulesRequest* request,
                                                v1::ListSchedulesResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kList, [&](const auth::Principal&) -> Status {
        RETURN_IF_ERROR(CheckPaging(request->page_size(), request->page_token()));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        ASSIGN_OR_RETURN(schedule::SchedulePage page,
                         store->ListSchedules(
                             EffectivePageSize(request->page_size(), kSchedulePageSizes),
                             request->page_token()));
        for (v1::Schedule& s : page.schedules) *response->add_schedules() = std::move(s);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

grpc::Status ScheduleServiceImpl::UpdateSchedule(grpc::ServerContext* context,
                                                 const v1::UpdateScheduleRequest* request,
                                                 v1::Schedule* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kUpdate, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateScheduleName(request->schedule().name(), "schedule.name"));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        const absl::Time now = clock_();
        auto edit = [&](const v1::Schedule& current) -> StatusOr<schedule::ScheduleWrite> {
          RETURN_IF_ERROR(auth::CheckCreator(caller, current.created_by(),
                                             "schedule \"" + current.name() + "\""));
          ASSIGN_OR_RETURN(v1::Schedule merged, detail::ApplyUpdateMask(
                                                    current, request->schedule(),
                                                    request->update_mask()));
          ASSIGN_OR_RETURN(schedule::ScheduleWrite write,
                           detail::BuildUpdateWrite(current, merged, limits_, now));
          // With the defaults applied (an empty time zone is UTC).
          if (write.schedule.cron() != current.cron() ||
              write.schedule.time_zone() != current.time_zone()) {
            RETURN_IF_ERROR(detail::CheckCronInterval(write.schedule, bounds_.min_interval, now));
          }
          return write;
        };
        ASSIGN_OR_RETURN(*response,
                         store->UpdateSchedule(request->schedule().name(), edit, caller.name));
        spdlog::info("msg=\"schedule updated\" schedule={} by={}", response->name(), caller.name);
        return OkStatus();
      });
}

grpc::Status ScheduleServiceImpl::DeleteSchedule(grpc::ServerContext* context,
                                                 const v1::DeleteScheduleRequest* request,
                                                 v1::DeleteScheduleResponse*) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kDelete, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateScheduleName(request->name(), "name"));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        RETURN_IF_ERROR(store->DeleteSchedule(request->name(), CreatorGuard(caller)));
        spdlog::info("msg=\"schedule deleted\" schedule={} by={}", request->name(), caller.name);
        return OkStatus();
      });
}

grpc::Status ScheduleServiceImpl::TriggerSchedule(grpc::ServerContext* context,
                                                  const v1::TriggerScheduleRequest* request,
                                                  v1::ScheduleRun* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kTrigger, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(detail::ValidateScheduleName(request->name(), "name"));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        ASSIGN_OR_RETURN(*response, store->TriggerSchedule(request->name(), caller.name,
                                                                CreatorGuard(caller)));
        spdlog::info("msg=\"schedule triggered\" schedule={} schedule_run_id={} jobs={} by={}",
                     request->name(), response->id(), response->jobs_size(), caller.name);
        return OkStatus();
      });
}

grpc::Status ScheduleServiceImpl::ListScheduleRuns(grpc::ServerContext* context,
                                                   const v1::ListScheduleRunsRequest* request,
                                                   v1::ListScheduleRunsResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kScheduleListRuns, [&](const auth::Principal&) -> Status {
        RETURN_IF_ERROR(detail::ValidateScheduleName(request->name(), "name"));
        RETURN_IF_ERROR(CheckPaging(request->page_size(), request->page_token()));
        ASSIGN_OR_RETURN(schedule::ScheduleStore * store, Ready());
        schedule::ScheduleRunQuery query;
        query.name = request->name();
        query.page_size = EffectivePageSize(request->page_size(), kScheduleRunPageSizes);
        query.page_token = request->page_token();
        if (!request->due_date().empty()) {
          ASSIGN_OR_RETURN(v1::Schedule s, store->GetSchedule(request->name()));
          absl::Time from, until;
          RETURN_IF_ERROR(detail::DayBounds(request->due_date(), s.time_zone(), &from, &until));
          query.due_from = from;
          query.due_until = until;
        }
        ASSIGN_OR_RETURN(schedule::ScheduleRunPage page, store->ListScheduleRuns(query));
        for (v1::ScheduleRun& run : page.runs) *response->add_runs() = std::move(run);
        response->set_next_page_token(page.next_page_token);
        return OkStatus();
      });
}

void ScheduleServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/CreateSchedule"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/CreateSchedule", this,
                                                 &ScheduleServiceImpl::CreateSchedule));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/GetSchedule"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/GetSchedule", this,
                                                 &ScheduleServiceImpl::GetSchedule));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/ListSchedules"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/ListSchedules", this,
                                                 &ScheduleServiceImpl::ListSchedules));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/UpdateSchedule"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/UpdateSchedule", this,
                                                 &ScheduleServiceImpl::UpdateSchedule));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/DeleteSchedule"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/DeleteSchedule", this,
                                                 &ScheduleServiceImpl::DeleteSchedule));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/TriggerSchedule"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/TriggerSchedule", this,
                                                 &ScheduleServiceImpl::TriggerSchedule));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.ScheduleService/ListScheduleRuns"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.ScheduleService/ListScheduleRuns", this,
                                                 &ScheduleServiceImpl::ListScheduleRuns));
}

}  // namespace warpwatch::server
