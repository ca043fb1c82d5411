// File: server/service/fleet_gpu_health.cc
// FleetService's GPU health methods: GetGpuHealth, ListGpuHealth, MarkGpuHealth.
#include <algorithm>

#include "server/gpu_health/fleet_verdicts.h"
#include "server/service/detail/authorized_call.h"
#include "server/service/fleet_service.h"

namespace warpwatch::server {
namespace {

constexpr std::string_view kGetGpuHealth = "/warpwatch.v1.FleetService/GetGpuHealth";
constexpr std::string_view kListGpuHealth = "/warpwatch.v1.FleetService/ListGpuHealth";
constexpr std::string_view kMarkGpuHealth = "/warpwatch.v1.FleetService/MarkGpuHealth";
constexpr size_t kHealthMaxNoteBytes = 2000;
constexpr size_t kMaxUuidBytes = 256;

Status CheckUuid(const std::string& uuid) {
  if (uuid.empty()) return InvalidArgumentError("device_uuid: required");
  if (uuid.size() > kMaxUuidBytes) return InvalidArgumentError("device_uuid: too long");
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<v1::GpuHealth>> FleetServiceImpl::Verdicts(const std::string& device_uuid) {
  if (health_store_ == nullptr) {
    return UnimplementedError("GPU health needs the PostgreSQL store");
  }
  // The schema (migration 0016) must be in place, as for every other method.
  RETURN_IF_ERROR(database_->ReadyStore().status());
  return gpu_health::FleetVerdicts(*health_store_, health_policy_, device_uuid,
                                   std::chrono::system_clock::now());
}

grpc::Status FleetServiceImpl::GetGpuHealth(grpc::ServerContext* context,
                                            const v1::GetGpuHealthRequest* request,
                                            v1::GpuHealth* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kGetGpuHealth, [&](const auth::Principal&) -> Status {
        RETURN_IF_ERROR(CheckUuid(request->device_uuid()));
        ASSIGN_OR_RETURN(std::vector<v1::GpuHealth> verdicts, Verdicts(request->device_uuid()));
        if (verdicts.empty()) {
          return NotFoundError("GPU " + request->device_uuid() +
                               " is neither registered by a worker nor has an analysed run in "
                               "the last " +
                               std::to_string(health_policy_.window.count() / 24) + " days");
        }
        *response = std::move(verdicts.front());
        return OkStatus();
      });
}

grpc::Status FleetServiceImpl::ListGpuHealth(grpc::ServerContext* context,
                                             const v1::ListGpuHealthRequest* request,
                                             v1::ListGpuHealthResponse* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kListGpuHealth, [&](const auth::Principal&) -> Status {
        std::vector<int> states;
        for (int i = 0; i < request->states_size(); ++i) {
          const int state = request->states(i);
          if (state == v1::GPU_HEALTH_STATE_UNSPECIFIED || !v1::GpuHealthState_IsValid(state)) {
            return InvalidArgumentError("states[" + std::to_string(i) + "]: unknown state " +
                                        std::to_string(state));
          }
          states.push_back(state);
        }
        ASSIGN_OR_RETURN(std::vector<v1::GpuHealth> verdicts, Verdicts(""));
        for (v1::GpuHealth& v : verdicts) {
          if (!request->hostname().empty() && v.hostname() != request->hostname()) continue;
          if (!request->gpu_model().empty() && v.gpu_model() != request->gpu_model()) continue;
          if (!states.empty() &&
              std::find(states.begin(), states.end(), v.state()) == states.end()) {
            continue;
          }
          *response->add_gpus() = std::move(v);
        }
        return OkStatus();
      });
}

grpc::Status FleetServiceImpl::MarkGpuHealth(grpc::ServerContext* context,
                                             const v1::MarkGpuHealthRequest* request,
                                             v1::GpuHealth* response) {
  return detail::AuthorizedCall(
      *authorizer_, *context, kMarkGpuHealth, [&](const auth::Principal& caller) -> Status {
        RETURN_IF_ERROR(CheckUuid(request->device_uuid()));
        const int action = request->action();
        if (action == v1::GPU_HEALTH_ACTION_UNSPECIFIED || !v1::GpuHealthAction_IsValid(action)) {
          return InvalidArgumentError("action: REPAIRED, EXCLUDED or INCLUDED");
        }
        if (request->note().empty()) {
          return InvalidArgumentError("note: required (what was done, or why)");
        }
        if (request->note().size() > kHealthMaxNoteBytes) {
          return InvalidArgumentError("note: over " + std::to_string(kHealthMaxNoteBytes) +
                                      " bytes");
        }
        if (health_store_ == nullptr) {
          return UnimplementedError("GPU health needs the PostgreSQL store");
        }
        RETURN_IF_ERROR(database_->ReadyStore().status());
        RETURN_IF_ERROR(health_store_->AddMark(request->device_uuid(), request->action(),
                                               caller.name, request->note()));
        ASSIGN_OR_RETURN(std::vector<v1::GpuHealth> verdicts, Verdicts(request->device_uuid()));
        if (verdicts.empty()) return NotFoundError("GPU " + request->device_uuid());
        *response = std::move(verdicts.front());
        return OkStatus();
      });
}

}  // namespace warpwatch::server
