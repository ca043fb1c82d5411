// The fault-proof executor: one child process at a time, restarted after a fault.
#include "worker/executor/process_executor.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>

#include "worker/executor/child_process.h"
#include "worker/executor/detail/failed_measurement.h"
#include "worker/executor/exec_protocol.pb.h"
#include "worker/executor/message_stream.h"

namespace warpwatch::worker {
namespace {

constexpr int kPollMillis = 100;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string FormatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

// State of one Execute() call across children.
struct RunState {
  const ExecutionRequest* request = nullptr;
  const ExecutionCallbacks* callbacks = nullptr;
  ExecutionResult result;
  bool have_environment = false;
  size_t next = 0;  // first point not yet recorded

  void Record(size_t index, v1::Measurement m) {
    result.measurements[index] = std::move(m);
    if (callbacks->on_measurement) callbacks->on_measurement(index, result.measurements[index]);
    next = index + 1;
  }
};

// What one child did.
struct ChildOutcome {
  long current = -1;          // point started and not reported when the child ended
  bool progressed = false;    // the child reported at least one point
  std::string failure;        // the parent's reason for ending the child (watchdog, protocol)
  Status fatal;               // the child said no point can run here
  bool cancelled = false;
};

bool IsCancelled(const ExecutionCallbacks& cb) { return cb.cancelled && cb.cancelled(); }

// Applies one event; false ends the child (fatal or protocol error, recorded in `out`).
bool HandleEvent(const internal::ExecEvent& event, size_t base, RunState& run, ChildOutcome& out,
                 double& deadline_origin) {
  switch (event.event_case()) {
    case internal::ExecEvent::kEnvironment:
      if (!run.have_environment) {
        run.result.environment = event.environment();
        run.have_environment = true;
        if (run.callbacks->on_environment) run.callbacks->on_environment(run.result.environment);
      }
      return true;
    case internal::ExecEvent::kPointStarted: {
      size_t index = base + static_cast<size_t>(event.point_started());
      if (event.point_started() < 0 || index >= run.result.measurements.size()) {
        out.failure = "worker child reported an unknown point index";
        return false;
      }
      out.current = static_cast<long>(index);
      deadline_origin = Now();
      if (run.callbacks->on_point_started) {
        run.callbacks->on_point_started(index, run.request->points[index]);
      }
      return true;
    }
    case internal::ExecEvent::kMeasurement:
      if (out.current < 0) {
        out.failure = "worker child reported a measurement for no started point";
        return false;
      }
      run.Record(static_cast<size_t>(out.current), event.measurement());
      out.current = -1;
      out.progressed = true;
      deadline_origin = Now();
      return true;
    case internal::ExecEvent::kFatal:
      out.fatal = UnavailableError(event.fatal());
      return false;
    case internal::ExecEvent::kEnd:
      run.result.environment.set_temperature_c_end(event.end().temperature_c_end());
      run.result.environment.set_power_w_end(event.end().power_w_end());
      if (!event.end().counters_note().empty()) {
        run.result.environment.set_counters_note(event.end().counters_note());
      }
      for (const auto& [k, v] : event.end().labels()) {
        (*run.result.environment.mutable_labels())[k] = v;
      }
      return true;
    default:
      out.failure = "worker child sent an empty event";
      return false;
  }
}

// The request's bytes, fed to the child's non-blocking stdin as the pipe takes them, from inside
// the poll loop: a child that stalls before reading then meets the watchdog instead of blocking
// the parent in write(2) (a request over the pipe's 64 KiB never fits at once).
class RequestWriter {
 public:
  RequestWriter(ChildProcess* child, std::string bytes) : child_(child), bytes_(std::move(bytes)) {}

  bool done() const { return child_->stdin_fd() < 0; }

  // Writes what the pipe accepts now; closes the child's stdin once all is written, or when the
  // child is gone (EPIPE: the read loop then sees the end of its stdout).
  void Pump() {
    while (!done() && written_ < bytes_.size()) {
      ssize_t n = ::write(child_->stdin_fd(), bytes_.data() + written_, bytes_.size() - written_);
      if (n > 0) {
        written_ += static_cast<size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return;  // the pipe is full: poll for POLLOUT
      } else {
        break;  // the child closed its stdin or died
      }
    }
    child_->CloseStdin();
  }

 private:
  ChildProcess* child_;
  std::string bytes_;
  size_t written_ = 0;
};

// Runs points [run.next, n) in one child until it ends, is killed, or finishes them.
StatusOr<ChildOutcome> RunOneChild(const ProcessExecutorOptions& options, double timeout,
                                   RunState& run) {
  ChildOutcome out;
  const size_t base = run.next;
  internal::ExecRequest request;
  request.set_device_index(run.request->device_index);
  *request.mutable_settings() = run.request->settings;
  for (size_t i = base; i < run.request->points.size(); ++i) {
    *request.add_points() = detail::ToCaseKey(run.request->points[i]);
  }
  for (const auto& [k, v] : run.request->labels) (*request.mutable_labels())[k] = v;
  ASSIGN_OR_RETURN(std::string frame, EncodeFrame(request));
  ASSIGN_OR_RETURN(std::unique_ptr<ChildProcess> child, ChildProcess::Start(options.child_argv));
  RequestWriter writer(child.get(), std::move(frame));
  writer.Pump();

  FrameReader reader;
  double deadline_origin = Now();
  bool open = true;
  while (open) {
    if (IsCancelled(*run.callbacks)) {
      out.cancelled = true;
      break;
    }
    if (Now() - deadline_origin > timeout) {
      out.failure = out.current >= 0
                        ? "timed out after " + FormatSeconds(timeout) +
                              " s (the watchdog killed the worker child)"
                        : "worker child made no progress for " + FormatSeconds(timeout) +
                              " s before starting this point (killed)";
      break;
    }
    // poll ignores a negative fd: stdin drops out once the request is written.
    pollfd pfds[2] = {{child->stdout_fd(), POLLIN, 0},
                      {writer.done() ? -1 : child->stdin_fd(), POLLOUT, 0}};
    int ready = ::poll(pfds, 2, kPollMillis);
    if (ready < 0 && errno != EINTR) return InternalError(std::string("poll: ") + strerror(errno));
    if (ready <= 0) continue;
    if (pfds[1].revents != 0) writer.Pump();
    if (pfds[0].revents == 0) continue;
    char buf[65536];
    while (true) {
      ssize_t got = ::read(child->stdout_fd(), buf, sizeof buf);
      if (got > 0) {
        reader.Feed(buf, static_cast<size_t>(got));
        continue;
      }
      if (got == 0) open = false;  // the child closed its stdout: it is ending
      if (got < 0 && errno == EINTR) continue;
      break;                       // EAGAIN: drained for now
    }
    std::string payload;
    bool keep = true;
    while (keep) {
      StatusOr<bool> frame = reader.Next(&payload);
      if (!frame.ok()) {
        out.failure = "corrupt stream from worker child: " + frame.status().message();
        keep = false;
        break;
      }
      if (!*frame) break;
      internal::ExecEvent event;
      if (!event.ParseFromString(payload)) {
        out.failure = "worker child sent a message that does not parse";
        keep = false;
        break;
      }
      keep = HandleEvent(event, base, run, out, deadline_origin);
    }
    if (!keep) break;
  }
  child->Kill();  // no-op for a child that ended by itself (already exited, not yet reaped: harmless)
  std::string how = child->Wait();
  if (out.failure.empty() && !out.cancelled && out.fatal.ok()) {
    if (out.current >= 0) {
      out.failure = "worker child died (" + how + ") while running this point";
    } else if (!out.progressed && run.next < run.request->points.size()) {
      out.failure = "worker child ended (" + how + ") before starting this point";
    }
  }
  return out;
}

}  // namespace

StatusOr<ExecutionResult> ProcessExecutor::Execute(const ExecutionRequest& request,
                                                   const ExecutionCallbacks& callbacks) {
  ::signal(SIGPIPE, SIG_IGN);
  RunState run;
  run.request = &request;
  run.callbacks = &callbacks;
  run.result.measurements.resize(request.points.size());
  const double point_timeout = request.settings.point_timeout_seconds() > 0
                                   ? request.settings.point_timeout_seconds()
                                   : kDefaultPointTimeoutSeconds;
  const double timeout = point_timeout + options_.grace_seconds;

  while (run.next < request.points.size()) {
    if (IsCancelled(callbacks)) return Status(StatusCode::kCancelled, "run cancelled");
    ASSIGN_OR_RETURN(ChildOutcome out, RunOneChild(options_, timeout, run));
    if (out.cancelled) return Status(StatusCode::kCancelled, "run cancelled");
    if (!out.fatal.ok()) return out.fatal;
    if (out.failure.empty()) continue;  // the child ended after reporting: go on in a new one
    // The parent charges the failure to the started point, or else to the next one, so that
    // every child makes progress.
    size_t index = out.current >= 0 ? static_cast<size_t>(out.current) : run.next;
    if (index < request.points.size()) {
      run.Record(index, detail::FailedMeasurement(request.points[index], out.failure));
    }
  }
  return std::move(run.result);
}

StatusOr<std::string> SelfExecutablePath() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return InternalError(std::string("readlink /proc/self/exe: ") + strerror(errno));
  buf[n] = '\0';
  return std::string(buf);
}

}  // namespace warpwatch::worker
