// File: server/metrics/database_metrics.cc
#include "server/metrics/database_metrics.h"

namespace warpwatch::server::metrics {

DatabaseMetrics::DatabaseMetrics(prometheus::Registry& registry)
    : errors_(prometheus::BuildCounter()
                  .Name("warpwatch_database_errors_total")
                  .Help("Store operations that failed at the database, after the store's own "
                        "retries, by operation and kind (unavailable, connection, query)")
                  .Register(registry)),
      pool_(prometheus::BuildGauge()
                .Name("warpwatch_database_pool_connections")
                .Help("The store's pooled PostgreSQL connections: in_use (borrowed or being "
                      "opened), idle (open and free), max (the pool's size, --pool-size)")
                .Register(registry)),
      in_use_(pool_.Add({{"state", "in_use"}})),
      idle_(pool_.Add({{"state", "idle"}})),
      max_(pool_.Add({{"state", "max"}})) {}

void DatabaseMetrics::OnDatabaseError(const std::string& operation, DatabaseErrorKind kind) {
  errors_.Add({{"operation", operation}, {"kind", DatabaseErrorKindName(kind)}}).Increment();
}

void DatabaseMetrics::OnPoolUse(int in_use, int idle, int max_size) {
  in_use_.Set(in_use);
  idle_.Set(idle);
  max_.Set(max_size);
}

}  // namespace warpwatch::server::metrics
