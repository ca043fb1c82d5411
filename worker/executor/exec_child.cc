// The executor's child: measures points and streams the results.
#include "worker/executor/exec_child.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "worker/contention/contention_generator.h"
#include "worker/engine/point_engine.h"
#include "worker/executor/exec_protocol.pb.h"
#include "worker/executor/message_stream.h"

namespace warpwatch::worker {
namespace {

catalog::Point ToPoint(const v1::CaseKey& key) {
  catalog::Point p;
  p.family = key.family();
  p.variant = key.variant();
  for (const auto& [k, v] : key.params()) p.params[k] = v;
  return p;
}

bool Send(int fd, const internal::ExecEvent& event) {
  Status s = WriteMessage(fd, event);
  if (!s.ok()) std::fprintf(stderr, "warpwatch-worker exec: %s\n", s.ToString().c_str());
  return s.ok();
}

constexpr const char* kNoCountersUnderContention =
    "counters not collected: the test-only GPU contention is on, and the range profiler would "
    "profile its copy kernels as well";

// The test-only contention generator on `device`, its kernel hidden from the engine's traces.
StatusOr<std::unique_ptr<ContentionGenerator>> StartContention(const ContentionOptions& options,
                                                               int device, PointEngine& engine) {
  RETURN_IF_ERROR(ValidateContentionOptions(options));
  RETURN_IF_ERROR(engine.IgnoreKernelInTraces(ContentionGenerator::Kernel()));
  ContentionConfig config;
  config.buffer_bytes = options.buffer_bytes();
  config.duty = options.effective_duty();
  config.engine = options.effective_engine();
  ASSIGN_OR_RETURN(std::unique_ptr<ContentionGenerator> g,
                   ContentionGenerator::Start(device, config));
  const std::string engine_name(ContentionEngineName(config.engine));
  std::fprintf(stderr,
               "warpwatch-worker exec: TEST CONTENTION on: %s copies of %.1f MiB (%.1f us alone) "
               "between two %.3f GiB buffers, duty %.2f\n",
               engine_name.c_str(), static_cast<double>(g->chunk_bytes()) / (1 << 20),
               g->launch_seconds() * 1e6, *options.gib, options.effective_duty());
  return g;
}

}  // namespace

int RunExecChild(int in_fd, int out_fd, const ContentionOptions& contention) {
  internal::ExecRequest request;
  Status read = ReadMessage(in_fd, &request);
  if (!read.ok()) {
    std::fprintf(stderr, "warpwatch-worker exec: no request on stdin: %s\n",
                 read.ToString().c_str());
    return kExecExitFatal;
  }
  internal::ExecEvent event;
  StatusOr<std::unique_ptr<PointEngine>> engine = PointEngine::Open(request.device_index());
  if (!engine.ok()) {
    event.set_fatal(engine.status().message());
    Send(out_fd, event);
    return kExecExitFatal;
  }
  std::unique_ptr<ContentionGenerator> generator;
  if (contention.enabled()) {
    StatusOr<std::unique_ptr<ContentionGenerator>> started =
        StartContention(contention, request.device_index(), **engine);
    if (!started.ok()) {
      event.set_fatal("test contention: " + started.status().ToString());
      Send(out_fd, event);
      return kExecExitFatal;
    }
    generator = std::move(started).value();
  }
  v1::RunEnvironment env = (*engine)->environment();
  for (const auto& [k, v] : request.labels()) (*env.mutable_labels())[k] = v;
  for (const auto& [k, v] : ContentionLabels(contention)) (*env.mutable_labels())[k] = v;
  EngineSettings settings = ResolveSettings(request.settings());
  if (generator != nullptr && settings.collect_counters) {
    settings.collect_counters = false;
    env.set_counters_note(kNoCountersUnderContention);
  }
  *event.mutable_environment() = env;
  if (!Send(out_fd, event)) return kExecExitFatal;

  for (int i = 0; i < request.points_size(); ++i) {
    event.Clear();
    event.set_point_started(i);
    if (!Send(out_fd, event)) return kExecExitFatal;
    PointResult result = (*engine)->Measure(ToPoint(request.points(i)), settings);
    event.Clear();
    *event.mutable_measurement() = std::move(result.measurement);
    if (!Send(out_fd, event)) return kExecExitFatal;
    // The context is unusable: leave without touching CUDA again (destructors would only log
    // errors), so the parent continues in a fresh process.
    if (result.context_poisoned) {
      std::fflush(stderr);
      std::_Exit(kExecExitContextPoisoned);
    }
  }
  event.Clear();
  if (generator != nullptr) {
    ContentionReport report;
    (void)generator->Stop(&report);  // an error is in the report, its line and its labels
    generator.reset();
    std::fprintf(stderr, "warpwatch-worker exec: %s\n", FormatContentionReport(report).c_str());
    for (const auto& [k, v] : ContentionReportLabels(report)) {
      (*event.mutable_end()->mutable_labels())[k] = v;
    }
  }
  DeviceConditions end = (*engine)->telemetry().ReadConditions();
  event.mutable_end()->set_temperature_c_end(end.temperature_c);
  event.mutable_end()->set_power_w_end(end.power_w);
  event.mutable_end()->set_counters_note((*engine)->environment().counters_note());
  Send(out_fd, event);
  return kExecExitDone;
}

}  // namespace warpwatch::worker
