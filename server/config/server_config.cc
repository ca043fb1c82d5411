// File: server/config/server_config.cc
#include "server/config/server_config.h"

#include <CLI/CLI.hpp>

namespace warpwatch::server {

void AddServerFlags(CLI::App& app, ServerConfig* c) {
  app.add_option("--listen", c->listen, "gRPC listen address host:port")
      ->envname("WARPWATCH_LISTEN")
      ->capture_default_str();
  app.add_option("--database-url", c->database_url,
                 "PostgreSQL URL, e.g. postgresql://warpwatch@localhost:5432/warpwatch")
      ->envname("WARPWATCH_DATABASE_URL");
  app.add_option("--read-database-url", c->read_database_url,
                 "PostgreSQL URL of a hot standby of --database-url: ListRuns, QueryMeasurements, "
                 "GetSeries, CompareRuns and ListRegressions read there (docs/operations.md)")
      ->envname("WARPWATCH_READ_DATABASE_URL");
  app.add_option("--read-max-lag-seconds", c->read_max_lag_seconds,
                 "history reads go to the primary while the standby is further behind than this")
      ->envname("WARPWATCH_READ_MAX_LAG_SECONDS")
      ->capture_default_str();
  app.add_option("--metrics-listen", c->metrics_listen,
                 "Prometheus /metrics address host:port; empty disables the exporter")
      ->envname("WARPWATCH_METRICS_LISTEN")
      ->capture_default_str();
  app.add_option("--tokens-file", c->tokens_file,
                 "bearer tokens file (lines: TOKEN ROLE NAME); without it the server runs open, "
                 "which needs a loopback --listen or --allow-open")
      ->envname("WARPWATCH_TOKENS_FILE");
  app.add_flag("--allow-open", c->allow_open,
               "run without --tokens-file on a non-loopback --listen: every caller is admin")
      ->envname("WARPWATCH_ALLOW_OPEN");
  app.add_flag("--allow-plaintext-tokens", c->allow_plaintext_tokens,
               "accept bearer tokens without TLS on a non-loopback --listen (readable on the wire)")
      ->envname("WARPWATCH_ALLOW_PLAINTEXT_TOKENS");
  app.add_option("--tls-cert", c->tls_cert, "PEM server certificate; enables TLS")
      ->envname("WARPWATCH_TLS_CERT");
  app.add_option("--tls-key", c->tls_key, "PEM private key of --tls-cert")
      ->envname("WARPWATCH_TLS_KEY");
  app.add_option("--tls-client-ca", c->tls_client_ca,
                 "PEM CA bundle; requires and verifies client certificates (mTLS)")
      ->envname("WARPWATCH_TLS_CLIENT_CA");
  app.add_option("--ingest-path", c->ingest_path,
                 "how measurement batches are written: copy (binary COPY) or json (the "
                 "INSERT ... SELECT FROM json_to_recordset of earlier releases)")
      ->envname("WARPWATCH_INGEST_PATH")
      ->check(CLI::IsMember({"copy", "json"}))
      ->capture_default_str();
  app.add_option("--pool-size", c->pool_size, "database connections at most")
      ->envname("WARPWATCH_POOL_SIZE")
      ->capture_default_str();
  app.add_option("--max-sweep-points", c->max_sweep_points, "case points one job may expand to")
      ->envname("WARPWATCH_MAX_SWEEP_POINTS")
      ->capture_default_str();
  app.add_option("--lease-seconds", c->lease_seconds, "worker job lease length in seconds")
      ->envname("WARPWATCH_LEASE_SECONDS")
      ->capture_default_str();
  app.add_option("--heartbeat-seconds", c->heartbeat_seconds,
                 "heartbeat interval asked of workers; 0 = a third of --lease-seconds")
      ->envname("WARPWATCH_HEARTBEAT_SECONDS")
      ->capture_default_str();
  app.add_option("--acquire-max-wait-seconds", c->acquire_max_wait_seconds,
                 "longest AcquireJob long-poll, whatever the worker asks")
      ->envname("WARPWATCH_ACQUIRE_MAX_WAIT_SECONDS")
      ->capture_default_str();
  app.add_option("--max-upload-batch", c->max_upload_batch,
                 "measurements one UploadMeasurements call may carry (more: RESOURCE_EXHAUSTED)")
      ->envname("WARPWATCH_MAX_UPLOAD_BATCH")
      ->capture_default_str();
  app.add_option("--max-upload-bytes", c->max_upload_bytes,
                 "bytes one UploadMeasurements request may have (more: RESOURCE_EXHAUSTED)")
      ->envname("WARPWATCH_MAX_UPLOAD_BYTES")
      ->capture_default_str();
  app.add_option("--reaper-interval-seconds", c->reaper_interval_seconds,
                 "how often expired leases are requeued and timed-out jobs failed")
      ->envname("WARPWATCH_REAPER_INTERVAL_SECONDS")
      ->capture_default_str();
  app.add_option("--default-job-timeout-seconds", c->default_job_timeout_seconds,
                 "wall-time limit of a running job whose spec sets none")
      ->envname("WARPWATCH_DEFAULT_JOB_TIMEOUT_SECONDS")
      ->capture_default_str();
  app.add_option("--shutdown-grace-seconds", c->shutdown_grace_seconds,
                 "how long in-flight calls may run after SIGTERM/SIGINT")
      ->envname("WARPWATCH_SHUTDOWN_GRACE_SECONDS")
      ->capture_default_str();
  app.add_option("--metrics-interval-seconds", c->metrics_interval_seconds,
                 "how often the job and worker gauges are recounted from the database")
      ->envname("WARPWATCH_METRICS_INTERVAL_SECONDS")
      ->capture_default_str();
  app.add_option("--schedule-interval-seconds", c->schedule_interval_seconds,
                 "how often the scheduler fires the schedules that are due")
      ->envname("WARPWATCH_SCHEDULE_INTERVAL_SECONDS")
      ->capture_default_str();
  app.add_option("--schedule-missed-grace-seconds", c->schedule_missed_grace_seconds,
                 "a due time older than this when the scheduler sees it is missed: the "
                 "schedule's missed-fire policy applies (SKIP or RUN_ONCE)")
      ->envname("WARPWATCH_SCHEDULE_MISSED_GRACE_SECONDS")
      ->capture_default_str();
  app.add_option("--schedule-test-clock-anchor", c->schedule_test_clock_anchor,
                 "TESTS ONLY: unix time from which the scheduler's clock runs "
                 "--schedule-test-clock-speed times faster; 0 = real time")
      ->envname("WARPWATCH_SCHEDULE_TEST_CLOCK_ANCHOR")
      ->capture_default_str();
  app.add_option("--schedule-test-clock-speed", c->schedule_test_clock_speed,
                 "TESTS ONLY: see --schedule-test-clock-anchor")
      ->envname("WARPWATCH_SCHEDULE_TEST_CLOCK_SPEED")
      ->capture_default_str();
  app.add_option("--worker-retention-hours", c->worker_retention_hours,
                 "workers not heard from this long that hold no job are deleted; 0 keeps all")
      ->envname("WARPWATCH_WORKER_RETENTION_HOURS")
      ->capture_default_str();
  app.add_option("--sample-retention-days", c->sample_retention_days,
                 "raw samples of runs older than this are dropped, summaries kept; 0 keeps all")
      ->envname("WARPWATCH_SAMPLE_RETENTION_DAYS")
      ->capture_default_str();
  app.add_option("--summary-retention-days", c->summary_retention_days,
                 "summaries (per-run points) of runs older than this are folded into one point per "
                 "series, device and week, except pinned and regression-named runs; 0 keeps all")
      ->envname("WARPWATCH_SUMMARY_RETENTION_DAYS")
      ->capture_default_str();
  app.add_option("--max-watch-streams", c->max_watch_streams,
                 "open WatchJob streams at most; more are refused RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MAX_WATCH_STREAMS")
      ->capture_default_str();
  app.add_option("--max-watch-streams-per-principal", c->max_watch_streams_per_principal,
                 "open WatchJob streams one principal (token name) may hold; more are refused "
                 "RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MAX_WATCH_STREAMS_PER_PRINCIPAL")
      ->capture_default_str();
  app.add_option("--max-watch-seconds", c->max_watch_seconds,
                 "a WatchJob stream ends RESOURCE_EXHAUSTED after this long (watch again)")
      ->envname("WARPWATCH_MAX_WATCH_SECONDS")
      ->capture_default_str();
  app.add_option("--max-parked-polls-per-principal", c->max_parked_polls_per_principal,
                 "AcquireJob long-polls one principal may have waiting at once; more are refused "
                 "RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MAX_PARKED_POLLS_PER_PRINCIPAL")
      ->capture_default_str();
  app.add_option("--max-uploads-per-minute", c->max_uploads_per_minute,
                 "UploadRun calls one principal may make in any minute; more are refused "
                 "RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MAX_UPLOADS_PER_MINUTE")
      ->capture_default_str();
  app.add_option("--max-schedules-per-principal", c->max_schedules_per_principal,
                 "schedules one principal may have created; CreateSchedule past it is refused "
                 "RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MAX_SCHEDULES_PER_PRINCIPAL")
      ->capture_default_str();
  app.add_option("--min-schedule-interval-seconds", c->min_schedule_interval_seconds,
                 "shortest time a schedule's cron may leave between two fires; a more frequent "
                 "cron is refused RESOURCE_EXHAUSTED")
      ->envname("WARPWATCH_MIN_SCHEDULE_INTERVAL_SECONDS")
      ->capture_default_str();
  app.add_option("--max-streams-per-connection", c->max_streams_per_connection,
                 "concurrent calls one client connection may have open (HTTP/2 streams); more "
                 "wait in the client")
      ->envname("WARPWATCH_MAX_STREAMS_PER_CONNECTION")
      ->capture_default_str();
  app.add_option("--grpc-memory-mib", c->grpc_memory_mib,
                 "memory gRPC's buffers may use (ResourceQuota); under pressure gRPC shrinks "
                 "windows and refuses new calls")
      ->envname("WARPWATCH_GRPC_MEMORY_MIB")
      ->capture_default_str();
  app.add_option("--migration-lock-timeout-seconds", c->migration_lock_timeout_seconds,
                 "how long a schema migration waits for a table lock before it fails (tried again "
                 "at the next health probe); 0 = no limit")
      ->envname("WARPWATCH_MIGRATION_LOCK_TIMEOUT_SECONDS")
      ->capture_default_str();
  app.add_option("--migration-statement-timeout-seconds", c->migration_statement_timeout_seconds,
                 "how long one statement of a schema migration may run; 0 = no limit (a migration "
                 "may state its own)")
      ->envname("WARPWATCH_MIGRATION_STATEMENT_TIMEOUT_SECONDS")
      ->capture_default_str();
  app.add_option("--log-level", c->log_level, "trace, debug, info, warn, error or critical")
      ->envname("WARPWATCH_LOG_LEVEL")
      ->capture_default_str();
}

bool IsLoopbackAddress(const std::string& listen) {
  if (listen.rfind("unix:", 0) == 0) return true;
  std::string host;
  if (!listen.empty() && listen[0] == '[') {
    const size_t close = listen.find(']');
    if (close == std::string::npos) return false;
    host = listen.substr(1, close - 1);
  } else {
    const size_t colon = listen.rfind(':');
    host = colon == std::string::npos ? listen : listen.substr(0, colon);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

Status ValidateServerConfig(const ServerConfig& c) {
  if (c.listen.empty()) return InvalidArgumentError("--listen: empty");
  if (c.database_url.empty()) {
    return InvalidArgumentError("--database-url: required (or WARPWATCH_DATABASE_URL)");
  }
  if (!c.read_database_url.empty() && c.read_database_url == c.database_url) {
    return InvalidArgumentError(
        "--read-database-url: names the primary (--database-url); give a standby's URL or none");
  }
  if (c.read_max_lag_seconds <= 0 || c.read_max_lag_seconds > 86400) {
    return InvalidArgumentError("--read-max-lag-seconds: must be in (0, 86400]");
  }
  if (c.tls_cert.empty() != c.tls_key.empty()) {
    return InvalidArgumentError("--tls-cert and --tls-key: give both or neither");
  }
  if (!c.tls_client_ca.empty() && c.tls_cert.empty()) {
    return InvalidArgumentError("--tls-client-ca: needs --tls-cert and --tls-key");
  }
  if (c.ingest_path != "copy" && c.ingest_path != "json") {
    return InvalidArgumentError("--ingest-path: must be copy or json");
  }
  if (c.pool_size < 1 || c.pool_size > 1000) {
    return InvalidArgumentError("--pool-size: must be in [1, 1000]");
  }
  if (c.max_sweep_points < 1) return InvalidArgumentError("--max-sweep-points: must be >= 1");
  if (c.lease_seconds < 1 || c.lease_seconds > 86400) {
    return InvalidArgumentError("--lease-seconds: must be in [1, 86400]");
  }
  if (c.heartbeat_seconds < 0 || c.heartbeat_seconds >= c.lease_seconds) {
    return InvalidArgumentError("--heartbeat-seconds: must be in [0, --lease-seconds)");
  }
  if (c.acquire_max_wait_seconds < 0 || c.acquire_max_wait_seconds > 3600) {
    return InvalidArgumentError("--acquire-max-wait-seconds: must be in [0, 3600]");
  }
  if (c.max_upload_batch < 1) return InvalidArgumentError("--max-upload-batch: must be >= 1");
  if (c.max_upload_bytes < 1024) {
    return InvalidArgumentError("--max-upload-bytes: must be >= 1024");
  }
  if (c.reaper_interval_seconds <= 0) {
    return InvalidArgumentError("--reaper-interval-seconds: must be positive");
  }
  if (c.default_job_timeout_seconds <= 0) {
    return InvalidArgumentError("--default-job-timeout-seconds: must be positive");
  }
  if (c.shutdown_grace_seconds < 0) {
    return InvalidArgumentError("--shutdown-grace-seconds: must be >= 0");
  }
  if (c.health_interval_seconds <= 0 || c.watch_poll_seconds <= 0) {
    return InvalidArgumentError("health/watch intervals must be positive");
  }
  if (c.max_watch_streams < 1 || c.max_watch_streams > 100000) {
    return InvalidArgumentError("--max-watch-streams: must be in [1, 100000]");
  }
  if (c.max_watch_streams_per_principal < 1 || c.max_watch_streams_per_principal > 100000) {
    return InvalidArgumentError("--max-watch-streams-per-principal: must be in [1, 100000]");
  }
  if (!(c.max_watch_seconds > 0)) return InvalidArgumentError("--max-watch-seconds: must be > 0");
  if (c.max_parked_polls_per_principal < 1 || c.max_parked_polls_per_principal > 1000000) {
    return InvalidArgumentError("--max-parked-polls-per-principal: must be in [1, 1000000]");
  }
  if (c.max_uploads_per_minute < 1 || c.max_uploads_per_minute > 100000) {
    return InvalidArgumentError("--max-uploads-per-minute: must be in [1, 100000]");
  }
  if (c.max_schedules_per_principal < 1 || c.max_schedules_per_principal > 1000000) {
    return InvalidArgumentError("--max-schedules-per-principal: must be in [1, 1000000]");
  }
  if (!(c.min_schedule_interval_seconds >= 0)) {
    return InvalidArgumentError("--min-schedule-interval-seconds: must be >= 0");
  }
  if (c.max_streams_per_connection < 1 || c.max_streams_per_connection > 100000) {
    return InvalidArgumentError("--max-streams-per-connection: must be in [1, 100000]");
  }
  if (c.grpc_memory_mib < 64 || c.grpc_memory_mib > 1 << 20) {
    return InvalidArgumentError("--grpc-memory-mib: must be in [64, 1048576]");
  }
  if (c.migration_lock_timeout_seconds < 0 || c.migration_lock_timeout_seconds > 86400) {
    return InvalidArgumentError("--migration-lock-timeout-seconds: must be in [0, 86400]");
  }
  if (c.migration_statement_timeout_seconds < 0 ||
      c.migration_statement_timeout_seconds > 7 * 86400) {
    return InvalidArgumentError("--migration-statement-timeout-seconds: must be in [0, 604800]");
  }
  if (c.metrics_interval_seconds <= 0) {
    return InvalidArgumentError("--metrics-interval-seconds: must be positive");
  }
  if (c.schedule_interval_seconds <= 0) {
    return InvalidArgumentError("--schedule-interval-seconds: must be positive");
  }
  if (c.schedule_missed_grace_seconds < 0) {
    return InvalidArgumentError("--schedule-missed-grace-seconds: must be >= 0");
  }
  if (c.schedule_test_clock_anchor < 0 || c.schedule_test_clock_speed <= 0) {
    return InvalidArgumentError(
        "--schedule-test-clock-anchor/--schedule-test-clock-speed: anchor >= 0, speed > 0");
  }
  if (c.worker_retention_hours < 0) {
    return InvalidArgumentError("--worker-retention-hours: must be >= 0");
  }
  if (c.sample_retention_days < 0) {
    return InvalidArgumentError("--sample-retention-days: must be >= 0");
  }
  if (c.summary_retention_days < 0) {
    return InvalidArgumentError("--summary-retention-days: must be >= 0");
  }
  if (c.summary_retention_days > 0 && c.sample_retention_days > 0 &&
      c.summary_retention_days < c.sample_retention_days) {
    return InvalidArgumentError(
        "--summary-retention-days: must be 0 or at least --sample-retention-days (summaries "
        "outlive raw samples)");
  }
  static const char* const kLevels[] = {"trace", "debug",    "info", "warn",
                                        "error", "critical", "off"};
  bool level_ok = false;
  for (const char* level : kLevels) level_ok = level_ok || c.log_level == level;
  if (!level_ok) return InvalidArgumentError("--log-level: unknown level \"" + c.log_level + "\"");
  const bool loopback = IsLoopbackAddress(c.listen);
  if (c.tokens_file.empty() && !loopback && !c.allow_open) {
    return InvalidArgumentError(
        "--tokens-file: none given, and --listen " + c.listen +
        " is reachable from other hosts: every caller would be admin. Give --tokens-file, listen "
        "on a loopback address, or pass --allow-open to run open anyway");
  }
  if (!c.tokens_file.empty() && c.tls_cert.empty() && !loopback && !c.allow_plaintext_tokens) {
    return InvalidArgumentError(
        "--tokens-file without --tls-cert: bearer tokens would cross the network in plaintext to "
        "--listen " +
        c.listen +
        ". Give --tls-cert/--tls-key, listen on a loopback address, or pass "
        "--allow-plaintext-tokens");
  }
  return OkStatus();
}

}  // namespace warpwatch::server
