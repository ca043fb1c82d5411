// File: server/metrics/replica_metrics.h
// The read replica's gauge (--read-database-url, docs/operations.md "Read replica").
#ifndef WARPWATCH_SERVER_METRICS_REPLICA_METRICS_H_
#define WARPWATCH_SERVER_METRICS_REPLICA_METRICS_H_

#include <prometheus/gauge.h>
#include <prometheus/registry.h>

namespace warpwatch::server {

// Registers warpwatch_read_replica_in_use on `registry` (only servers with a replica export it):
// 1 while history reads go to the standby, 0 while the primary answers them. The gauge lives as
// long as `registry`.
prometheus::Gauge& RegisterReadReplicaInUse(prometheus::Registry& registry);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_METRICS_REPLICA_METRICS_H_
