// A child process with pipes on its stdin and stdout (stderr is inherited), for the executor.
#ifndef WARPWATCH_WORKER_EXECUTOR_CHILD_PROCESS_H_
#define WARPWATCH_WORKER_EXECUTOR_CHILD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::worker {

// Owns one child. The destructor kills (SIGKILL) and reaps a child still running, and closes the
// pipes. Not thread-safe.
class ChildProcess {
 public:
  // fork + execv(argv[0], argv). The child's stdout is a pipe the parent reads (stdin_fd /
  // stdout_fd below); the child's stdin is a pipe the parent writes. Both parent ends are
  // non-blocking, so that a child that stops reading or writing can never block the parent
  // outside its poll loop. UNAVAILABLE when fork or pipe fails; an exec failure shows as exit
  // code 127.
  static StatusOr<std::unique_ptr<ChildProcess>> Start(const std::vector<std::string>& argv);

  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  int stdin_fd() const { return stdin_fd_; }     // write end, non-blocking; -1 once closed
  int stdout_fd() const { return stdout_fd_; }   // read end, non-blocking
  void CloseStdin();

  void Kill();                                   // SIGKILL; harmless when already dead
  // Blocks until the child exits; returns how it ended, e.g. "exit code 1",
  // "signal 11 (Segmentation fault)". Idempotent.
  std::string Wait();
  bool exited_normally_with_zero() const { return waited_ && raw_status_ == 0; }

 private:
  ChildProcess() = default;

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  bool waited_ = false;
  int raw_status_ = 0;
  std::string how_;
};

// "exit code N" or "signal N (name)" for a waitpid status.
std::string DescribeWaitStatus(int status);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_EXECUTOR_CHILD_PROCESS_H_
