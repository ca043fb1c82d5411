// Runs a command line through the shell and keeps what it printed: the worker's binary tests call
// `warpwatch-worker` (and the toolkit's tools) as a user would.
#ifndef WARPWATCH_TESTS_WORKER_SUPPORT_SHELL_COMMAND_H_
#define WARPWATCH_TESTS_WORKER_SUPPORT_SHELL_COMMAND_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace warpwatch::worker {

struct CommandOutput {
  int exit_code = -1;  // -1 when the shell could not start or the command died of a signal
  std::string text;    // what the command wrote where `command` sends it (add 2>&1 for stderr)
};

// Blocks until the command exits. Not for untrusted input: `command` is given to /bin/sh as is.
inline CommandOutput RunShellCommand(const std::string& command) {
  CommandOutput out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.text.append(buf, n);
  const int status = ::pclose(pipe);
  out.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace warpwatch::worker

#endif  // WARPWATCH_TESTS_WORKER_SUPPORT_SHELL_COMMAND_H_
