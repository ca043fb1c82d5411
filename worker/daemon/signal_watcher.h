// File: worker/daemon/signal_watcher.h
// Turns SIGTERM and SIGINT into a call on an ordinary thread (self-pipe), so the daemon's shutdown
// path may lock and log. Signals are not blocked, so children started with exec get default
// handling back.
#ifndef WARPWATCH_WORKER_DAEMON_SIGNAL_WATCHER_H_
#define WARPWATCH_WORKER_DAEMON_SIGNAL_WATCHER_H_

#include <functional>
#include <thread>

#include "common/status/status.h"

namespace warpwatch::worker {

// At most one per process. Installs the handlers in Start(); the destructor restores the default
// dispositions and joins the thread.
class SignalWatcher {
 public:
  // `on_signal(signo)` runs on the watcher's thread, once per signal received.
  explicit SignalWatcher(std::function<void(int)> on_signal);
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  Status Start();

 private:
  void Loop();

  std::function<void(int)> on_signal_;
  std::thread thread_;
  int stop_pipe_[2] = {-1, -1};  // written by the destructor to end Loop
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_DAEMON_SIGNAL_WATCHER_H_
