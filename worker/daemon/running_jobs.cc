// File: worker/daemon/running_jobs.cc
#include "worker/daemon/running_jobs.h"

namespace warpwatch::worker {

std::shared_ptr<JobControl> RunningJobs::Add(int64_t job_id) {
  auto control = std::make_shared<JobControl>();
  std::lock_guard<std::mutex> lock(mu_);
  jobs_[job_id] = control;
  return control;
}

void RunningJobs::Remove(int64_t job_id) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_.erase(job_id);
}

std::vector<int64_t> RunningJobs::Ids() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int64_t> ids;
  for (const auto& [id, control] : jobs_) ids.push_back(id);
  return ids;
}

bool RunningJobs::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.empty();
}

std::shared_ptr<JobControl> RunningJobs::Find(int64_t job_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(job_id);
  return it == jobs_.end() ? nullptr : it->second;
}

void RunningJobs::MarkCancelRequested(int64_t job_id) {
  if (auto control = Find(job_id)) control->cancel_requested = true;
}

void RunningJobs::MarkLost(int64_t job_id) {
  if (auto control = Find(job_id)) control->lost = true;
}

}  // namespace warpwatch::worker
