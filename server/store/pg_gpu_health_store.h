// File: server/store/pg_gpu_health_store.h
// The PostgreSQL GpuHealthStore (server/gpu_health/gpu_health_store.h), on its own small pool.
#ifndef WARPWATCH_SERVER_STORE_PG_GPU_HEALTH_STORE_H_
#define WARPWATCH_SERVER_STORE_PG_GPU_HEALTH_STORE_H_

#include <memory>

#include "common/status/status.h"
#include "server/gpu_health/gpu_health_store.h"
#include "server/store/pg_store.h"

namespace warpwatch::server {

// Connects lazily (calls answer UNAVAILABLE while the database is down). The schema must include
// migration 0016 before calls are made. INVALID_ARGUMENT for an empty URL or pool size < 1.
StatusOr<std::unique_ptr<gpu_health::GpuHealthStore>> OpenPgGpuHealthStore(
    const PgStoreOptions& options);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_STORE_PG_GPU_HEALTH_STORE_H_
