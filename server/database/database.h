// File: server/database/database.h
// The server's handle on PostgreSQL across outages: owns the Store, applies the schema
// migrations the first time the database is reachable (which may be long after start), and tells
// handlers whether the store may be used yet.
#ifndef WARPWATCH_SERVER_DATABASE_DATABASE_H_
#define WARPWATCH_SERVER_DATABASE_DATABASE_H_

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "common/status/status.h"
#include "server/database/read_replica.h"
#include "server/store/store.h"

namespace warpwatch::server {

// Thread-safe.
class Database {
 public:
  // Applies migrations; RunMigrations(url) in production, something else in tests.
  using Migrator = std::function<Status()>;

  // `replica`, when given, answers HistoryStore() while its probes find it usable.
  Database(std::unique_ptr<Store> store, Migrator migrator,
           std::unique_ptr<ReadReplica> replica = nullptr);

  // The store once migrations have been applied; UNAVAILABLE before that (database not reached
  // yet). Never blocks on the database.
  StatusOr<Store*> ReadyStore();

  // For the history reads (ResultService's ListRuns, QueryMeasurements, GetSeries, CompareRuns,
  // ListRegressions): the read replica's store while the last probe found it usable
  // (read_replica.h), else ReadyStore(). UNAVAILABLE as ReadyStore() before the primary was first
  // migrated. Only reads may be made through it. Never blocks on the database.
  StatusOr<Store*> HistoryStore();

  // One health probe: applies the migrations if they have not been applied yet, then pings;
  // then probes the read replica, if any (its state never changes the answer).
  // OK while the database answers with a current schema. A migrator's FAILED_PRECONDITION (the
  // database has a migration this binary does not know) is logged at critical, once per message.
  // Called periodically by the health checker (and once at start); concurrent calls are serialized.
  Status Probe();

  bool schema_ready() const { return schema_ready_.load(); }

 private:
  Status ProbePrimary();

  std::unique_ptr<Store> store_;
  Migrator migrator_;
  std::unique_ptr<ReadReplica> replica_;  // may be null; Probe()d under probe_mu_
  std::mutex probe_mu_;  // serializes Probe(); never held by ReadyStore()
  std::atomic<bool> schema_ready_{false};
  std::string refusal_;  // guarded by probe_mu_: the last FAILED_PRECONDITION logged
};

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_DATABASE_DATABASE_H_
