// File: worker/daemon/progress_reporter.cc
#include "worker/daemon/progress_reporter.h"

#include <spdlog/spdlog.h>

#include <utility>
#include <vector>

namespace warpwatch::worker {

ProgressReporter::ProgressReporter(WorkerClient* client, Registrar* registrar, RunningJobs* jobs,
                                   std::chrono::milliseconds min_interval)
    : client_(client), registrar_(registrar), jobs_(jobs), min_interval_(min_interval) {}

ProgressReporter::~ProgressReporter() { Stop(); }

void ProgressReporter::Start() { thread_ = std::thread([this] { Loop(); }); }

void ProgressReporter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressReporter::Update(int64_t job_id, int64_t run_id, int64_t points_done,
                              int64_t points_total, const std::string& current_case) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& entry = entries_[run_id];
    entry.latest.set_job_id(job_id);
    entry.latest.set_run_id(run_id);
    entry.latest.set_points_done(points_done);
    entry.latest.set_points_total(points_total);
    entry.latest.set_current_case(current_case);
    entry.dirty = true;
  }
  cv_.notify_all();
}

void ProgressReporter::Remove(int64_t run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.erase(run_id);
}

void ProgressReporter::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    // Reports due now; the earliest not yet due sets how long to sleep.
    auto now = std::chrono::steady_clock::now();
    auto wake = now + std::chrono::seconds(1);
    std::vector<v1::ReportProgressRequest> due;
    for (auto& [id, entry] : entries_) {
      if (!entry.dirty) continue;
      auto next = entry.last_sent + min_interval_;
      if (next <= now) {
        due.push_back(entry.latest);
        entry.dirty = false;
        entry.last_sent = now;
      } else if (next < wake) {
        wake = next;
      }
    }
    if (due.empty()) {
      cv_.wait_until(lock, wake);
      continue;
    }
    lock.unlock();
    for (v1::ReportProgressRequest& request : due) {
      request.set_worker_id(registrar_->worker_id());
      StatusOr<v1::ReportProgressResponse> response = client_->ReportProgress(request);
      if (response.ok()) {
        if (response->cancel_requested()) jobs_->MarkCancelRequested(request.run_id());
      } else if (response.status().code() == StatusCode::kFailedPrecondition) {
        spdlog::warn("job {} run {}: progress refused, lease lost: {}", request.job_id(),
                     request.run_id(), response.status().message());
        jobs_->MarkLost(request.run_id());
      } else {
        spdlog::debug("job {}: progress not reported: {}", request.job_id(),
                      response.status().ToString());
      }
    }
    lock.lock();
  }
}

}  // namespace warpwatch::worker
