// File: server/metrics/replica_metrics.cc
#include "server/metrics/replica_metrics.h"

namespace warpwatch::server {

prometheus::Gauge& RegisterReadReplicaInUse(prometheus::Registry& registry) {
  return prometheus::BuildGauge()
      .Name("warpwatch_read_replica_in_use")
      .Help("1 while history reads go to the --read-database-url standby, 0 while the primary "
            "answers them (standby down, promoted or lagging)")
      .Register(registry)
      .Add({});
}

}  // namespace warpwatch::server
