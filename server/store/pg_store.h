// File: server/store/pg_store.h
// The PostgreSQL Store (libpqxx): how the server opens its database.
#ifndef WARPWATCH_SERVER_STORE_PG_STORE_H_
#define WARPWATCH_SERVER_STORE_PG_STORE_H_

#include <chrono>
#include <memory>
#include <string>

#include "common/status/status.h"
#include "server/store/store.h"
#include "server/store/store_observer.h"

namespace warpwatch::server {

struct PgStoreOptions {
  // libpq URL, "postgresql://user@host:port/db". connect_timeout=1 is added unless present.
  std::string url;
  // Connections opened at most (the pool grows lazily up to this).
  int pool_size = 8;
  // How long a call waits for a free pooled connection before answering UNAVAILABLE.
  std::chrono::milliseconds acquire_timeout{1000};
  // SET statement_timeout on every connection; 0 = none.
  std::chrono::milliseconds statement_timeout{10000};
  // Told of database errors and pool use (metrics); may be null. Not owned: must outlive the store.
  StoreObserver* observer = nullptr;
  // false: job_notifier() never listens (its generation never advances). A store over a hot
  // standby, which refuses LISTEN, serves reads only and needs no notifications.
  bool listen_for_jobs = true;
  // How measurement batches are written: "copy" (binary COPY, measurement_copy.h) or "json"
  // (one INSERT ... SELECT FROM json_to_recordset, the path before issue 25; kept to compare
  // and as a fallback). Both store the same rows. OpenPgStore: INVALID_ARGUMENT otherwise.
  std::string ingest = "copy";
};

// Creates the store. Connects lazily: a database that is down now makes calls answer UNAVAILABLE,
// not this. INVALID_ARGUMENT for an empty URL or pool size < 1. The schema must be current
// (RunMigrations in migrations.h) before calls are made. Starts the LISTEN thread of
// job_notifier() (unless !listen_for_jobs), stopped by the destructor.
StatusOr<std::unique_ptr<Store>> OpenPgStore(const PgStoreOptions& options);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_STORE_H_
