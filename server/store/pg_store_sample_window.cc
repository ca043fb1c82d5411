// File: server/store/pg_store_sample_window.cc
// The raw-sample window (Store::DropOldSamples): a measurement of a run finished longer ago loses
// its sample arrays and its document becomes slim (detail/measurement_slim.h), in one statement.
#include <pqxx/pqxx>

#include "server/store/detail/conversions.h"
#include "server/store/detail/measurement_row.h"
#include "server/store/detail/measurement_slim.h"
#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/retention_sql.h"

namespace warpwatch::server::detail {

StatusOr<int> PgStore::DropOldSamples(std::chrono::hours older_than, int batch) {
  return Run<int>("DropOldSamples", [&](pqxx::work& tx) -> StatusOr<int> {
    // Rows with samples, or whose document is not slim yet (emptied by a server before slim
    // documents, or a JSON doc stored before migration 0010), locked for this transaction.
    pqxx::result rows =
        tx.exec_params("SELECT " + MeasurementColumns(false) + ", m.run_id, m.id" +
                           " FROM measurement m JOIN run r ON r.id = m.run_id"
                           " WHERE r.finished_at < now() - $1::bigint * interval '1 hour'"
                           "   AND (cardinality(m.samples_seconds) > 0 OR NOT coalesce(" +
                           kSlimDocumentSql +
                           ", false))"
                           "   AND NOT" +
                           kRetainedRunSql + " LIMIT $2 FOR UPDATE OF m SKIP LOCKED",
                       static_cast<int64_t>(older_than.count()), batch);
    if (rows.empty()) return 0;
    // (run_id, id): the measurement's key (migration 0019), so that each row is found in its
    // partition.
    std::vector<int64_t> run_ids;
    std::vector<int64_t> ids;
    // Hex of each row's slim document; "" keeps the row's document: one that does not decode
    // (every read of that row fails as well) still loses its samples, and is looked at again by
    // later calls.
    std::vector<std::string> docs;
    for (const pqxx::row& row : rows) {
      run_ids.push_back(row[row.size() - 2].as<int64_t>());
      ids.push_back(row[row.size() - 1].as<int64_t>());
      // A slim document is rebuilt and slimmed again to the same bytes: idempotent.
      StatusOr<std::string> doc = SlimDocumentOfRow(row);
      docs.push_back(doc.ok() ? HexEncode(*doc) : std::string());
    }
    pqxx::result r = tx.exec_params(
        "UPDATE measurement m SET samples_seconds = '{}', sample_sm_clock_mhz = '{}',"
        " sample_throttled = '{}', sample_kernel_seconds = '{}', sample_group = '{}',"
        " doc = CASE WHEN u.doc = '' THEN m.doc END,"
        " doc_pb = CASE WHEN u.doc = '' THEN m.doc_pb ELSE decode(u.doc, 'hex') END"
        " FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(run_id, id, doc)"
        " WHERE m.run_id = u.run_id AND m.id = u.id"
        " AND (u.doc <> '' OR cardinality(m.samples_seconds) > 0)",
        BigintArrayLiteral(run_ids), BigintArrayLiteral(ids), TextArrayLiteral(docs));
    return static_cast<int>(r.affected_rows());
  });
}

}  // namespace warpwatch::server::detail
