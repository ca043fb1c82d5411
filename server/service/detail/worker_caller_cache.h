// File: server/service/detail/worker_caller_cache.h
// Recent positive answers of Store::CheckWorkerCaller, so that a worker's steady stream of calls
// (a heartbeat every few seconds, uploads, progress) does not cost a database transaction each
// just to learn again that its token owns its worker id.
//
// Why a cached "yes" stays true: a worker id's principal never changes while its row exists
// (Register keeps the principal of an existing row). The row can only go away through the
// reaper's pruning of workers unseen for --worker-retention-hours, and an entry lives at most
// `ttl` after the last check that reached the database, so no entry outlives a pruning as long
// as ttl is far below the retention (seconds against days). A pruned worker's next call then
// fails in the store call itself (NOT_FOUND: register again). Negative answers are not cached.
#ifndef WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_CALLER_CACHE_H_
#define WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_CALLER_CACHE_H_

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace warpwatch::server::detail {

// Thread-safe.
class WorkerCallerCache {
 public:
  using Clock = std::chrono::steady_clock;

  explicit WorkerCallerCache(std::chrono::milliseconds ttl, size_t max_entries = 100000)
      : ttl_(ttl), max_entries_(max_entries) {}

  // Whether `principal` was found to own `worker_id` less than ttl before `now`.
  bool Allowed(const std::string& worker_id, const std::string& principal,
               Clock::time_point now = Clock::now()) const;
  // Records a positive check made at `now`. When full, the cache starts over (a burst of checks
  // against the database, never a wrong answer).
  void Remember(const std::string& worker_id, const std::string& principal,
                Clock::time_point now = Clock::now());

 private:
  struct Entry {
    std::string principal;
    Clock::time_point checked;
  };
  const std::chrono::milliseconds ttl_;
  const size_t max_entries_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;  // worker id -> last positive check; mu_
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_SERVICE_DETAIL_WORKER_CALLER_CACHE_H_
