// File: tests/support/detail/process.h
// Runs programs for the test harness, as an unprivileged user when the tests run as root
// (PostgreSQL refuses to run as root).
#ifndef WARPWATCH_TESTS_SUPPORT_DETAIL_PROCESS_H_
#define WARPWATCH_TESTS_SUPPORT_DETAIL_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::testing::detail {

// Who child processes run as: the current user, or (when euid is 0) Debian's `postgres` user, or a
// system user `warpwatch-test` created on first use.
struct RunAsUser {
  bool switch_user = false;  // false: run as the current user
  uid_t uid = 0;
  gid_t gid = 0;
  std::string name;
};

// Resolves (and if needed creates) the user described above. Not thread-safe on first call.
StatusOr<RunAsUser> ChildUser();

// Gives `path` (recursively when `recursive`) to `user`. No-op when !user.switch_user.
Status ChownTo(const std::string& path, const RunAsUser& user, bool recursive);

// Starts argv[0] (an absolute path) as `user`, stdout and stderr appended to `log_path`.
// With `die_with_parent`, the child gets SIGQUIT when the calling thread exits, so a crashed test
// never leaves a server behind. Returns the child's pid.
StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const RunAsUser& user,
                      const std::string& log_path, bool die_with_parent);

// Spawn, then wait for exit. INTERNAL with the log's tail when it exits non-zero or outlives
// `timeout` (then it is killed).
Status RunToCompletion(const std::vector<std::string>& argv, const RunAsUser& user,
                       const std::string& log_path, std::chrono::seconds timeout);

// Last `max_bytes` of a file, for error messages.
std::string FileTail(const std::string& path, size_t max_bytes = 2000);

}  // namespace warpwatch::testing::detail

#endif  // WARPWATCH_TESTS_SUPPORT_DETAIL_PROCESS_H_
