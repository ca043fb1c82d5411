// File: worker/daemon/serve_options.h
// `warpwatch-worker serve` flags: the options struct, the subcommand that fills it, and the parsers
// of --gpus and --labels. CUDA-free (the end-to-end replay worker uses the same flags).
#ifndef WARPWATCH_WORKER_DAEMON_SERVE_OPTIONS_H_
#define WARPWATCH_WORKER_DAEMON_SERVE_OPTIONS_H_

#include <map>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "worker/client/client_options.h"
#include "worker/contention/contention_options.h"
#include "worker/daemon/daemon_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::worker {

struct ServeOptions {
  ClientOptions client;                    // --server, --token-file / WARPWATCH_TOKEN, --tls-ca
  std::string token_file;                  // --token-file (its content lands in client.token)
  std::string gpus = "all";                // "all" or CUDA ordinals "0,1"
  std::string labels;                      // "k=v,k2=v2"
  std::string metrics_listen = ":9465";    // empty disables /metrics
  double metrics_interval_seconds = 1;     // telemetry sampling while a job runs
  std::string log_level = "info";
  DaemonOptions daemon;                    // --grace-seconds, --acquire-wait-seconds, backoff
  // --test-contention-gib / --test-contention-duty (hidden, TEST ONLY): every job's child runs the
  // contention generator beside its points (worker/contention/contention_options.h).
  ContentionOptions test_contention;
};

// Adds the `serve` subcommand with every flag of ServeOptions; `options` must outlive parsing.
// Returns the subcommand (test `*serve` after parsing).
CLI::App* AddServeCommand(CLI::App& app, ServeOptions* options);

// "all" -> every ordinal below device_count; "0,2" -> those (each < device_count, no duplicates).
// INVALID_ARGUMENT naming --gpus otherwise.
StatusOr<std::vector<int>> ParseGpuList(const std::string& gpus, int device_count);

// "k=v,k2=v2" (empty = none); keys non-empty and unique. INVALID_ARGUMENT naming --labels.
StatusOr<std::map<std::string, std::string>> ParseLabels(const std::string& labels);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_SERVE_OPTIONS_H_
