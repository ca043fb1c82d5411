// File: server/service/fleet_service.h
// FleetService over the Store: the worker fleet as operators see it (`warpwatch workers`).
#ifndef WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_
#define WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_

#include <chrono>

#include "server/auth/authorizer.h"
#include "server/database/database.h"
#include "warpwatch/v1/fleet.grpc.pb.h"

namespace warpwatch::server {

// A worker is ONLINE while its last heartbeat is at most this many intervals old.
inline constexpr int kHeartbeatsBeforeOffline = 3;

// Thread-safe. `database` and `authorizer` must outlive the service.
class FleetServiceImpl final : public v1::FleetService::Service {
 public:
  FleetServiceImpl(Database* database, const auth::Authorizer* authorizer,
                   std::chrono::milliseconds heartbeat_interval);

  // A page of workers with their GPUs, state, running job per GPU and last heartbeat;
  // INVALID_ARGUMENT for an unknown state in the filter, a negative page_size or a bad token.
  grpc::Status ListWorkers(grpc::ServerContext* context, const v1::ListWorkersRequest* request,
                           v1::ListWorkersResponse* response) override;

 private:
  Database* database_;
  const auth::Authorizer* authorizer_;
  const std::chrono::milliseconds heartbeat_interval_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_FLEET_SERVICE_H_
