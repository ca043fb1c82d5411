// File: server/main.cc
// warpwatch-server: parses flags, configures logs, starts the server and waits for SIGTERM/SIGINT,
// then stops accepting, lets in-flight calls finish (--shutdown-grace-seconds) and exits 0.
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>

#include "server/config/server_config.h"
#include "server/logging/logging.h"
#include "server/runtime/server_runtime.h"

int main(int argc, char** argv) {
  using warpwatch::server::ServerConfig;
  ServerConfig config;
  CLI::App app(
      "warpwatch-server: the warpwatch gRPC API over PostgreSQL.\n"
      "Every flag can also be set through the WARPWATCH_* variable shown beside it.");
  warpwatch::server::AddServerFlags(app, &config);
  CLI11_PARSE(app, argc, argv);

  if (warpwatch::Status valid = warpwatch::server::ValidateServerConfig(config); !valid.ok()) {
    std::fprintf(stderr, "warpwatch-server: %s\n", valid.message().c_str());
    return 2;
  }
  warpwatch::server::ConfigureLogging(config.log_level);

  // Block the stop signals in every thread (threads inherit the mask), then wait for them here.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  auto runtime = warpwatch::server::ServerRuntime::Start(config);
  if (!runtime.ok()) {
    spdlog::critical("msg=\"cannot start\" error=\"{}\"",
                     warpwatch::server::LogEscape(runtime.status().ToString()));
    return 1;
  }
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  spdlog::info("msg=\"signal received\" signal={}",
               signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  (*runtime)->Shutdown(
      std::chrono::milliseconds(static_cast<int64_t>(config.shutdown_grace_seconds * 1000)));
  runtime->reset();
  return 0;
}
