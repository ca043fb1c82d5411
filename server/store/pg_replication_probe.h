// File: server/store/pg_replication_probe.h
// ReplicationProbe over two libpq connections (primary, standby), each reopened after it breaks.
#ifndef WARPWATCH_SERVER_STORE_PG_REPLICATION_PROBE_H_
#define WARPWATCH_SERVER_STORE_PG_REPLICATION_PROBE_H_

#include <memory>
#include <string>

#include "server/store/replication_probe.h"

namespace warpwatch::server {

// Connects lazily (connect_timeout=1 added unless present). The functions read need no privilege
// beyond CONNECT. INVALID_ARGUMENT for an empty URL.
StatusOr<std::unique_ptr<ReplicationProbe>> OpenPgReplicationProbe(const std::string& primary_url,
                                                                   const std::string& standby_url);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_REPLICATION_PROBE_H_
