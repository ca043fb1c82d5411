// File: server/store/pg_incident_store.h
// The PostgreSQL IncidentStore (server/incidents/incident_store.h): the incident sweep and
// IncidentService's reads and triage, on their own small connection pool.
#ifndef WARPWATCH_SERVER_STORE_PG_INCIDENT_STORE_H_
#define WARPWATCH_SERVER_STORE_PG_INCIDENT_STORE_H_

#include <memory>

#include "common/status/status.h"
#include "server/incidents/incident_store.h"
#include "server/store/pg_store.h"

namespace warpwatch::server {

// Connects lazily (calls answer UNAVAILABLE while the database is down). The schema must include
// migration 0015 before calls are made. INVALID_ARGUMENT for an empty URL or pool size < 1.
StatusOr<std::unique_ptr<incidents::IncidentStore>> OpenPgIncidentStore(
    const PgStoreOptions& options);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_INCIDENT_STORE_H_
