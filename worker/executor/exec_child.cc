// The executor's child: measures points and streams the results.
#include "worker/executor/exec_child.h"

#include <cstdio>
#include <cstdlib>

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

}  // namespace

int RunExecChild(int in_fd, int out_fd) {
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
  v1::RunEnvironment env = (*engine)->environment();
  for (const auto& [k, v] : request.labels()) (*env.mutable_labels())[k] = v;
  *event.mutable_environment() = env;
  if (!Send(out_fd, event)) return kExecExitFatal;

  const EngineSettings settings = ResolveSettings(request.settings());
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
  DeviceConditions end = (*engine)->telemetry().ReadConditions();
  event.Clear();
  event.mutable_end()->set_temperature_c_end(end.temperature_c);
  event.mutable_end()->set_power_w_end(end.power_w);
  event.mutable_end()->set_counters_note((*engine)->environment().counters_note());
  Send(out_fd, event);
  return kExecExitDone;
}

}  // namespace warpwatch::worker
