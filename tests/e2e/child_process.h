// File: tests/e2e/child_process.h
// A program the end-to-end tests run (server, replay worker): started with its output in a log
// file, signalled, waited for with a timeout, and SIGKILLed when the test forgets it.
#ifndef WARPWATCH_TESTS_E2E_CHILD_PROCESS_H_
#define WARPWATCH_TESTS_E2E_CHILD_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::e2e {

// Not thread-safe; use from the thread that started it (it dies with that thread).
class ChildProcess {
 public:
  // argv[0] is an absolute path; stdout and stderr are appended to `log_path`.
  static StatusOr<std::unique_ptr<ChildProcess>> Start(const std::vector<std::string>& argv,
                                                       const std::string& log_path);
  ~ChildProcess();  // SIGKILL and reap if still running

  Status Signal(int signo);
  // The exit code, or 128 + signal when it was killed; DEADLINE_EXCEEDED if still running.
  StatusOr<int> Wait(std::chrono::milliseconds timeout);
  bool running();
  const std::string& log_path() const { return log_path_; }
  pid_t pid() const { return pid_; }
  // The log's tail, for failure messages.
  std::string LogTail() const;

 private:
  ChildProcess(pid_t pid, std::string log_path) : pid_(pid), log_path_(std::move(log_path)) {}

  pid_t pid_;
  std::string log_path_;
  bool reaped_ = false;
  int exit_code_ = 0;
};

}  // namespace warpwatch::e2e

#endif  // WARPWATCH_TESTS_E2E_CHILD_PROCESS_H_
