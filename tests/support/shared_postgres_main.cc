// File: tests/support/shared_postgres_main.cc
// warpwatch-test-postgres --owner PID: starts one throwaway PostgreSQL for a whole test run and
// prints its port once it answers. tests/run.sh and tests/run_sanitized.sh export that port as
// WARPWATCH_TEST_POSTGRES_PORT, so that the tests' SharedPostgres() attaches to it instead of
// starting a server per test process (a start costs ~0.5 s, and ctest runs each test in a process
// of its own). Each test still gets a database of its own.
//
// The server lives in a background process (a new session) that removes it, data and all, once
// PID has exited or it receives SIGTERM; PID is the script's shell (tests/run.sh execs ctest, so
// the shell's pid is ctest's). Exit status 0 once the port is printed, 1 if the server did not
// start (the reason on stderr), 2 for bad arguments.
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "tests/support/postgres_server.h"

namespace {

volatile std::sig_atomic_t g_stop = 0;

void OnTerm(int) { g_stop = 1; }

bool Alive(pid_t pid) { return kill(pid, 0) == 0 || errno == EPERM; }

void WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// The background process: starts the server, reports "port\n" or "error: ...\n" on `report`,
// then keeps the server until `owner` exits or SIGTERM arrives.
int Serve(pid_t owner, int report) {
  std::signal(SIGTERM, OnTerm);
  std::signal(SIGINT, OnTerm);
  std::signal(SIGHUP, SIG_IGN);
  auto server = warpwatch::testing::PostgresServer::Create();
  if (!server.ok()) {
    WriteAll(report, "error: " + server.status().ToString() + "\n");
    return 1;
  }
  WriteAll(report, std::to_string((*server)->port()) + "\n");
  close(report);
  while (!g_stop && Alive(owner)) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  server->reset();  // immediate shutdown, temp dir removed
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--owner") != 0) {
    std::fprintf(stderr, "usage: %s --owner PID\n", argv[0]);
    return 2;
  }
  char* end = nullptr;
  const long owner = std::strtol(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0' || owner <= 0 || !Alive(static_cast<pid_t>(owner))) {
    std::fprintf(stderr, "%s: --owner %s is not a running process\n", argv[0], argv[2]);
    return 2;
  }
  int fds[2];
  if (pipe(fds) != 0) {
    std::perror("pipe");
    return 1;
  }
  const pid_t child = fork();
  if (child < 0) {
    std::perror("fork");
    return 1;
  }
  if (child == 0) {
    close(fds[0]);
    setsid();  // not in the script's process group: a ^C reaches ctest, the owner check us
    // Hold none of the caller's descriptors (a $(...) or a pipe waits for every writer to close;
    // the server's log is in its temp dir, a failure to start comes back through `report`).
    std::freopen("/dev/null", "r", stdin);
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    _exit(Serve(static_cast<pid_t>(owner), fds[1]));
  }
  close(fds[1]);
  std::string line;
  pollfd pfd{fds[0], POLLIN, 0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  char buf[4096];
  while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    if (poll(&pfd, 1, 200) <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the background process exited without a word
    line.append(buf, static_cast<size_t>(n));
  }
  if (line.empty() || line.rfind("error: ", 0) == 0 || line.find('\n') == std::string::npos) {
    std::fprintf(stderr, "%s: the shared PostgreSQL did not start%s%s", argv[0],
                 line.empty() ? " (no answer within 120 s)\n" : ": ", line.c_str());
    kill(child, SIGTERM);
    return 1;
  }
  std::fputs(line.c_str(), stdout);
  return 0;
}
