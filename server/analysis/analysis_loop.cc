// File: server/analysis/analysis_loop.cc
#include "server/analysis/analysis_loop.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/analysis/run_analyzer.h"

namespace warpwatch::server::analysis {
namespace {

// How long one WaitForFinishedRun call may block, so Stop() is prompt.
constexpr std::chrono::milliseconds kWaitSlice{250};

bool LoopRetryable(const Status& s) {
  return s.code() == StatusCode::kUnavailable || s.code() == StatusCode::kAborted;
}

}  // namespace

AnalysisLoop::AnalysisLoop(AnalysisStore* store, AnalysisLoopOptions options,
                           std::function<bool()> ready)
    : store_(store), options_(std::move(options)), ready_(std::move(ready)) {}

AnalysisLoop::~AnalysisLoop() { Stop(); }

void AnalysisLoop::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void AnalysisLoop::Stop() {
  stop_.Raise();
  if (thread_.joinable()) thread_.join();
}

StatusOr<int> AnalysisLoop::RunOnce() {
  if (ready_ && !ready_()) return 0;
  StatusOr<int> stale =
      store_->CancelStaleConfirmations(options_.config.confirmation_queue_timeout);
  if (!stale.ok()) return stale.status().Annotate("cancelling stale confirmations");
  if (*stale > 0) spdlog::warn("msg=\"stale confirmation jobs cancelled\" jobs={}", *stale);
  StatusOr<int> opened = store_->OpenSuspectsOfAbandonedConfirmations();
  if (!opened.ok()) return opened.status().Annotate("opening suspects of abandoned confirmations");
  if (*opened > 0) spdlog::info("msg=\"suspects opened unconfirmed\" regressions={}", *opened);
  const AnalysisConfig& config = options_.config;
  int claimed = 0;
  while (claimed < options_.max_runs_per_pass) {
    // Stop() ends the pass between runs: under a backlog a pass of max_runs_per_pass analyses can
    // take longer than a shutdown may (the run in progress still commits or rolls back whole).
    if (stop_.raised()) break;
    RunAnalysisSummary summary;
    StatusOr<std::optional<int64_t>> run = store_->AnalyzeNextRun([&](AnalysisTx& tx) -> Status {
      StatusOr<RunAnalysisSummary> s = AnalyzeRun(tx, config, &night_);
      if (!s.ok()) return s.status();
      summary = *s;
      return OkStatus();
    });
    // The outliers the analysis noted count as reported only if it committed.
    if (run.ok()) {
      night_.Commit();
    } else {
      night_.Discard();
    }
    if (!run.ok()) {
      if (LoopRetryable(run.status())) return run.status();
      ++errors_;  // the store marked the run SKIPPED; go on with the next one
      ++claimed;
      spdlog::warn("msg=\"run analysis failed; run skipped\" error=\"{}\"",
                   run.status().ToString());
      continue;
    }
    if (!run->has_value()) break;
    ++claimed;
    ++analysed_;
    if (options_.on_analysed) options_.on_analysed(summary);
    spdlog::info(
        "msg=\"run analysed\" run={} cases={} findings={} confirmation_job={} "
        "change_point_series={} resolved={}",
        **run, summary.cases, summary.findings, summary.confirmation_job_id,
        summary.change_point_series, summary.resolved);
  }
  return claimed;
}

bool AnalysisLoop::Wait() {
  const auto deadline = std::chrono::steady_clock::now() + options_.fallback_interval;
  while (true) {
    if (stop_.raised()) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    const std::chrono::milliseconds slice = std::min(left, kWaitSlice);
    StatusOr<bool> notified = store_->WaitForFinishedRun(slice);
    if (notified.ok() && *notified) return false;
    // The listener is down: sleep the slice (the timer still works).
    if (!notified.ok() && stop_.WaitFor(slice)) return true;
  }
}

void AnalysisLoop::Loop() {
  while (true) {
    // No lock held across the store's calls.
    const int64_t errors_before = errors_.load();
    StatusOr<int> claimed = RunOnce();
    if (!claimed.ok() && errors_++ % 10 == 0) {
      spdlog::warn("msg=\"analysis pass failed\" error=\"{}\"", claimed.status().ToString());
    }
    // Runs are left and the pass went well: the next pass at once. After a failure, wait (a run
    // that keeps failing must not spin the loop).
    const bool more =
        claimed.ok() && *claimed >= options_.max_runs_per_pass && errors_.load() == errors_before;
    if (more) {
      if (stop_.raised()) return;
      continue;
    }
    if (Wait()) return;
  }
}

}  // namespace warpwatch::server::analysis
