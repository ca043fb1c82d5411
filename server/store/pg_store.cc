// File: server/store/pg_store.cc
// Opening the PostgreSQL store; Ping.
#include "server/store/pg_store.h"

#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_copy.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server {
namespace detail {

PoolOptions PoolOptionsFor(const PgStoreOptions& options) {
  PoolOptions pool;
  pool.url = WithConnectTimeout(options.url, 1);
  pool.max_size = options.pool_size;
  pool.acquire_timeout = options.acquire_timeout;
  pool.statement_timeout = options.statement_timeout;
  pool.observer = options.observer;
  return pool;
}

PgStore::PgStore(const PgStoreOptions& options)
    : pool_(PoolOptionsFor(options)),
      notifier_(options.listen_for_jobs ? WithConnectTimeout(options.url, 1) : std::string()),
      copy_ingest_(options.ingest == "copy") {}

StatusOr<int> PgStore::StoreBatch(pqxx::work& tx, int64_t run_id, const std::string& device_model,
                                  const std::string& settings_key,
                                  const std::vector<v1::Measurement>& batch) {
  if (copy_ingest_) return CopyMeasurements(tx, run_id, device_model, settings_key, batch);
  return InsertMeasurements(tx, run_id, device_model, settings_key, batch);
}

Status PgStore::Ping() {
  StatusOr<bool> r = Run<bool>("Ping", [](pqxx::work& tx) -> StatusOr<bool> {
    return tx.exec("SELECT 1").at(0).at(0).as<int>() == 1;
  });
  return r.ok() ? OkStatus() : r.status();
}

void NotifyJobQueued(pqxx::work& tx, int64_t job_id) {
  if (job_id == 0) {
    tx.exec_params("SELECT pg_notify($1, '*')", std::string(kJobQueuedChannel));
    return;
  }
  NotifyJobsQueued(tx, {job_id});
}

void NotifyJobsQueued(pqxx::work& tx, const std::vector<int64_t>& job_ids) {
  if (job_ids.empty()) return;
  // A NOTIFY payload must stay under 8000 bytes: a selector with huge labels sends the id only.
  tx.exec_params(
      "SELECT pg_notify($1, CASE WHEN octet_length(p) < 7900 THEN p"
      "  ELSE json_build_object('job', id)::text END)"
      " FROM (SELECT id, json_build_object('job', id, 'model', selector_gpu_model,"
      "  'uuid', selector_gpu_uuid, 'labels', selector_worker_labels)::text AS p"
      "  FROM job WHERE id = ANY($2::bigint[]) ORDER BY id) j",
      std::string(kJobQueuedChannel), BigintArrayLiteral(job_ids));
}

}  // namespace detail

StatusOr<std::unique_ptr<Store>> OpenPgStore(const PgStoreOptions& options) {
  if (options.url.empty()) return InvalidArgumentError("database url is empty");
  if (options.pool_size < 1) return InvalidArgumentError("pool size must be at least 1");
  if (options.ingest != "copy" && options.ingest != "json") {
    return InvalidArgumentError("ingest \"" + options.ingest + "\": must be copy or json");
  }
  return std::unique_ptr<Store>(std::make_unique<detail::PgStore>(options));
}

}  // namespace warpwatch::server
