// File: server/store/detail/connection_pool.h
// A fixed-size pool of libpqxx connections that never blocks for long: connecting gives up after
// connect_timeout, waiting for a free connection after acquire_timeout; both answer UNAVAILABLE.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_CONNECTION_POOL_H_
#define WARPWATCH_SERVER_STORE_DETAIL_CONNECTION_POOL_H_

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <pqxx/connection>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/store/store_observer.h"

namespace warpwatch::server::detail {

struct PoolOptions {
  std::string url;  // used as given (see WithConnectTimeout)
  int max_size = 8;
  std::chrono::milliseconds acquire_timeout{1000};
  std::chrono::milliseconds statement_timeout{0};  // 0 = server default
  // Told of every change in the pool's use, and (by Transact) of database errors; may be null.
  // Not owned; must outlive the pool.
  StoreObserver* observer = nullptr;
};

// Adds connect_timeout=`seconds` to a libpq URL ("postgresql://...") or key=value string unless it
// already names one. libpq treats values below 2 as 2.
std::string WithConnectTimeout(const std::string& url, int seconds);

// Thread-safe. Connections are opened lazily, up to max_size, and reused; each runs with
// PostgreSQL's JIT off and, when set, the pool's statement_timeout. A connection returned
// as broken is closed; the pool opens a new one when next needed, so it heals by itself after the
// database comes back.
class ConnectionPool {
 public:
  // A borrowed connection, returned to the pool on destruction. Move-only.
  class Handle {
   public:
    Handle(ConnectionPool* pool, std::unique_ptr<pqxx::connection> conn, bool reused)
        : pool_(pool), conn_(std::move(conn)), reused_(reused) {}
    Handle(Handle&& other) noexcept = default;
    Handle& operator=(Handle&&) = delete;
    Handle(const Handle&) = delete;
    ~Handle();

    pqxx::connection& conn() { return *conn_; }
    // True when the connection served an earlier call (it may have died since).
    bool reused() const { return reused_; }
    // The connection failed: close it instead of returning it.
    void MarkBroken() { broken_ = true; }

   private:
    ConnectionPool* pool_;
    std::unique_ptr<pqxx::connection> conn_;
    bool reused_;
    bool broken_ = false;
  };

  explicit ConnectionPool(PoolOptions options);
  ~ConnectionPool();  // Precondition: every Handle has been destroyed.
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // An idle connection, or a new one while fewer than max_size are open. UNAVAILABLE when none
  // is free within acquire_timeout or the database cannot be reached.
  StatusOr<Handle> Acquire();
  // Closes every idle connection (after one broke, the others are probably dead too).
  void DropIdle();
  // PoolOptions::observer (may be null).
  StoreObserver* observer() const { return options_.observer; }

 private:
  void Release(std::unique_ptr<pqxx::connection> conn, bool broken);
  // Tells the observer (outside mu_) the use counted under mu_ by the caller.
  void ReportUse(int open, int idle) const;

  const PoolOptions options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;  // guarded by mu_
  int open_ = 0;  // idle + borrowed + being opened; guarded by mu_
};

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_CONNECTION_POOL_H_
