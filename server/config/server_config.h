// File: server/config/server_config.h
// warpwatch-server's settings: one struct, the flags that fill it (each with a WARPWATCH_*
// environment equivalent) and the checks run before anything starts.
#ifndef WARPWATCH_SERVER_CONFIG_SERVER_CONFIG_H_
#define WARPWATCH_SERVER_CONFIG_SERVER_CONFIG_H_

#include <cstdint>
#include <string>

#include "common/status/status.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::server {

struct ServerConfig {
  std::string listen = "0.0.0.0:50051";         // gRPC address (host:port; port 0 picks one)
  std::string database_url;                     // libpq URL; required
  // libpq URL of a hot standby of database_url; set = history reads go there (read_replica.h)
  std::string read_database_url;
  double read_max_lag_seconds = 30;             // a standby further behind is not read from
  std::string metrics_listen = "0.0.0.0:9464";  // Prometheus /metrics; empty disables it
  std::string tokens_file;                      // bearer tokens (auth/token_file.h); empty = open
  std::string tls_cert;                         // PEM server certificate chain
  std::string tls_key;                          // PEM private key of tls_cert
  std::string tls_client_ca;                    // PEM CA; set = mTLS, clients must present a cert
  int pool_size = 8;                            // database connections at most
  std::string ingest_path = "copy";             // measurement batches: "copy" (binary) or "json"
  int64_t max_sweep_points = 4096;              // points one job may expand to
  int lease_seconds = 60;                       // worker lease length (WorkerService)
  double heartbeat_seconds = 0;                 // interval asked of workers; 0 = lease / 3
  double acquire_max_wait_seconds = 60;         // AcquireJob long-poll cap
  int max_upload_batch = 500;                   // measurements per UploadMeasurements call
  int64_t max_upload_bytes = 3 << 20;           // request bytes per UploadMeasurements call
  double reaper_interval_seconds = 1;           // expired-lease and job-timeout pass period
  double default_job_timeout_seconds = 21600;   // JobSpec.timeout_seconds == 0 means this
  double shutdown_grace_seconds = 10;           // in-flight calls get this long on SIGTERM
  double health_interval_seconds = 0.5;         // database ping period of the health checker
  double watch_poll_seconds = 0.5;              // WatchJob re-reads the job this often
  int max_watch_streams = 512;                  // open WatchJob streams at most (each holds a thread)
  // Bounded per principal (issue 23; a principal is a token's name). Each over-limit call is
  // refused RESOURCE_EXHAUSTED naming the flag.
  int max_watch_streams_per_principal = 32;     // open WatchJob streams of one principal
  double max_watch_seconds = 86400;             // a WatchJob stream ends after this long
  int max_parked_polls_per_principal = 64;      // AcquireJob long-polls of one principal at once
  int max_uploads_per_minute = 30;              // UploadRun calls of one principal per minute
  int max_schedules_per_principal = 100;        // schedules one principal created
  double min_schedule_interval_seconds = 300;   // shortest time between two fires of a cron
  int max_streams_per_connection = 256;         // concurrent calls on one client connection
  int grpc_memory_mib = 512;                    // gRPC's buffers (ResourceQuota), MiB
  double migration_lock_timeout_seconds = 10;   // a migration's wait for a table lock; 0 = none
  double migration_statement_timeout_seconds = 600;  // one migration statement; 0 = none
  double metrics_interval_seconds = 15;         // warpwatch_jobs / _workers gauges refresh period
  double schedule_interval_seconds = 10;        // how often the scheduler looks for due schedules
  double schedule_missed_grace_seconds = 300;   // a due time older than this is "missed"
  // Test only (docs/operations.md "Schedules"): the scheduler's clock runs
  // schedule_test_clock_speed times faster from the unix time schedule_test_clock_anchor on.
  // Anchor 0 = the real clock.
  double schedule_test_clock_anchor = 0;
  double schedule_test_clock_speed = 1;
  double worker_retention_hours = 168;          // workers unseen this long (no job) are pruned
  int sample_retention_days = 90;               // raw samples of older runs dropped; 0 keeps them
  int summary_retention_days = 365;             // older summaries folded into weeks; 0 keeps them
  std::string log_level = "info";               // spdlog level name
  // Safe defaults: without tokens every caller is admin, and bearer tokens over plaintext can be
  // read off the wire, so both are refused on a non-loopback --listen unless explicitly allowed.
  bool allow_open = false;              // --allow-open: no --tokens-file on a network address
  bool allow_plaintext_tokens = false;  // --allow-plaintext-tokens: tokens without TLS on one
};

// Whether `listen` (host:port, [v6]:port or unix:path) only accepts connections from this host.
bool IsLoopbackAddress(const std::string& listen);

// Registers every flag of `config` on `app`, with defaults taken from `config` and the
// environment variable WARPWATCH_<FLAG_IN_UPPER_SNAKE> as fallback. `config` must outlive parsing.
void AddServerFlags(CLI::App& app, ServerConfig* config);

// INVALID_ARGUMENT naming the flag for settings that cannot work (no database URL, a TLS key
// without a certificate, a client CA without TLS, non-positive sizes, an unknown log level ...)
// or are unsafe without saying so: no --tokens-file on a non-loopback --listen without
// --allow-open; --tokens-file without TLS on one without --allow-plaintext-tokens.
// Files are not opened here; their readers report their own errors.
Status ValidateServerConfig(const ServerConfig& config);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_CONFIG_SERVER_CONFIG_H_
