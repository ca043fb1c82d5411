// File: server/service/fleet_service.cc
#include "server/service/fleet_service.h"

#include <vector>

#include "server/service/detail/authorize_before_read.h"
#include "server/service/detail/authorized_call.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kListWorkers = "/warpwatch.v1.FleetService/ListWorkers";
constexpr size_t kMaxPageTokenLength = 1024;

}  // namespace

FleetServiceImpl::FleetServiceImpl(Database* database, const auth::Authorizer* authorizer,
                                   std::chrono::milliseconds heartbeat_interval,
                                   gpu_health::GpuHealthStore* health_store,
                                   gpu_health::HealthPolicy health_policy)
    : database_(database),
      authorizer_(authorizer),
      heartbeat_interval_(heartbeat_interval),
      health_store_(health_store),
      health_policy_(health_policy) {
  AuthorizeBeforeReading();
}

grpc::Status FleetServiceImpl::ListWorkers(grpc::ServerContext* context,
                                           const v1::ListWorkersRequest* request,
                                           v1::ListWorkersResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListWorkers, [&](const auth::Principal&) -> Status {
        WorkerFilter filter;
        for (int i = 0; i < request->states_size(); ++i) {
          const int state = request->states(i);
          if (state == v1::WORKER_STATE_UNSPECIFIED || !v1::WorkerState_IsValid(state)) {
            return InvalidArgumentError("states[" + std::to_string(i) + "]: unknown state " +
                                        std::to_string(state));
          }
          filter.states.push_back(static_cast<v1::WorkerState>(state));
        }
        // The paging policy of every List method (server/store/paging.h).
        if (request->page_size() < 0) return InvalidArgumentError("page_size: negative");
        if (request->page_token().size() > kMaxPageTokenLength) {
          return InvalidArgumentError("page_token: too long");
        }
        filter.page_size = request->page_size();
        filter.page_token = request->page_token();
        ASSIGN_OR_RETURN(Store * store, database_->ReadyStore());
        ASSIGN_OR_RETURN(
            WorkerPage page,
            store->ListWorkers(kHeartbeatsBeforeOffline * heartbeat_interval_, filter));
        for (v1::WorkerInfo& worker : page.workers) *response->add_workers() = std::move(worker);
        response->set_next_page_token(page.next_page_token);
        response->set_heartbeat_interval_seconds(static_cast<double>(heartbeat_interval_.count()) /
                                                 1000.0);
        return OkStatus();
      });
}

void FleetServiceImpl::AuthorizeBeforeReading() {
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.FleetService/ListWorkers"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.FleetService/ListWorkers", this,
                                                 &FleetServiceImpl::ListWorkers));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.FleetService/GetGpuHealth"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.FleetService/GetGpuHealth", this,
                                                 &FleetServiceImpl::GetGpuHealth));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.FleetService/ListGpuHealth"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.FleetService/ListGpuHealth", this,
                                                 &FleetServiceImpl::ListGpuHealth));
  MarkMethodStreamed(detail::MethodIndex("/warpwatch.v1.FleetService/MarkGpuHealth"),
                     detail::AuthorizeBeforeRead(*authorizer_, "/warpwatch.v1.FleetService/MarkGpuHealth", this,
                                                 &FleetServiceImpl::MarkGpuHealth));
}

}  // namespace warpwatch::server
