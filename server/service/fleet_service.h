// File: server/service/fleet_service.h
// FleetService over the Store: the worker fleet as operators see it (`warpwatch workers`), and
// each GPU's health verdict over the GpuHealthStore (`warpwatch health`, fleet_gpu_health.cc).
#ifndef WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_

#include <chrono>
#include <string>
#include <vector>

#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "server/gpu_health/gpu_health_store.h"
#include "server/gpu_health/health_policy.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::server {

// A worker is ONLINE while its last heartbeat is at most this many intervals old.
inline constexpr int kHeartbeatsBeforeOffline = 3;

// Thread-safe. `database`, `authorizer` and `health_store` must outlive the service;
// `health_store` may be null (a server over a non-PostgreSQL store): the health methods then
// answer UNIMPLEMENTED.
class FleetServiceImpl final : public v1::FleetService::Service {
 public:
  FleetServiceImpl(Database* database, const auth::Authorizer* authorizer,
                   std::chrono::milliseconds heartbeat_interval,
                   gpu_health::GpuHealthStore* health_store = nullptr,
                   gpu_health::HealthPolicy health_policy = {});

  // A page of workers with their GPUs, state, running job per GPU and last heartbeat;
  // INVALID_ARGUMENT for an unknown state in the filter, a negative page_size or a bad token.
  grpc::Status ListWorkers(grpc::ServerContext* context, const v1::ListWorkersRequest* request,
                           v1::ListWorkersResponse* response) override;

  // The verdict of one GPU (docs/gpu_health.md). INVALID_ARGUMENT without device_uuid;
  // NOT_FOUND for a GPU neither registered nor with an analysed run in the window.
  grpc::Status GetGpuHealth(grpc::ServerContext* context, const v1::GetGpuHealthRequest* request,
                            v1::GpuHealth* response) override;
  // Every known GPU's verdict, filtered by hostname, model and states, by hostname then index.
  // INVALID_ARGUMENT for an unknown state in the filter.
  grpc::Status ListGpuHealth(grpc::ServerContext* context, const v1::ListGpuHealthRequest* request,
                             v1::ListGpuHealthResponse* response) override;
  // Admins: records REPAIRED, EXCLUDED or INCLUDED with the caller's principal and the note, and
  // answers the verdict after it. INVALID_ARGUMENT without device_uuid, action or note (or a
  // note over 2000 bytes); NOT_FOUND for an unknown GPU.
  grpc::Status MarkGpuHealth(grpc::ServerContext* context, const v1::MarkGpuHealthRequest* request,
                             v1::GpuHealth* response) override;

 private:
  // Serves every synchronous unary method through detail::AuthorizeBeforeRead (the caller is
  // authorized before its request is read); called once by the constructor.
  void AuthorizeBeforeReading();
  // The verdicts of `device_uuid` ("" = every GPU) now.
  StatusOr<std::vector<v1::GpuHealth>> Verdicts(const std::string& device_uuid);

  Database* database_;
  const auth::Authorizer* authorizer_;
  const std::chrono::milliseconds heartbeat_interval_;
  gpu_health::GpuHealthStore* health_store_;
  const gpu_health::HealthPolicy health_policy_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_
