// File: server/metrics/database_metrics.h
// The store's health as metrics: warpwatch_database_errors_total{operation,kind} and
// warpwatch_database_pool_connections{state="in_use"|"idle"|"max"}. Handed to the store as its
// StoreObserver (PgStoreOptions::observer).
#ifndef WARPWATCH_SERVER_METRICS_DATABASE_METRICS_H_
#define WARPWATCH_SERVER_METRICS_DATABASE_METRICS_H_

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <string>

#include "server/store/store_observer.h"

namespace warpwatch::server::metrics {

// Thread-safe (prometheus-cpp metrics are). `registry` must outlive the object. The `operation`
// label is a store method's name: a fixed set of a few dozen values, never a caller's input.
class DatabaseMetrics : public StoreObserver {
 public:
  explicit DatabaseMetrics(prometheus::Registry& registry);

  void OnDatabaseError(const std::string& operation, DatabaseErrorKind kind) override;
  void OnPoolUse(int in_use, int idle, int max_size) override;

 private:
  prometheus::Family<prometheus::Counter>& errors_;
  prometheus::Family<prometheus::Gauge>& pool_;
  prometheus::Gauge& in_use_;
  prometheus::Gauge& idle_;
  prometheus::Gauge& max_;
};

}  // namespace warpwatch::server::metrics

#endif  // WARPWATCH_SERVER_METRICS_DATABASE_METRICS_H_
