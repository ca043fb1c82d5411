// The fault-proof executor: runs points in a child process (`warpwatch-worker exec`) so that a
// crash, a sticky CUDA error or a hang costs one point, not the run (or the daemon).
#ifndef WARPWATCH_WORKER_EXECUTOR_PROCESS_EXECUTOR_H_
#define WARPWATCH_WORKER_EXECUTOR_PROCESS_EXECUTOR_H_

#include <string>
#include <vector>

#include "worker/executor/executor.h"

namespace warpwatch::worker {

struct ProcessExecutorOptions {
  // The child command; it speaks exec_protocol.proto on stdin/stdout. Production:
  // {"/path/to/warpwatch-worker", "exec"}.
  std::vector<std::string> child_argv;
  // Added to the point timeout before the watchdog kills a child: Setup, verification, warm-up
  // and the counter pass run outside the sampling loop's own timeout.
  double grace_seconds = 30;
};

// Protocol: the parent sends the points not yet done to a fresh child, which reports
// point_started / measurement for each. When the child dies (signal, non-zero exit, or an exit
// after reporting a sticky CUDA error), the point it had started and not reported is recorded
// FAILED with how the child ended, and the rest continue in a new child. The watchdog kills a child
// whose point runs past its timeout + grace; that point is FAILED "timed out after N s". A child
// that dies before starting any point costs the next point (so every child makes progress).
// A `fatal` event ends Execute with UNAVAILABLE carrying the child's message.
//
// Thread-safety: one Execute at a time per instance. Execute ignores SIGPIPE process-wide (a child
// that dies before reading its request must not kill the parent).
class ProcessExecutor : public Executor {
 public:
  explicit ProcessExecutor(ProcessExecutorOptions options) : options_(std::move(options)) {}

  StatusOr<ExecutionResult> Execute(const ExecutionRequest& request,
                                    const ExecutionCallbacks& callbacks) override;

 private:
  ProcessExecutorOptions options_;
};

// Path of the running binary (/proc/self/exe resolved), for child_argv.
StatusOr<std::string> SelfExecutablePath();

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_PROCESS_EXECUTOR_H_
