// File: server/service/schedule_service.h
// ScheduleService over the ScheduleStore (issue 11): schedules' CRUD, TriggerSchedule and the
// runs of a schedule with their per-GPU jobs. created_by/updated_by/trigger actor are the
// caller's credential name. Errors inside are Status; grpc::Status only at this edge.
#ifndef WARPWATCH_SERVER_SERVICE_SCHEDULE_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_SCHEDULE_SERVICE_H_

#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/schedule/clock.h"
#include "server/schedule/schedule_store.h"
#include "server/service/detail/schedule_limits.h"
#include "server/store/paging.h"
#include "server/validation/job_spec_validator.h"
#include "warpwatch/v1/schedule.grpc.pb.h"

namespace warpwatch::server {

inline constexpr PageSizeLimits kSchedulePageSizes{50, 1000};
inline constexpr PageSizeLimits kScheduleRunPageSizes{20, 200};

// Thread-safe. `database` (for schema readiness), `store` and `authorizer` must outlive the
// service. `store` may be null (a server built over a non-PostgreSQL Store): every call then
// answers UNIMPLEMENTED. `clock` computes next due times (the scheduler's clock). `bounds` limits
// each principal's schedules and every cron's frequency (RESOURCE_EXHAUSTED naming the flag).
class ScheduleServiceImpl final : public v1::ScheduleService::Service {
 public:
  ScheduleServiceImpl(Database* database, schedule::ScheduleStore* store,
                      const auth::Authorizer* authorizer, validation::SpecLimits limits,
                      schedule::Clock clock, detail::ScheduleLimits bounds = {});

  grpc::Status CreateSchedule(grpc::ServerContext* context,
                              const v1::CreateScheduleRequest* request,
                              v1::Schedule* response) override;
  grpc::Status GetSchedule(grpc::ServerContext* context, const v1::GetScheduleRequest* request,
                           v1::Schedule* response) override;
  grpc::Status ListSchedules(grpc::ServerContext* context,
                             const v1::ListSchedulesRequest* request,
                             v1::ListSchedulesResponse* response) override;
  grpc::Status UpdateSchedule(grpc::ServerContext* context,
                              const v1::UpdateScheduleRequest* request,
                              v1::Schedule* response) override;
  grpc::Status DeleteSchedule(grpc::ServerContext* context,
                              const v1::DeleteScheduleRequest* request,
                              v1::DeleteScheduleResponse* response) override;
  grpc::Status TriggerSchedule(grpc::ServerContext* context,
                               const v1::TriggerScheduleRequest* request,
                               v1::ScheduleRun* response) override;
  grpc::Status ListScheduleRuns(grpc::ServerContext* context,
                                const v1::ListScheduleRunsRequest* request,
                                v1::ListScheduleRunsResponse* response) override;

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  // The store once the schema is migrated: UNAVAILABLE before, UNIMPLEMENTED without one.
  StatusOr<schedule::ScheduleStore*> Ready();

  Database* database_;
  schedule::ScheduleStore* store_;
  const auth::Authorizer* authorizer_;
  const validation::SpecLimits limits_;
  const schedule::Clock clock_;
  const detail::ScheduleLimits bounds_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_SCHEDULE_SERVICE_H_
