// File: worker/daemon/running_jobs.cc
#include "worker/daemon/running_jobs.h"

namespace warpwatch::worker {

std::shared_ptr<JobControl> RunningJobs::Add(int64_t run_id) {
  auto control = std::make_shared<JobControl>();
  std::lock_guard<std::mutex> lock(mu_);
  runs_[run_id] = control;
  return control;
}

void RunningJobs::Remove(int64_t run_id) {
  std::lock_guard<std::mutex> lock(mu_);
  runs_.erase(run_id);
}

std::vector<int64_t> RunningJobs::RunIds() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int64_t> ids;
  for (const auto& [id, control] : runs_) ids.push_back(id);
  return ids;
}

bool RunningJobs::empty() const {
  std::lock_guard<std::mutex> lock(mu_);
  return runs_.empty();
}

std::shared_ptr<JobControl> RunningJobs::Find(int64_t run_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runs_.find(run_id);
  return it == runs_.end() ? nullptr : it->second;
}

void RunningJobs::MarkCancelRequested(int64_t run_id) {
  if (auto control = Find(run_id)) control->cancel_requested = true;
}

bool RunningJobs::MarkLost(int64_t run_id) {
  std::shared_ptr<JobControl> control = Find(run_id);
  if (control == nullptr) return false;
  control->lost = true;
  return true;
}

}  // namespace warpwatch::worker
