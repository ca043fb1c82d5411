// `warpwatch-worker run`.
#include "worker/cli/run_command.h"

#include <google/protobuf/util/time_util.h>

#include "common/catalog/plan.h"
#include "worker/cli/result_json.h"
#include "worker/cli/summary_table.h"

namespace warpwatch::worker {
namespace {

using google::protobuf::util::TimeUtil;

const char* StatusWord(v1::PointStatus s) {
  switch (s) {
    case v1::POINT_STATUS_OK: return "ok";
    case v1::POINT_STATUS_FAILED: return "FAILED";
    case v1::POINT_STATUS_SKIPPED: return "skipped";
    default: return "?";
  }
}

}  // namespace

int RunCommand(const RunOptions& options, const std::string& command_line,
               const RunEnvironmentHooks& hooks, std::ostream& out, std::ostream& err) {
  Status contention = ValidateContentionOptions(options.contention);
  if (!contention.ok()) {
    err << "warpwatch-worker run: " << contention.message() << "\n";
    return kRunExitUsage;
  }
  if (options.contention.enabled() && options.counters) {
    err << "warpwatch-worker run: --counters with " << kContentionGibFlag
        << ": the range profiler would profile the contention copy too; counters cannot be "
           "collected under the test-only contention\n";
    return kRunExitUsage;
  }
  StatusOr<v1::JobSpec> spec = BuildJobSpec(options);
  if (!spec.ok()) {
    err << "warpwatch-worker run: " << spec.status().message() << "\n";
    return kRunExitUsage;
  }
  StatusOr<std::vector<catalog::Point>> points = catalog::ExpandSpec(*spec, catalog::PlanLimits{});
  if (!points.ok()) {
    err << "warpwatch-worker run: " << points.status().message() << "\n";
    return kRunExitUsage;
  }
  StatusOr<int> devices = hooks.device_count();
  if (!devices.ok()) {
    err << "warpwatch-worker run: " << devices.status().message()
        << "\n  (this command needs an NVIDIA GPU and driver; `warpwatch-worker list` works "
           "without one)\n";
    return kRunExitNoGpu;
  }
  if (options.device < 0 || options.device >= *devices) {
    err << "warpwatch-worker run: no CUDA device " << options.device << " (this host has "
        << *devices << ")\n";
    return kRunExitNoGpu;
  }

  if (options.contention.enabled()) {
    err << "TEST CONTENTION: a DRAM copy between two " << *options.contention.gib
        << " GiB buffers (engine " << ContentionEngineName(options.contention.effective_engine())
        << ") runs beside the suite (duty " << options.contention.effective_duty()
        << "): every timing of this run is slowed on purpose\n";
  }
  ExecutionRequest request;
  request.device_index = options.device;
  request.settings = spec->measurement();
  request.points = *points;
  const size_t total = points->size();
  size_t done = 0;
  ExecutionCallbacks callbacks;
  callbacks.on_environment = [&](const v1::RunEnvironment& env) {
    err << "device " << env.device().index() << ": " << env.device().name() << " ("
        << env.device().uuid() << "), driver " << env.driver_version() << ", clocks from "
        << env.clock_source() << "\n";
  };
  callbacks.on_point_started = [&](size_t index, const catalog::Point& p) {
    std::string line = FormatProgress(index + 1, total, p.Canonical()) + " ...";
    if (hooks.progress_is_tty) {
      err << "\r\033[K" << line << std::flush;
    }
  };
  callbacks.on_measurement = [&](size_t index, const v1::Measurement& m) {
    ++done;
    std::string line = FormatProgress(index + 1, total, m.case_().canonical()) + " " +
                       StatusWord(m.status());
    if (m.status() == v1::POINT_STATUS_OK) line += " " + FormatSeconds(m.stats().median());
    if (!m.error().empty()) line += ": " + m.error();
    if (hooks.progress_is_tty) {
      err << "\r\033[K" << line << "\n" << std::flush;
    } else {
      err << line << "\n" << std::flush;
    }
  };

  v1::RunResult result;
  result.set_command(command_line);
  *result.mutable_spec() = *spec;
  *result.mutable_started_at() = TimeUtil::GetCurrentTime();
  StatusOr<ExecutionResult> run = hooks.executor->Execute(request, callbacks);
  *result.mutable_finished_at() = TimeUtil::GetCurrentTime();
  if (!run.ok()) {
    err << "warpwatch-worker run: " << run.status().message() << "\n";
    return run.status().code() == StatusCode::kUnavailable ? kRunExitNoGpu : kRunExitUsage;
  }
  *result.mutable_environment() = run->environment;
  bool any_failed = false;
  for (const v1::Measurement& m : run->measurements) {
    *result.add_measurements() = m;
    any_failed = any_failed || m.status() == v1::POINT_STATUS_FAILED;
  }
  out << FormatSummaryTable(run->measurements);
  if (!run->environment.counters_note().empty()) {
    out << "counters: " << run->environment.counters_note() << "\n";
  }
  if (!options.out.empty()) {
    Status written = WriteRunResultFile(result, options.out);
    if (!written.ok()) {
      err << "warpwatch-worker run: " << written.message() << "\n";
      return kRunExitUsage;
    }
    err << "wrote " << options.out << " (" << done << " points)\n";
  }
  return any_failed ? kRunExitPointsFailed : kRunExitOk;
}

}  // namespace warpwatch::worker
