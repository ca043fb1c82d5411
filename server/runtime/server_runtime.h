// File: server/runtime/server_runtime.h
// A running warpwatch-server: the gRPC server (JobService, WorkerService, ResultService,
// FleetService, ScheduleService, IncidentService, health, reflection) on its credentials, the
// /metrics exporter, the database handle and its health checker, the analysis loop
// (server/analysis) and the scheduler (server/schedule), wired from a ServerConfig. main.cc and the
// RPC tests start the server through this.
#ifndef WARPWATCH_SERVER_RUNTIME_SERVER_RUNTIME_H_
#define WARPWATCH_SERVER_RUNTIME_SERVER_RUNTIME_H_

#include <grpcpp/server.h>

#include <chrono>
#include <memory>
#include <vector>

#include "common/status/status.h"
#include "common/sync/shutdown_signal.h"
#include "server/analysis/analysis_loop.h"
#include "server/analysis/analysis_store.h"
#include "server/auth/authorizer.h"
#include "server/config/server_config.h"
#include "server/database/database.h"
#include "server/health/health_checker.h"
#include "server/incidents/incident_store.h"
#include "server/metrics/database_metrics.h"
#include "server/metrics/fleet_metrics.h"
#include "server/metrics/gauge_refresher.h"
#include "server/metrics/incident_metrics.h"
#include "server/metrics/gpu_health_metrics.h"
#include "server/metrics/job_metrics.h"
#include "server/metrics/regression_metrics.h"
#include "server/metrics/schedule_metrics.h"
#include "server/metrics/server_metrics.h"
#include "server/queue/job_reaper.h"
#include "server/service/fleet_service.h"
#include "server/service/incident_service.h"
#include "server/service/job_service.h"
#include "server/schedule/schedule_store.h"
#include "server/schedule/scheduler.h"
#include "server/service/result_service.h"
#include "server/service/schedule_service.h"
#include "server/service/worker_service.h"
#include "server/store/store.h"

namespace warpwatch::server {

class ServerRuntime {
 public:
  // Validates the config, reads the tokens and TLS files, opens the PostgreSQL store (lazily: a
  // database that is down now only makes health NOT_SERVING and RPCs UNAVAILABLE until it
  // returns; migrations run the first time it answers) and starts serving. Errors: the config's
  // INVALID_ARGUMENT, NOT_FOUND for unreadable files, UNAVAILABLE when an address cannot be bound.
  static StatusOr<std::unique_ptr<ServerRuntime>> Start(const ServerConfig& config);
  // Same over a given store and migrator (tests, other backends).
  static StatusOr<std::unique_ptr<ServerRuntime>> Start(const ServerConfig& config,
                                                        std::unique_ptr<Store> store,
                                                        Database::Migrator migrator);

  // Shutdown(0) if still running.
  ~ServerRuntime();
  ServerRuntime(const ServerRuntime&) = delete;
  ServerRuntime& operator=(const ServerRuntime&) = delete;

  // The bound gRPC port (useful with --listen host:0).
  int port() const { return port_; }
  // The /metrics ports (empty when the exporter is disabled).
  std::vector<int> metrics_ports() const { return metrics_->metrics_ports(); }
  bool tls() const { return tls_; }

  // Stops accepting calls, ends WatchJob streams (UNAVAILABLE, "watch again"), gives other
  // in-flight calls up to `grace` to finish, then cancels what is left and returns when every
  // handler has returned. Idempotent; call from one thread.
  void Shutdown(std::chrono::milliseconds grace);

 private:
  ServerRuntime() = default;
  Status Build(const ServerConfig& config, std::unique_ptr<Store> store,
               Database::Migrator migrator, std::unique_ptr<ReadReplica> replica = nullptr);
  // Opens the analysis store on config.database_url and starts the analysis loop (issue 9).
  // Start(config) calls it (main.cc, the RPC tests' servers); Start over a given store and
  // migrator does not, having no URL of its own.
  Status StartAnalysis(const ServerConfig& config);
  // Opens the schedule store on config.database_url (issue 11). Start(config) calls it before
  // Build, which hands the store to ScheduleService; without it ScheduleService answers
  // UNIMPLEMENTED and no scheduler runs.
  Status OpenSchedules(const ServerConfig& config);
  // Opens the incident store on config.database_url (issue 26). Start(config) calls it before
  // Build, which hands the store to IncidentService and the gauge refresher; StartAnalysis sweeps
  // incidents after each analysed run. Without it IncidentService answers UNIMPLEMENTED.
  Status OpenIncidents(const ServerConfig& config);
  // Starts the scheduler thread over the schedule store, when there is one (after Build).
  void StartScheduler(const ServerConfig& config);
  // Opens the GPU health store (Start(config) only: Build hands it to FleetService, whose health
  // methods answer UNIMPLEMENTED without it).
  Status OpenGpuHealth(const ServerConfig& config);

  // Declaration order is destruction order reversed: the server goes before what it uses.
  std::unique_ptr<metrics::ServerMetrics> metrics_;
  std::unique_ptr<metrics::DatabaseMetrics> database_metrics_;  // the store's observer: outlives it
  std::unique_ptr<metrics::FleetMetrics> fleet_metrics_;
  std::unique_ptr<metrics::JobMetrics> job_metrics_;
  std::unique_ptr<metrics::RegressionMetrics> regression_metrics_;
  std::unique_ptr<metrics::ScheduleMetrics> schedule_metrics_;  // outlives scheduler_ (declared later)
  std::unique_ptr<metrics::IncidentMetrics> incident_metrics_;
  std::unique_ptr<auth::Authorizer> authorizer_;
  std::unique_ptr<Database> database_;
  ShutdownSignal shutdown_signal_;
  std::unique_ptr<JobServiceImpl> job_service_;
  std::unique_ptr<WorkerServiceImpl> worker_service_;
  std::unique_ptr<ResultServiceImpl> result_service_;
  std::unique_ptr<metrics::GpuHealthMetrics> gpu_health_metrics_;
  std::unique_ptr<gpu_health::GpuHealthStore> gpu_health_store_;  // null over a non-PG store
  std::unique_ptr<FleetServiceImpl> fleet_service_;
  std::unique_ptr<schedule::ScheduleStore> schedule_store_;  // null over a non-PostgreSQL store
  schedule::Clock schedule_clock_;
  std::unique_ptr<ScheduleServiceImpl> schedule_service_;
  std::unique_ptr<incidents::IncidentStore> incident_store_;  // null over a non-PostgreSQL store
  std::unique_ptr<IncidentServiceImpl> incident_service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<HealthChecker> health_checker_;
  std::unique_ptr<queue::JobReaper> reaper_;         // expired leases and job timeouts
  std::unique_ptr<metrics::GaugeRefresher> gauges_;  // warpwatch_jobs, warpwatch_workers
  std::unique_ptr<analysis::AnalysisStore> analysis_store_;
  std::unique_ptr<analysis::AnalysisLoop> analysis_loop_;  // finished runs -> regressions
  std::unique_ptr<schedule::Scheduler> scheduler_;          // due schedules -> jobs
  int port_ = 0;
  bool tls_ = false;
  bool stopped_ = false;
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_RUNTIME_SERVER_RUNTIME_H_
