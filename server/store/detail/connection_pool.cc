// File: server/store/detail/connection_pool.cc
#include "server/store/detail/connection_pool.h"

#include <pqxx/nontransaction>

namespace warpwatch::server::detail {

std::string WithConnectTimeout(const std::string& url, int seconds) {
  if (url.find("connect_timeout") != std::string::npos) return url;
  const std::string setting = "connect_timeout=" + std::to_string(seconds);
  const bool is_uri = url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
  if (!is_uri) return url.empty() ? setting : url + " " + setting;
  return url + (url.find('?') == std::string::npos ? "?" : "&") + setting;
}

ConnectionPool::Handle::~Handle() {
  if (pool_ != nullptr && conn_ != nullptr) pool_->Release(std::move(conn_), broken_);
}

ConnectionPool::ConnectionPool(PoolOptions options) : options_(std::move(options)) {}

ConnectionPool::~ConnectionPool() = default;

void ConnectionPool::ReportUse(int open, int idle) const {
  if (options_.observer != nullptr) options_.observer->OnPoolUse(open - idle, idle, options_.max_size);
}

StatusOr<ConnectionPool::Handle> ConnectionPool::Acquire() {
  int open = 0;
  int idle = 0;
  {
    std::unique_lock<std::mutex> lock(mu_);
    const bool got = cv_.wait_for(lock, options_.acquire_timeout,
                                  [this] { return !idle_.empty() || open_ < options_.max_size; });
    if (!got) {
      return UnavailableError("no free database connection within " +
                              std::to_string(options_.acquire_timeout.count()) + " ms");
    }
    if (!idle_.empty()) {
      std::unique_ptr<pqxx::connection> conn = std::move(idle_.back());
      idle_.pop_back();
      open = open_;
      idle = static_cast<int>(idle_.size());
      lock.unlock();
      ReportUse(open, idle);
      return Handle(this, std::move(conn), /*reused=*/true);
    }
    ++open_;  // reserve a slot, connect without the lock
    open = open_;
    idle = static_cast<int>(idle_.size());
  }
  ReportUse(open, idle);
  try {
    auto conn = std::make_unique<pqxx::connection>(options_.url);
    {
      // No JIT: the store's statements are short, but a statement over the partitioned
      // measurement table is costed per partition, which passes jit_above_cost and spends
      // seconds compiling for microseconds of work (the analysis' pinned-baseline read with no
      // pin: 1.65 s of JIT for 0.03 s of execution on a year of 96 GPUs,
      // docs/results/history_scale.md).
      pqxx::nontransaction tx(*conn);
      std::string setup = "SET jit = off";
      if (options_.statement_timeout.count() > 0) {
        setup += "; SET statement_timeout = " + std::to_string(options_.statement_timeout.count());
      }
      tx.exec(setup);
    }
    return Handle(this, std::move(conn), /*reused=*/false);
  } catch (const std::exception& e) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      --open_;
      open = open_;
      idle = static_cast<int>(idle_.size());
    }
    cv_.notify_one();
    ReportUse(open, idle);
    return UnavailableError(std::string("database unreachable: ") + e.what());
  }
}

void ConnectionPool::DropIdle() {
  std::vector<std::unique_ptr<pqxx::connection>> doomed;
  int open = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    doomed.swap(idle_);
    open_ -= static_cast<int>(doomed.size());
    open = open_;
  }
  cv_.notify_all();
  ReportUse(open, 0);
  // Closed here, outside the lock.
}

void ConnectionPool::Release(std::unique_ptr<pqxx::connection> conn, bool broken) {
  int open = 0;
  int idle = 0;
  if (broken || !conn->is_open()) {
    conn.reset();  // close outside the lock
    std::lock_guard<std::mutex> lock(mu_);
    --open_;
    open = open_;
    idle = static_cast<int>(idle_.size());
  } else {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(conn));
    open = open_;
    idle = static_cast<int>(idle_.size());
  }
  cv_.notify_one();
  ReportUse(open, idle);
}

}  // namespace warpwatch::server::detail
