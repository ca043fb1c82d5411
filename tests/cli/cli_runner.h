// File: tests/cli/cli_runner.h
// Runs the built `warpwatch` binary (or any command line) the way a user's shell would, for the
// CLI tests: exit code, stdout and stderr, with the environment the CLI reads cleared first.
#ifndef WARPWATCH_TESTS_CLI_CLI_RUNNER_H_
#define WARPWATCH_TESTS_CLI_CLI_RUNNER_H_

#include <sys/wait.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace warpwatch::testing {

struct CliResult {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string out;
  std::string err;
};

inline std::string ReadFileText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `command` (shell words, led by any NAME=VALUE assignments) under `env` with
// WARPWATCH_SERVER, WARPWATCH_TOKEN and WARPWATCH_TOKEN_FILE removed, stdin closed, and stdout and
// stderr captured in `base`.out and `base`.err (readable while the command runs: a test can wait
// for a line a long-running command prints). Thread-safe for distinct `base`s.
inline CliResult RunCommandInto(const std::string& base, const std::string& command) {
  const std::string full = "env -u WARPWATCH_SERVER -u WARPWATCH_TOKEN -u WARPWATCH_TOKEN_FILE " +
                           command + " >" + base + ".out 2>" + base + ".err </dev/null";
  const int status = std::system(full.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFileText(base + ".out");
  result.err = ReadFileText(base + ".err");
  return result;
}

// RunCommandInto with files named dir/runN, N counting calls. Thread-safe.
inline CliResult RunCommand(const std::string& dir, const std::string& command) {
  static std::atomic<int> counter{0};
  return RunCommandInto(dir + "/run" + std::to_string(++counter), command);
}

}  // namespace warpwatch::testing

#endif  // WARPWATCH_TESTS_CLI_CLI_RUNNER_H_
