// File: cli/commands/watch.cc
// `warpwatch watch ID`: follows a job through WatchJob until it ends, watching again (with
// backoff) when a stream ends UNAVAILABLE or CANCELLED by the server: a server shutting down or
// restarting, a broken connection. Worker-supplied text is printed through TerminalSafe.
#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "cli/client/exit_codes.h"
#include "cli/commands/commands.h"
#include "cli/format/duration.h"
#include "cli/format/job_view.h"
#include "cli/format/json.h"
#include "cli/format/progress_bar.h"
#include "cli/format/terminal_text.h"
#include "warpwatch/v1/job.grpc.pb.h"

namespace warpwatch::cli {
namespace {

constexpr int kBarWidth = 24;
// Reconnecting after a stream ends UNAVAILABLE: 0.2 s doubling to 5 s, at most kMaxRetries
// attempts in a row that deliver nothing (about a minute and a half).
constexpr std::chrono::milliseconds kFirstRetryDelay{200};
constexpr std::chrono::milliseconds kMaxRetryDelay{5000};
constexpr int kMaxRetries = 20;

bool IsFinal(v1::JobState state) {
  return state == v1::JOB_STATE_SUCCEEDED || state == v1::JOB_STATE_FAILED ||
         state == v1::JOB_STATE_CANCELLED;
}

int TerminalColumns() {
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 100;
}

std::string StateText(const v1::Job& job) {
  std::string state = JobStateLabel(job.state());
  if (job.cancel_requested() && job.state() == v1::JOB_STATE_RUNNING) state += " (cancelling)";
  return state;
}

// "job 12 RUNNING [#####.....] 12/40 30% reduce/warp_shuffle?block_size=256&n=1048576"
std::string BarLine(const v1::Job& job, int columns) {
  std::string line = "job " + std::to_string(job.id()) + " " + StateText(job) + " " +
                     ProgressBar(job.points_done(), job.points_total(), kBarWidth) + " " +
                     ProgressFraction(job.points_done(), job.points_total());
  if (!job.current_case().empty()) line += " " + TerminalSafe(job.current_case());
  return Ellipsize(line, static_cast<size_t>(std::max(columns - 1, 20)));
}

// "2026-11-22 08:35:54Z job 12 RUNNING 12/40 30% case=reduce/..."
std::string PlainLine(const v1::JobEvent& event) {
  const v1::Job& job = event.job();
  std::string line = FormatTimestamp(event.at()) + " job " + std::to_string(job.id()) + " " +
                     StateText(job) + " " + ProgressFraction(job.points_done(), job.points_total());
  if (!job.current_case().empty()) line += " case=" + TerminalSafe(job.current_case());
  return line;
}

int FinalCode(const v1::Job& job) {
  const double took = SecondsBetween(job.started_at(), job.finished_at());
  const std::string after = took > 0 ? " after " + FormatDuration(took) : "";
  if (job.state() == v1::JOB_STATE_SUCCEEDED) {
    std::cerr << "job " << job.id() << " SUCCEEDED" << after << "\n";
    return kExitOk;
  }
  std::cerr << "job " << job.id() << " " << JobStateLabel(job.state()) << after
            << (job.error().empty() ? "" : ": " + TerminalSafe(job.error())) << "\n";
  return kExitJobNotSucceeded;
}

}  // namespace

int WatchJob(const ClientOptions& client, int64_t job_id) {
  StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(client);
  if (!channel.ok()) return ReportError(channel.status());
  auto stub = v1::JobService::NewStub(*channel);
  v1::GetJobRequest request;
  request.set_job_id(job_id);

  const bool tty = !client.json && isatty(STDOUT_FILENO);
  const int columns = tty ? TerminalColumns() : 0;
  std::optional<v1::Job> last;
  std::chrono::milliseconds delay = kFirstRetryDelay;
  int failures = 0;  // consecutive streams that ended UNAVAILABLE without a job event
  while (true) {
    auto context = MakeContext(client, std::chrono::milliseconds(0));
    std::unique_ptr<grpc::ClientReader<v1::JobEvent>> reader =
        stub->WatchJob(context.get(), request);
    v1::JobEvent event;
    bool got_event = false;
    while (reader->Read(&event)) {
      if (client.json) {
        std::cout << ToJson(event, /*pretty=*/false) << std::endl;
      } else if (tty) {
        std::cout << "\r\033[K" << BarLine(event.job(), columns) << std::flush;
      } else {
        std::cout << PlainLine(event) << std::endl;
      }
      last = event.job();
      got_event = true;
    }
    grpc::Status status = reader->Finish();
    if (status.ok()) break;
    // UNAVAILABLE: the server shut down ("watch again") or the connection broke. CANCELLED: this
    // command never cancels its own call, so the server did: a call that reached a server in its
    // shutdown grace is cancelled by gRPC itself. Either way the job goes on without us: watch
    // again, with backoff, unless the job already ended.
    const bool interrupted = status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                             status.error_code() == grpc::StatusCode::CANCELLED;
    if (!interrupted || (last && IsFinal(last->state()))) {
      if (tty && last) std::cout << "\n";
      return ReportError(status);
    }
    if (got_event) {
      failures = 0;
      delay = kFirstRetryDelay;
    }
    if (++failures > kMaxRetries) {
      if (tty && last) std::cout << "\n";
      return ReportError(status);
    }
    if (!client.json && !tty) {
      std::cerr << "warpwatch: watch interrupted (" << status.error_message()
                << "); watching again in " << delay.count() << " ms\n";
    }
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, kMaxRetryDelay);
  }
  if (tty && last) std::cout << "\n";
  if (!last) {
    std::cerr << "warpwatch: the server ended the watch without sending the job\n";
    return kExitOther;
  }
  return FinalCode(*last);
}

void RegisterWatch(CLI::App& app, const ClientOptions& client, int* exit_code) {
  auto job_id = std::make_shared<int64_t>(0);
  CLI::App* cmd =
      app.add_subcommand("watch", "Follow a job until it ends (progress bar on a terminal)");
  cmd->add_option("ID", *job_id, "job id")->required();
  cmd->callback([&client, exit_code, job_id] { *exit_code = WatchJob(client, *job_id); });
}

}  // namespace warpwatch::cli
