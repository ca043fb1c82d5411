// File: server/store/pg_analysis_store.h
// The PostgreSQL AnalysisStore (server/analysis/analysis_store.h): how the server's analysis loop
// opens its database. Its own small connection pool, so a long analysis never starves RPCs, and
// one dedicated connection that LISTENs for finished runs.
#ifndef WARPWATCH_SERVER_STORE_PG_ANALYSIS_STORE_H_
#define WARPWATCH_SERVER_STORE_PG_ANALYSIS_STORE_H_

#include <memory>

#include "common/status/status.h"
#include "server/analysis/analysis_store.h"
#include "server/store/pg_store.h"

namespace warpwatch::server {

// Connects lazily (a database that is down makes calls answer UNAVAILABLE). The schema must
// include migration 0009 (the run table's NOTIFY trigger) before calls are made.
// options.pool_size is the analysis pool's size (2 is plenty: the loop is one thread); the
// statement timeout applies to every analysis statement. INVALID_ARGUMENT for an empty URL or a
// pool size < 1.
StatusOr<std::unique_ptr<analysis::AnalysisStore>> OpenPgAnalysisStore(
    const PgStoreOptions& options);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_ANALYSIS_STORE_H_
