// File: worker/daemon/serve_command.cc
#include "worker/daemon/serve_command.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>

#include "worker/client/channel.h"
#include "worker/client/worker_client.h"
#include "worker/daemon/daemon.h"
#include "worker/daemon/signal_watcher.h"
#include "worker/metrics/metrics_exposer.h"
#include "worker/metrics/worker_metrics.h"

namespace warpwatch::worker {
namespace {

std::string Hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

}  // namespace

int RunServe(const ServeOptions& options, const ServeHooks& hooks) {
  spdlog::set_default_logger(spdlog::default_logger()->clone("warpwatch-worker"));
  spdlog::set_level(spdlog::level::from_str(options.log_level));

  StatusOr<std::map<std::string, std::string>> labels = ParseLabels(options.labels);
  if (!labels.ok()) {
    spdlog::error("{}", labels.status().message());
    return kServeExitUsage;
  }
  Status contention = ValidateContentionOptions(options.test_contention);
  if (!contention.ok()) {
    spdlog::error("{}", contention.message());
    return kServeExitUsage;
  }
  if (options.test_contention.enabled()) {
    spdlog::warn(
        "TEST CONTENTION: every job runs beside a DRAM copy between two {} GiB buffers "
        "(engine {}, duty {}): its timings are slowed on purpose; its runs carry "
        "test_contention_* labels",
        *options.test_contention.gib,
        ContentionEngineName(options.test_contention.effective_engine()),
        options.test_contention.effective_duty());
  }
  StatusOr<std::vector<v1::Device>> devices = hooks.list_devices();
  if (!devices.ok()) {
    spdlog::error("no GPU to serve: {}", devices.status().message());
    return kServeExitUsage;
  }
  StatusOr<std::vector<int>> ordinals =
      ParseGpuList(options.gpus, static_cast<int>(devices->size()));
  if (!ordinals.ok()) {
    spdlog::error("{}", ordinals.status().message());
    return kServeExitUsage;
  }

  ClientOptions client_options = options.client;
  client_options.reconnect_initial_seconds = options.daemon.backoff.initial_seconds;
  client_options.reconnect_max_seconds = options.daemon.backoff.max_seconds;
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeServerChannel(client_options);
  if (!channel.ok()) {
    spdlog::error("{}", channel.status().ToString());
    return kServeExitUsage;
  }
  WorkerClient client(*channel, client_options);

  const std::string hostname = Hostname();
  WorkerMetrics metrics(hostname);
  std::vector<std::unique_ptr<Executor>> executors;
  std::vector<GpuSlot> gpus;
  for (int ordinal : *ordinals) {
    const v1::Device& device = (*devices)[ordinal];
    executors.push_back(hooks.make_executor(device));
    gpus.push_back(GpuSlot{device, executors.back().get()});
    metrics.AddDevice(device, hooks.open_telemetry ? hooks.open_telemetry(device) : nullptr);
    spdlog::info("serving GPU {}: {} {}", device.index(), device.name(), device.uuid());
  }
  std::unique_ptr<prometheus::Exposer> exposer;
  if (!options.metrics_listen.empty()) {
    StatusOr<std::unique_ptr<prometheus::Exposer>> exposed =
        ExposeMetrics(options.metrics_listen, metrics.registry());
    if (!exposed.ok()) {
      spdlog::error("{}", exposed.status().ToString());
      return kServeExitError;
    }
    exposer = std::move(exposed).value();
  }
  metrics.StartSampling(std::chrono::milliseconds(
      static_cast<int64_t>(options.metrics_interval_seconds * 1000)));

  WorkerIdentity identity;
  identity.hostname = hostname;
  identity.labels = *labels;
  identity.version = hooks.version;
  identity.families = hooks.families;
  Daemon daemon(&client, identity, gpus, options.daemon, &metrics);
  SignalWatcher signals([&daemon](int signo) {
    spdlog::info("signal {} received", signo);
    daemon.RequestShutdown();
  });
  Status started = signals.Start();
  if (!started.ok()) {
    spdlog::error("{}", started.ToString());
    return kServeExitError;
  }
  Status served = daemon.Run();
  metrics.StopSampling();
  if (!served.ok()) {
    spdlog::error("{}", served.ToString());
    return kServeExitError;
  }
  return kServeExitOk;
}

}  // namespace warpwatch::worker
