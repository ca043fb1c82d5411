// File: server/database/read_replica.h
// The history reads' PostgreSQL hot standby (--read-database-url): its Store, and whether the
// last health probe found it fit to answer (reachable, still a standby, lag within the limit).
#ifndef WARPWATCH_SERVER_DATABASE_READ_REPLICA_H_
#define WARPWATCH_SERVER_DATABASE_READ_REPLICA_H_

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

#include "server/database/replica_lag.h"
#include "server/store/replication_probe.h"
#include "server/store/store.h"

namespace warpwatch::server {

// Policy (docs/operations.md "Read replica"): reads go to the standby while it answers, is in
// recovery, and its lag (replica_lag.h) is at most max_lag; otherwise to the primary, until a
// later probe finds the standby fit again. While the primary does not answer, lag cannot be
// measured and the standby stays in use if it answers: it holds the freshest data reachable.
// Thread-safe: UsableStore() from any thread; Probe() from one thread at a time.
class ReadReplica {
 public:
  // `store` reads the standby (opened with listen_for_jobs = false); `probe` reads both servers'
  // WAL positions. Unusable until the first Probe(). `on_probe`, when set, is told each probe's
  // verdict (the metrics' warpwatch_read_replica_in_use), from Probe()'s thread.
  ReadReplica(std::unique_ptr<Store> store, std::unique_ptr<ReplicationProbe> probe,
              std::chrono::milliseconds max_lag, std::function<void(bool usable)> on_probe = {});

  // One probe at `now`; logs when the standby becomes usable or stops being so, and why.
  void Probe(ReplicaLag::Clock::time_point now = ReplicaLag::Clock::now());

  // The standby's store when the last probe found it usable, else nullptr.
  Store* UsableStore() { return usable_.load() ? store_.get() : nullptr; }
  bool usable() const { return usable_.load(); }

 private:
  std::unique_ptr<Store> store_;
  std::unique_ptr<ReplicationProbe> probe_;
  const std::chrono::milliseconds max_lag_;
  const std::function<void(bool)> on_probe_;
  ReplicaLag lag_;       // Probe() only
  bool probed_ = false;  // Probe() only
  std::atomic<bool> usable_{false};
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_DATABASE_READ_REPLICA_H_
