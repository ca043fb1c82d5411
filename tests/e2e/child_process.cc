// File: tests/e2e/child_process.cc
#include "tests/e2e/child_process.h"

#include <signal.h>
#include <sys/wait.h>

#include <thread>

#include "tests/support/detail/process.h"

namespace warpwatch::e2e {

StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(const std::vector<std::string>& argv,
                                                            const std::string& log_path) {
  testing::detail::RunAsUser me;  // the current user
  ASSIGN_OR_RETURN(pid_t pid, testing::detail::Spawn(argv, me, log_path, /*die_with_parent=*/true));
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, log_path));
}

ChildProcess::~ChildProcess() {
  if (running()) {
    ::kill(pid_, SIGKILL);
    Wait(std::chrono::seconds(10)).ok();
  }
}

Status ChildProcess::Signal(int signo) {
  if (reaped_) return FailedPreconditionError("process already exited");
  if (::kill(pid_, signo) != 0) return InternalError("kill failed");
  return OkStatus();
}

bool ChildProcess::running() {
  if (reaped_) return false;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  return !reaped_;
}

StatusOr<int> ChildProcess::Wait(std::chrono::milliseconds timeout) {
  auto end = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() >= end) {
      return DeadlineExceededError("process " + std::to_string(pid_) + " still running");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return exit_code_;
}

std::string ChildProcess::LogTail() const { return testing::detail::FileTail(log_path_, 4000); }

}  // namespace warpwatch::e2e
