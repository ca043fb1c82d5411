// File: server/store/pg_store_partitions.cc
// Measurement partitions (migration 0019, docs/partitioning.md): made ahead of run_id_seq
// (Store::KeepPartitionsAhead) and, once every run of one is past summary retention, folded into
// week rollups and dropped whole (Store::DropOldPartitions).
#include <pqxx/pqxx>

#include "server/store/detail/pg_store_impl.h"
#include "server/store/detail/retention_sql.h"
#include "server/store/detail/rollup_fold.h"

namespace warpwatch::server::detail {
namespace {

// The advisory lock warpwatch_keep_measurement_partitions takes ('rangepar' in ASCII): partition
// DDL of two replicas never interleaves.
constexpr int64_t kPartitionLockKey = 8241990183427268978;

// The oldest range partition that may go: its run ids all handed out, every run of it finished
// before the cutoff ($1 hours ago), lowest first; `exempt` when one of its runs that has a
// measurement is exempt from retention.
constexpr const char* kOldPartitionsSql =
    "SELECT p.name, p.lo, p.hi, EXISTS (SELECT 1 FROM run r WHERE r.id >= p.lo AND r.id < p.hi"
    "   AND EXISTS (SELECT 1 FROM measurement m WHERE m.run_id = r.id) AND %RETAINED%)"
    " FROM warpwatch_measurement_partitions() p"
    " WHERE p.hi - 1 <= (SELECT last_value FROM run_id_seq)"
    "   AND NOT EXISTS (SELECT 1 FROM run r WHERE r.id >= p.lo AND r.id < p.hi"
    "    AND (r.finished_at IS NULL OR r.finished_at >= now() - $1::bigint * interval '1 hour'))"
    " ORDER BY p.lo";

std::string OldPartitionsSql() {
  std::string sql = kOldPartitionsSql;
  const std::string marker = "%RETAINED%";
  sql.replace(sql.find(marker), marker.size(), kRetainedRunSql);
  return sql;
}

// Folds partition `name` [lo, hi) into the rollups, clears the pointers into it, detaches and
// drops it. Returns how many measurements were folded. Precondition: the advisory lock is held.
int64_t FoldAndDrop(pqxx::work& tx, const std::string& name, int64_t lo, int64_t hi) {
  const std::string table = tx.quote_name(name);
  // Writes to the old partition wait (none are expected: its runs finished long ago); reads go
  // on until the detach.
  tx.exec("LOCK TABLE " + table + " IN SHARE MODE");
  const int64_t folded =
      tx.exec1(RollupFoldSql(std::string("SELECT") + kFoldPickColumns + " FROM " + table +
                                 " m JOIN run r ON r.id = m.run_id",
                             /*delete_picked=*/false))[0]
          .as<int64_t>();
  // What ON DELETE SET NULL (measurement_id) does for a row-wise delete; a detach refuses while
  // a key points into the partition.
  for (const char* referrer : {"regression", "regression_run"}) {
    tx.exec_params(std::string("UPDATE ") + referrer +
                       " SET measurement_id = NULL WHERE run_id >= $1 AND run_id < $2"
                       " AND measurement_id IS NOT NULL",
                   lo, hi);
  }
  tx.exec("ALTER TABLE measurement DETACH PARTITION " + table);
  tx.exec("DROP TABLE " + table);
  return folded;
}

}  // namespace

StatusOr<PartitionUpkeep> PgStore::KeepPartitionsAhead(int64_t min_partition_runs) {
  return Run<PartitionUpkeep>(
      "KeepPartitionsAhead", [&](pqxx::work& tx) -> StatusOr<PartitionUpkeep> {
        tx.exec("SET LOCAL lock_timeout = '5s'");
        PartitionUpkeep upkeep;
        upkeep.created =
            tx.exec_params1("SELECT warpwatch_keep_measurement_partitions($1)", min_partition_runs)
                [0]
                    .as<int>();
        upkeep.default_rows =
            tx.exec1("SELECT count(*) FROM measurement_default")[0].as<int64_t>();
        return upkeep;
      });
}

StatusOr<PartitionRetention> PgStore::DropOldPartitions(std::chrono::hours older_than,
                                                        int max_partitions) {
  static const std::string old_partitions = OldPartitionsSql();
  struct Step {
    bool dropped = false;
    int64_t folded = 0;
    int kept_exempt = 0;  // exempt partitions passed over before the one dropped (or all)
  };
  PartitionRetention done;
  // One transaction per partition: a failure keeps what earlier ones did.
  for (int i = 0; i < max_partitions; ++i) {
    StatusOr<Step> step = Run<Step>("DropOldPartitions", [&](pqxx::work& tx) -> StatusOr<Step> {
      tx.exec("SET LOCAL lock_timeout = '5s'");
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kPartitionLockKey);
      Step s;
      for (const pqxx::row& p :
           tx.exec_params(old_partitions, static_cast<int64_t>(older_than.count()))) {
        if (p[3].as<bool>()) {
          ++s.kept_exempt;
          continue;
        }
        s.folded = FoldAndDrop(tx, p[0].as<std::string>(), p[1].as<int64_t>(), p[2].as<int64_t>());
        s.dropped = true;
        break;
      }
      return s;
    });
    if (!step.ok()) return step.status();
    done.kept_exempt = step->kept_exempt;
    if (!step->dropped) break;
    ++done.dropped;
    done.folded += step->folded;
  }
  return done;
}

}  // namespace warpwatch::server::detail
