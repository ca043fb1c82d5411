// File: server/runtime/server_runtime.cc
#include "server/runtime/server_runtime.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/server_builder.h>
#include <prometheus/gauge.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <climits>

#include "server/analysis/run_analyzer.h"
#include "server/auth/token_file.h"
#include "server/incidents/incident_sweep.h"
#include "server/metrics/replica_metrics.h"
#include "server/gpu_health/fleet_verdicts.h"
#include "server/runtime/served_methods.h"
#include "server/service/result_upload.h"
#include "server/store/migrations.h"
#include "server/store/pg_analysis_store.h"
#include "server/store/pg_incident_store.h"
#include "server/store/pg_replication_probe.h"
#include "server/store/pg_gpu_health_store.h"
#include "server/store/pg_schedule_store.h"
#include "server/store/pg_store.h"
#include "server/tls/server_credentials.h"

namespace warpwatch::server {
namespace {

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

// Seconds as PostgreSQL duration text in whole milliseconds ("0" = no limit).
std::string PgDuration(double seconds) {
  return std::to_string(static_cast<int64_t>(seconds * 1000)) + "ms";
}

// The heartbeat interval asked of workers (--heartbeat-seconds, or a third of the lease).
std::chrono::milliseconds HeartbeatInterval(const ServerConfig& config) {
  return config.heartbeat_seconds > 0 ? Millis(config.heartbeat_seconds)
                                      : Millis(config.lease_seconds) / 3;
}

StatusOr<std::unique_ptr<auth::Authorizer>> MakeAuthorizer(const std::string& tokens_file) {
  if (tokens_file.empty()) {
    spdlog::warn(
        "msg=\"NO --tokens-file: THE SERVER IS OPEN. Anyone who can reach it may submit, cancel "
        "and act as a worker. Give --tokens-file (or WARPWATCH_TOKENS_FILE) in production.\"");
    return std::make_unique<auth::Authorizer>();
  }
  ASSIGN_OR_RETURN(auth::TokenTable tokens, auth::LoadTokenFile(tokens_file));
  spdlog::info("msg=\"bearer tokens loaded\" file={} tokens={}", tokens_file, tokens.size());
  return std::make_unique<auth::Authorizer>(std::move(tokens));
}

// The history reads' standby (--read-database-url), or null without one. Its store never LISTENs
// (a standby refuses LISTEN) and its pool is as large as the primary's.
StatusOr<std::unique_ptr<ReadReplica>> OpenReadReplica(const ServerConfig& config,
                                                       prometheus::Registry& registry) {
  if (config.read_database_url.empty()) return std::unique_ptr<ReadReplica>();
  PgStoreOptions options;
  options.url = config.read_database_url;
  options.pool_size = config.pool_size;
  options.listen_for_jobs = false;
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, OpenPgStore(options));
  ASSIGN_OR_RETURN(std::unique_ptr<ReplicationProbe> probe,
                   OpenPgReplicationProbe(config.database_url, config.read_database_url));
  spdlog::info("msg=\"history reads go to the read replica while it is fit\" max_lag_s={}",
               config.read_max_lag_seconds);
  // Only with a replica: 1 while history reads go to it, 0 while they fall back to the primary.
  prometheus::Gauge& in_use = RegisterReadReplicaInUse(registry);
  return std::make_unique<ReadReplica>(std::move(store), std::move(probe),
                                       Millis(config.read_max_lag_seconds),
                                       [&in_use](bool usable) { in_use.Set(usable ? 1 : 0); });
}

}  // namespace

StatusOr<std::unique_ptr<ServerRuntime>> ServerRuntime::Start(const ServerConfig& config) {
  RETURN_IF_ERROR(ValidateServerConfig(config));
  std::unique_ptr<ServerRuntime> runtime(new ServerRuntime());
  // The metrics exist before the store, which reports its errors and pool use to them.
  ASSIGN_OR_RETURN(runtime->metrics_, metrics::ServerMetrics::Create(config.metrics_listen));
  runtime->database_metrics_ =
      std::make_unique<metrics::DatabaseMetrics>(runtime->metrics_->registry());
  PgStoreOptions options;
  options.url = config.database_url;
  options.pool_size = config.pool_size;
  options.observer = runtime->database_metrics_.get();
  options.ingest = config.ingest_path;
  ASSIGN_OR_RETURN(std::unique_ptr<Store> store, OpenPgStore(options));
  ASSIGN_OR_RETURN(std::unique_ptr<ReadReplica> replica,
                   OpenReadReplica(config, runtime->metrics_->registry()));
  const std::string url = config.database_url;
  // A database a newer release migrated is refused now, while the server can still decline to
  // start; one unreachable now is checked by RunMigrations when it first answers.
  if (Status known = CheckSchemaKnown(url); known.code() == StatusCode::kFailedPrecondition) {
    return known;
  }
  MigrationTimeouts timeouts;
  timeouts.lock_timeout = PgDuration(config.migration_lock_timeout_seconds);
  timeouts.statement_timeout = PgDuration(config.migration_statement_timeout_seconds);
  RETURN_IF_ERROR(runtime->OpenSchedules(config));
  RETURN_IF_ERROR(runtime->OpenIncidents(config));
  RETURN_IF_ERROR(runtime->OpenGpuHealth(config));
  RETURN_IF_ERROR(runtime->Build(config, std::move(store),
                                 [url, timeouts] { return RunMigrations(url, timeouts); },
                                 std::move(replica)));
  RETURN_IF_ERROR(runtime->StartAnalysis(config));
  runtime->StartScheduler(config);
  return runtime;
}

StatusOr<std::unique_ptr<ServerRuntime>> ServerRuntime::Start(const ServerConfig& config,
                                                              std::unique_ptr<Store> store,
                                                              Database::Migrator migrator) {
  RETURN_IF_ERROR(ValidateServerConfig(config));
  std::unique_ptr<ServerRuntime> runtime(new ServerRuntime());
  RETURN_IF_ERROR(runtime->Build(config, std::move(store), std::move(migrator)));
  return runtime;
}

Status ServerRuntime::Build(const ServerConfig& config, std::unique_ptr<Store> store,
                            Database::Migrator migrator, std::unique_ptr<ReadReplica> replica) {
  ASSIGN_OR_RETURN(authorizer_, MakeAuthorizer(config.tokens_file));
  ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials,
                   tls::MakeServerCredentials(
                       tls::TlsFiles{config.tls_cert, config.tls_key, config.tls_client_ca}));
  tls_ = !config.tls_cert.empty();
  if (metrics_ == nullptr) {
    ASSIGN_OR_RETURN(metrics_, metrics::ServerMetrics::Create(config.metrics_listen));
  }
  database_ =
      std::make_unique<Database>(std::move(store), std::move(migrator), std::move(replica));

  JobServiceOptions job_options;
  job_options.limits.max_points = config.max_sweep_points;
  job_options.limits.max_upload_bytes = config.max_upload_bytes;
  job_options.watch_poll = Millis(config.watch_poll_seconds);
  job_options.max_watches = config.max_watch_streams;
  job_options.max_watches_per_principal = config.max_watch_streams_per_principal;
  job_options.max_watch = Millis(config.max_watch_seconds);
  job_service_ = std::make_unique<JobServiceImpl>(database_.get(), authorizer_.get(),
                                                  &shutdown_signal_, job_options);
  fleet_metrics_ = std::make_unique<metrics::FleetMetrics>(metrics_->registry());
  metrics::FleetMetrics* fleet_metrics = fleet_metrics_.get();
  const std::chrono::milliseconds lease = Millis(config.lease_seconds);
  const std::chrono::milliseconds heartbeat = HeartbeatInterval(config);
  WorkerServiceOptions worker_options;
  worker_options.lease = lease;
  worker_options.heartbeat_interval = heartbeat;
  worker_options.max_acquire_wait = Millis(config.acquire_max_wait_seconds);
  worker_options.upload.max_measurements = config.max_upload_batch;
  worker_options.upload.max_bytes = config.max_upload_bytes;
  worker_options.upload_threads = config.pool_size;
  worker_options.max_parked_polls_per_principal = config.max_parked_polls_per_principal;
  worker_options.on_upload = [fleet_metrics](const UploadCounts& counts) {
    fleet_metrics->AddIngested(counts.inserted, counts.duplicates);
  };
  job_metrics_ = std::make_unique<metrics::JobMetrics>(metrics_->registry());
  metrics::JobMetrics* job_metrics = job_metrics_.get();
  worker_options.on_claimed = [job_metrics](const v1::Job& job) {
    job_metrics->ObserveClaimed(job);
  };
  worker_options.on_finished = [job_metrics](const v1::Job& job) {
    job_metrics->ObserveFinished(job);
  };
  worker_options.on_claim_attempt = [job_metrics](bool notified, const char* outcome) {
    job_metrics->CountClaim(notified, outcome);
  };
  worker_service_ = std::make_unique<WorkerServiceImpl>(database_.get(), authorizer_.get(),
                                                        &shutdown_signal_, worker_options);
  fleet_service_ = std::make_unique<FleetServiceImpl>(database_.get(), authorizer_.get(), heartbeat,
                                                      gpu_health_store_.get());
  result_service_ = std::make_unique<ResultServiceImpl>(database_.get(), authorizer_.get(),
                                                        config.max_uploads_per_minute);
  if (!schedule_clock_) schedule_clock_ = schedule::SystemClock();
  schedule_service_ = std::make_unique<ScheduleServiceImpl>(
      database_.get(), schedule_store_.get(), authorizer_.get(), job_options.limits,
      schedule_clock_,
      detail::ScheduleLimits{config.max_schedules_per_principal,
                             absl::Seconds(config.min_schedule_interval_seconds)});
  incident_service_ = std::make_unique<IncidentServiceImpl>(database_.get(), incident_store_.get(),
                                                            authorizer_.get());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, credentials, &port_);
  // UploadRun takes whole run files up to kMaxUploadRunBytes (gRPC's default is 4 MiB). gRPC 1.51
  // applies one receive limit to every method of a server (per-method limits from a service
  // config are read by clients only), so it is UploadRun's: the largest request any method takes.
  // UploadRun, UploadMeasurements and AcquireJob are authorized and size-checked before they are
  // parsed (detail/raw_unary_call.h); every other method is authorized before its request is even
  // read (detail/authorize_before_read.h), and refused over 4 MiB.
  builder.SetMaxReceiveMessageSize(static_cast<int>(std::min<size_t>(
      INT_MAX,
      std::max<size_t>(kMaxUploadRunRequestBytes, static_cast<size_t>(config.max_upload_bytes)))));
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, config.max_streams_per_connection);
  grpc::ResourceQuota quota("warpwatch-server");
  quota.Resize(static_cast<size_t>(config.grpc_memory_mib) << 20);
  builder.SetResourceQuota(quota);
  builder.RegisterService(job_service_.get());
  builder.RegisterService(worker_service_.get());
  builder.RegisterService(result_service_.get());
  builder.RegisterService(fleet_service_.get());
  builder.RegisterService(schedule_service_.get());
  builder.RegisterService(incident_service_.get());
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  metrics_->SetServedMethods(ServedMethods());
  interceptors.push_back(metrics_->MakeInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port_ == 0) {
    server_.reset();
    return UnavailableError("--listen " + config.listen +
                            ": cannot listen (address in use, bad address, or bad TLS files)");
  }
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  for (const std::string& name : HealthServiceNames()) health->SetServingStatus(name, false);
  metrics::ServerMetrics* metrics = metrics_.get();
  health_checker_ = std::make_unique<HealthChecker>(
      database_.get(), health, Millis(config.health_interval_seconds),
      [metrics](bool serving) { metrics->SetDatabaseUp(serving); });
  health_checker_->Start();
  queue::JobReaperOptions reaper_options;
  reaper_options.interval = Millis(config.reaper_interval_seconds);
  reaper_options.default_job_timeout = Millis(config.default_job_timeout_seconds);
  reaper_options.worker_retention =
      std::chrono::milliseconds(static_cast<int64_t>(config.worker_retention_hours * 3600000));
  reaper_options.sample_retention = std::chrono::hours(24 * config.sample_retention_days);
  reaper_options.summary_retention = std::chrono::hours(24 * config.summary_retention_days);
  reaper_ = std::make_unique<queue::JobReaper>(database_.get(), std::move(reaper_options));
  reaper_->Start();
  regression_metrics_ = std::make_unique<metrics::RegressionMetrics>(metrics_->registry());
  metrics::RegressionMetrics* regression_metrics = regression_metrics_.get();
  incident_metrics_ = std::make_unique<metrics::IncidentMetrics>(metrics_->registry());
  metrics::IncidentMetrics* incident_metrics = incident_metrics_.get();
  incidents::IncidentStore* incident_store = incident_store_.get();
  gpu_health_metrics_ = std::make_unique<metrics::GpuHealthMetrics>(metrics_->registry());
  metrics::GpuHealthMetrics* gpu_health_metrics = gpu_health_metrics_.get();
  gpu_health::GpuHealthStore* gpu_health_store = gpu_health_store_.get();
  gauges_ = std::make_unique<metrics::GaugeRefresher>(
      database_.get(), Millis(config.metrics_interval_seconds),
      [fleet_metrics, regression_metrics, incident_metrics, incident_store, heartbeat,
       gpu_health_metrics, gpu_health_store](Store& store) {
        StatusOr<std::map<v1::WorkerState, int64_t>> workers =
            store.CountWorkersByState(kHeartbeatsBeforeOffline * heartbeat);
        if (workers.ok()) fleet_metrics->SetWorkerCounts(*workers);
        StatusOr<std::map<v1::JobState, int64_t>> jobs = store.CountJobsByState();
        if (jobs.ok()) fleet_metrics->SetJobs(*jobs);
        StatusOr<std::vector<RegressionCount>> regressions = store.CountOpenRegressions();
        if (regressions.ok()) regression_metrics->SetOpen(*regressions);
        if (incident_store != nullptr) {
          StatusOr<std::vector<incidents::OpenIncident>> open =
              incident_store->ListOpenIncidents();
          if (open.ok()) incident_metrics->SetOpen(*open);
          StatusOr<std::vector<incidents::IncidentCount>> counts =
              incident_store->CountIncidents();
          if (counts.ok()) incident_metrics->SetCounts(*counts);
        }
        if (gpu_health_store != nullptr) {
          StatusOr<std::vector<v1::GpuHealth>> verdicts = gpu_health::FleetVerdicts(
              *gpu_health_store, gpu_health::HealthPolicy(), "", std::chrono::system_clock::now());
          if (verdicts.ok()) gpu_health_metrics->Set(*verdicts);
        }
      });
  gauges_->Start();

  std::string metrics_where = "disabled";
  for (int port : metrics_->metrics_ports()) {
    metrics_where = (metrics_where == "disabled" ? "" : metrics_where + ",") + std::to_string(port);
  }
  spdlog::info(
      "msg=\"warpwatch-server listening\" listen={} port={} tls={} mtls={} auth={} "
      "metrics_port={} max_sweep_points={} pool_size={}",
      config.listen, port_, tls_, !config.tls_client_ca.empty(),
      authorizer_->open() ? "open" : "tokens", metrics_where, config.max_sweep_points,
      config.pool_size);
  return OkStatus();
}

Status ServerRuntime::StartAnalysis(const ServerConfig& config) {
  PgStoreOptions options;
  options.url = config.database_url;
  options.pool_size = 2;  // one loop thread; its own pool, so analyses never starve RPCs
  options.statement_timeout = std::chrono::seconds(60);
  ASSIGN_OR_RETURN(analysis_store_, OpenPgAnalysisStore(options));
  Database* database = database_.get();
  analysis::AnalysisLoopOptions loop_options;
  metrics::RegressionMetrics* regression_metrics = regression_metrics_.get();
  incidents::IncidentStore* incident_store = incident_store_.get();
  loop_options.on_analysed = [regression_metrics,
                              incident_store](const analysis::RunAnalysisSummary& summary) {
    for (const analysis::InsertedFinding& f : summary.inserted) {
      regression_metrics->AddDetected(f.gpu_model, f.family, f.kind, f.state);
    }
    regression_metrics->AddCoverage(summary.coverage.judged, summary.coverage.attached,
                                    summary.coverage.unsure);
    // Incidents (issue 26): explain and group what this run wrote, refresh the open incidents.
    // A failed sweep is redone by the next one (unswept findings stay marked so).
    if (incident_store == nullptr) return;
    StatusOr<incidents::SweepSummary> swept = incidents::SweepIncidents(*incident_store);
    if (!swept.ok()) {
      spdlog::warn("msg=\"incident sweep failed\" error=\"{}\"", swept.status().ToString());
    } else if (swept->explained > 0 || swept->moved > 0) {
      spdlog::info("msg=\"incidents swept\" explained={} grouped={} refreshed={} moved={}",
                   swept->explained, swept->grouped, swept->refreshed, swept->moved);
    }
  };
  analysis_loop_ = std::make_unique<analysis::AnalysisLoop>(
      analysis_store_.get(), std::move(loop_options),
      [database] { return database->schema_ready(); });
  analysis_loop_->Start();
  return OkStatus();
}

Status ServerRuntime::OpenSchedules(const ServerConfig& config) {
  PgScheduleStoreOptions options;
  options.pg.url = config.database_url;
  options.pg.pool_size = 2;  // the scheduler thread, and schedule RPCs (short transactions)
  options.online_window = kHeartbeatsBeforeOffline * HeartbeatInterval(config);
  ASSIGN_OR_RETURN(schedule_store_, OpenPgScheduleStore(options));
  schedule_clock_ = schedule::SystemClock();
  if (config.schedule_test_clock_anchor > 0) {
    const absl::Time anchor = absl::FromUnixMicros(
        static_cast<int64_t>(config.schedule_test_clock_anchor * 1e6));
    schedule_clock_ = schedule::ScaledClock(anchor, config.schedule_test_clock_speed);
    spdlog::warn("msg=\"TEST CLOCK: the scheduler's time runs {}x from {}\"",
                 config.schedule_test_clock_speed, config.schedule_test_clock_anchor);
  }
  return OkStatus();
}

Status ServerRuntime::OpenIncidents(const ServerConfig& config) {
  PgStoreOptions options;
  options.url = config.database_url;
  options.pool_size = 2;  // the sweep (analysis loop thread), incident RPCs and the gauges
  options.statement_timeout = std::chrono::seconds(60);
  ASSIGN_OR_RETURN(incident_store_, OpenPgIncidentStore(options));
  return OkStatus();
}

Status ServerRuntime::OpenGpuHealth(const ServerConfig& config) {
  PgStoreOptions options;
  options.url = config.database_url;
  options.pool_size = 2;  // health reads (RPCs, the gauge refresh) on their own small pool
  options.statement_timeout = std::chrono::seconds(30);
  ASSIGN_OR_RETURN(gpu_health_store_, OpenPgGpuHealthStore(options));
  return OkStatus();
}

void ServerRuntime::StartScheduler(const ServerConfig& config) {
  if (schedule_store_ == nullptr) return;
  schedule::SchedulerOptions options;
  options.interval = Millis(config.schedule_interval_seconds);
  schedule_metrics_ = std::make_unique<metrics::ScheduleMetrics>(metrics_->registry());
  options.on_fire = [m = schedule_metrics_.get()](const schedule::FireOutcome& outcome) {
    m->ObserveFire(outcome);
  };
  options.missed_grace = absl::Milliseconds(
      static_cast<int64_t>(config.schedule_missed_grace_seconds * 1000));
  Database* database = database_.get();
  scheduler_ = std::make_unique<schedule::Scheduler>(
      schedule_store_.get(), schedule_clock_, std::move(options),
      [database] { return database->schema_ready(); });
  scheduler_->Start();
}

void ServerRuntime::Shutdown(std::chrono::milliseconds grace) {
  if (stopped_ || server_ == nullptr) return;
  stopped_ = true;
  spdlog::info("msg=\"shutting down\" grace_ms={}", grace.count());
  health_checker_->Stop();
  reaper_->Stop();
  gauges_->Stop();
  if (analysis_loop_ != nullptr) analysis_loop_->Stop();
  if (scheduler_ != nullptr) scheduler_->Stop();
  shutdown_signal_.Raise();
  server_->Shutdown(std::chrono::system_clock::now() + grace);
  server_->Wait();
  spdlog::info("msg=\"server stopped\"");
}

ServerRuntime::~ServerRuntime() { Shutdown(std::chrono::milliseconds(0)); }

}  // namespace warpwatch::server
