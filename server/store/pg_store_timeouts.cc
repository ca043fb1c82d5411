// File: server/store/pg_store_timeouts.cc
// The per-job wall-time limit: RUNNING jobs past their timeout end FAILED.
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/pg_store_impl.h"

namespace warpwatch::server::detail {

StatusOr<int> PgStore::FailTimedOutJobs(std::chrono::milliseconds default_timeout) {
  const double default_seconds = static_cast<double>(default_timeout.count()) / 1000.0;
  return Run<int>("FailTimedOutJobs", [&](pqxx::work& tx) -> StatusOr<int> {
    // The limit counts from the start of the current attempt (its run), so a job requeued after a
    // dead worker gets its full time again; max_attempts bounds the attempts. Rows another
    // server is updating are skipped and picked up at the next pass.
    pqxx::result r = tx.exec_params(
        "WITH late AS ("
        "  SELECT j.id, coalesce(nullif((j.spec->>'timeout_seconds')::double precision, 0),"
        "                        $1::double precision) AS limit_s"
        "  FROM job j LEFT JOIN run r ON r.id = j.current_run_id"
        "  WHERE j.state = 'RUNNING'"
        "    AND coalesce(r.started_at, j.started_at) + coalesce(nullif("
        "          (j.spec->>'timeout_seconds')::double precision, 0), $1::double precision)"
        "        * interval '1 second' < now()"
        "  FOR UPDATE OF j SKIP LOCKED)"
        " UPDATE job j SET state = 'FAILED', finished_at = now(),"
        "   error = 'timed out after ' || late.limit_s::text || ' s',"
        "   lease_owner = NULL, lease_expiry = NULL, current_case = ''"
        " FROM late WHERE j.id = late.id"
        " RETURNING j.id, j.current_run_id, j.error",
        default_seconds);
    for (const pqxx::row& row : r) {
      if (row[1].is_null()) continue;
      tx.exec_params(
          "UPDATE run SET state = 'FAILED', error = $2, finished_at = now()"
          " WHERE id = $1 AND finished_at IS NULL",
          row[1].as<int64_t>(), row[2].as<std::string>());
    }
    return static_cast<int>(r.size());
  });
}

}  // namespace warpwatch::server::detail
