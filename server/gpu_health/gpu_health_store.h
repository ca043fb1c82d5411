// File: server/gpu_health/gpu_health_store.h
// What the GPU health verdicts read and write: each GPU's recent history and people's marks.
// PostgreSQL implements it in server/store/pg_gpu_health_store.cc.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_GPU_HEALTH_STORE_H_
#define WARPWATCH_SERVER_GPU_HEALTH_GPU_HEALTH_STORE_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/gpu_health/gpu_history.h"

namespace warpwatch::server::gpu_health {

struct HistoryQuery {
  std::string device_uuid;  // "" = every GPU
  TimePoint since;          // runs started at or after
  int max_runs = 14;        // the newest this many runs of each GPU
};

// Thread-safe implementations.
class GpuHealthStore {
 public:
  virtual ~GpuHealthStore() = default;

  // The history of every GPU known (registered by a worker, or with an analysed run since
  // query.since), or of query.device_uuid only: an empty vector when that GPU is unknown.
  // UNAVAILABLE while the database is down.
  virtual StatusOr<std::vector<GpuHistory>> ReadHistories(const HistoryQuery& query) = 0;

  // Records what `actor` said about a GPU. NOT_FOUND when the GPU is neither registered nor has
  // a run.
  virtual Status AddMark(const std::string& device_uuid, v1::GpuHealthAction action,
                         const std::string& actor, const std::string& note) = 0;
};

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_GPU_HEALTH_STORE_H_
