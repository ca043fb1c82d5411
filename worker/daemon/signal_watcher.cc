// File: worker/daemon/signal_watcher.cc
#include "worker/daemon/signal_watcher.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace warpwatch::worker {
namespace {

int g_signal_pipe[2] = {-1, -1};  // written by the handler (async-signal-safe), read by Loop

void OnSignal(int signo) {
  int saved = errno;
  unsigned char byte = static_cast<unsigned char>(signo);
  [[maybe_unused]] ssize_t n = ::write(g_signal_pipe[1], &byte, 1);
  errno = saved;
}

Status MakePipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return InternalError(std::string("pipe2: ") + std::strerror(errno));
  }
  return OkStatus();
}

}  // namespace

SignalWatcher::SignalWatcher(std::function<void(int)> on_signal)
    : on_signal_(std::move(on_signal)) {}

Status SignalWatcher::Start() {
  RETURN_IF_ERROR(MakePipe(g_signal_pipe));
  RETURN_IF_ERROR(MakePipe(stop_pipe_));
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGINT, &action, nullptr);
  thread_ = std::thread([this] { Loop(); });
  return OkStatus();
}

SignalWatcher::~SignalWatcher() {
  if (!thread_.joinable()) return;
  ::signal(SIGTERM, SIG_DFL);
  ::signal(SIGINT, SIG_DFL);
  unsigned char byte = 0;
  [[maybe_unused]] ssize_t n = ::write(stop_pipe_[1], &byte, 1);
  thread_.join();
  for (int fd : {g_signal_pipe[0], g_signal_pipe[1], stop_pipe_[0], stop_pipe_[1]}) ::close(fd);
  g_signal_pipe[0] = g_signal_pipe[1] = -1;
}

void SignalWatcher::Loop() {
  while (true) {
    pollfd fds[2] = {{g_signal_pipe[0], POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    unsigned char byte = 0;
    while (::read(g_signal_pipe[0], &byte, 1) == 1) on_signal_(byte);
  }
}

}  // namespace warpwatch::worker
