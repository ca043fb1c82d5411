// File: tests/support/detail/process.cc
// fork + setgid/setuid + exec for the PostgreSQL test harness.
#include "tests/support/detail/process.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace warpwatch::testing::detail {
namespace {

constexpr const char* kDebianUser = "postgres";
constexpr const char* kFallbackUser = "warpwatch-test";

bool LookUp(const char* name, RunAsUser* user) {
  struct passwd pwd;
  struct passwd* result = nullptr;
  char buf[4096];
  if (getpwnam_r(name, &pwd, buf, sizeof(buf), &result) != 0 || result == nullptr) return false;
  user->switch_user = true;
  user->uid = pwd.pw_uid;
  user->gid = pwd.pw_gid;
  user->name = name;
  return true;
}

std::string ErrnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

StatusOr<RunAsUser> ChildUser() {
  RunAsUser user;
  if (geteuid() != 0) return user;
  if (LookUp(kDebianUser, &user)) return user;
  if (LookUp(kFallbackUser, &user)) return user;
  const std::string log = "/tmp/warpwatch-test-useradd.log";
  RunAsUser self;
  Status s = RunToCompletion({"/usr/sbin/useradd", "--system", "--no-create-home", "--shell",
                              "/usr/sbin/nologin", kFallbackUser},
                             self, log, std::chrono::seconds(30));
  if (!s.ok() && !LookUp(kFallbackUser, &user)) {
    return s.Annotate("creating system user warpwatch-test");
  }
  if (!LookUp(kFallbackUser, &user))
    return InternalError("user warpwatch-test missing after useradd");
  return user;
}

Status ChownTo(const std::string& path, const RunAsUser& user, bool recursive) {
  if (!user.switch_user) return OkStatus();
  if (lchown(path.c_str(), user.uid, user.gid) != 0)
    return InternalError(ErrnoText("chown " + path));
  if (!recursive) return OkStatus();
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (lchown(it->path().c_str(), user.uid, user.gid) != 0) {
      return InternalError(ErrnoText("chown " + it->path().string()));
    }
  }
  if (ec) return InternalError("walking " + path + ": " + ec.message());
  return OkStatus();
}

StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const RunAsUser& user,
                      const std::string& log_path, bool die_with_parent) {
  if (argv.empty()) return InvalidArgumentError("empty argv");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log_fd < 0) return InternalError(ErrnoText("open " + log_path));
  if (user.switch_user) fchown(log_fd, user.uid, user.gid);
  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(log_fd);
    return InternalError(ErrnoText("fork"));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    setpgid(0, 0);  // Ctrl-C on the test does not reach the server twice.
    if (user.switch_user) {
      if (setgroups(0, nullptr) != 0 || setgid(user.gid) != 0 || setuid(user.uid) != 0) _exit(126);
    }
    // After the uid change: changing credentials clears the parent-death signal.
    if (die_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGQUIT);
      if (getppid() != parent) _exit(125);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  close(log_fd);
  return pid;
}

Status RunToCompletion(const std::vector<std::string>& argv, const RunAsUser& user,
                       const std::string& log_path, std::chrono::seconds timeout) {
  ASSIGN_OR_RETURN(pid_t pid, Spawn(argv, user, log_path, /*die_with_parent=*/true));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (true) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return InternalError(ErrnoText("waitpid"));
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return InternalError(argv[0] + " timed out; log: " + FileTail(log_path));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return OkStatus();
  std::ostringstream msg;
  msg << argv[0] << " failed (";
  if (WIFEXITED(status)) {
    msg << "exit " << WEXITSTATUS(status);
  } else {
    msg << "signal " << WTERMSIG(status);
  }
  msg << "); log: " << FileTail(log_path);
  return InternalError(msg.str());
}

std::string FileTail(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "(no log)";
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (content.size() > max_bytes) content = content.substr(content.size() - max_bytes);
  return content;
}

}  // namespace warpwatch::testing::detail
