// File: server/health/health_checker.h
// Keeps the standard gRPC health service truthful: a background thread probes the database
// (Database::Probe: migrations when still pending, then a ping) every interval and reports
// SERVING only while the probe succeeds, for "" and for each warpwatch service name.
#ifndef WARPWATCH_SERVER_HEALTH_HEALTH_CHECKER_H_
#define WARPWATCH_SERVER_HEALTH_HEALTH_CHECKER_H_

#include <grpcpp/health_check_service_interface.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/database/database.h"

namespace warpwatch::server {

// Service names whose health follows the database ("" is the server as a whole).
const std::vector<std::string>& HealthServiceNames();

class HealthChecker {
 public:
  // Called after each probe with its result (metrics hook); may be empty.
  using Observer = std::function<void(bool serving)>;

  // `database` and `health` (from grpc::Server::GetHealthCheckService()) must outlive the checker.
  HealthChecker(Database* database, grpc::HealthCheckServiceInterface* health,
                std::chrono::milliseconds interval, Observer observer);
  // Stops the thread.
  ~HealthChecker();
  HealthChecker(const HealthChecker&) = delete;
  HealthChecker& operator=(const HealthChecker&) = delete;

  // Runs one probe now (on the calling thread) and publishes it, then starts the periodic thread.
  void Start();
  // Stops the thread and waits for it; idempotent. Does not change the published status.
  void Stop();

 private:
  void ProbeOnce();
  void Loop();

  Database* database_;
  grpc::HealthCheckServiceInterface* health_;
  std::chrono::milliseconds interval_;
  Observer observer_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;          // guarded by mu_
  bool last_serving_ = false;  // touched by the probing thread only (Start, then Loop)
  bool published_ = false;     // same
  std::thread thread_;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_HEALTH_HEALTH_CHECKER_H_
