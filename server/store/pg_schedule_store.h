// File: server/store/pg_schedule_store.h
// The PostgreSQL ScheduleStore (server/schedule/schedule_store.h): schedules, their runs and the
// scheduler's claim, on their own small connection pool so the scheduler never waits behind RPCs.
#ifndef WARPWATCH_SERVER_STORE_PG_SCHEDULE_STORE_H_
#define WARPWATCH_SERVER_STORE_PG_SCHEDULE_STORE_H_

#include <chrono>
#include <memory>

#include "common/status/status.h"
#include "server/schedule/schedule_store.h"
#include "server/store/pg_store.h"

namespace warpwatch::server {

struct PgScheduleStoreOptions {
  PgStoreOptions pg;  // url, pool size (2 is plenty), statement timeout, observer
  // A fire fans out to GPUs of workers heard from within this window (the fleet's ONLINE rule:
  // kHeartbeatsBeforeOffline heartbeat intervals).
  std::chrono::milliseconds online_window{std::chrono::seconds(60)};
};

// Connects lazily (calls answer UNAVAILABLE while the database is down). The schema must include
// migration 0011 before calls are made. INVALID_ARGUMENT for an empty URL or pool size < 1.
StatusOr<std::unique_ptr<schedule::ScheduleStore>> OpenPgScheduleStore(
    const PgScheduleStoreOptions& options);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_SCHEDULE_STORE_H_
