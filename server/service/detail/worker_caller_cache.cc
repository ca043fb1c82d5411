// File: server/service/detail/worker_caller_cache.cc
#include "server/service/detail/worker_caller_cache.h"

namespace warpwatch::server::detail {

bool WorkerCallerCache::Allowed(const std::string& worker_id, const std::string& principal,
                                Clock::time_point now) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = entries_.find(worker_id);
  return it != entries_.end() && it->second.principal == principal &&
         now - it->second.checked < ttl_;
}

void WorkerCallerCache::Remember(const std::string& worker_id, const std::string& principal,
                                 Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mu_);
  if (entries_.size() >= max_entries_ && entries_.find(worker_id) == entries_.end()) {
    entries_.clear();
  }
  entries_[worker_id] = Entry{principal, now};
}

}  // namespace warpwatch::server::detail
