// `warpwatch-worker run`: expands the flags into points, runs them through an Executor with a live
// progress line, prints the summary table and writes the RunResult JSON. CUDA-free: the device
// count and the executor are handed in (tests pass fakes).
#ifndef WARPWATCH_WORKER_CLI_RUN_COMMAND_H_
#define WARPWATCH_WORKER_CLI_RUN_COMMAND_H_

#include <functional>
#include <ostream>
#include <string>

#include "common/status/status.h"
#include "worker/cli/run_options.h"
#include "worker/executor/executor.h"

namespace warpwatch::worker {

// Exit codes of `run`.
inline constexpr int kRunExitOk = 0;            // every point OK or SKIPPED
inline constexpr int kRunExitUsage = 1;         // bad flags or spec, or the run could not proceed
inline constexpr int kRunExitNoGpu = 2;         // no CUDA device (or not the one asked for)
inline constexpr int kRunExitPointsFailed = 3;  // the run finished; some points FAILED

struct RunEnvironmentHooks {
  std::function<StatusOr<int>()> device_count;  // UNAVAILABLE "no CUDA device: ..." without one
  Executor* executor = nullptr;
  bool progress_is_tty = false;                 // rewrite one line (\r) instead of one per point
};

// `command_line` is recorded in RunResult.command. Tables go to `out`, progress and errors to
// `err`. options.contention is validated here (kRunExitUsage before anything runs; also with
// --counters); carrying it to the child is the executor's business (main.cc puts it on the child's
// argv).
int RunCommand(const RunOptions& options, const std::string& command_line,
               const RunEnvironmentHooks& hooks, std::ostream& out, std::ostream& err);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLI_RUN_COMMAND_H_
