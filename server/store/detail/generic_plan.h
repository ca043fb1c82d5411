// File: server/store/detail/generic_plan.h
// A read whose plan does not depend on its parameter values, run as a named prepared statement of
// the transaction's connection with PostgreSQL's generic plan: parsed and planned once per
// connection, not once per call.
//
// Why: a statement over the partitioned `measurement` table is planned over every partition and
// each of its indexes. On a year of month partitions (2-core VM, 2026-12-04) GetSeries' point read
// of one device spent 4.1 ms planning and 5.9 ms executing a call (pg_stat_statements with
// track_planning), and its generic plan executes in about 2 ms: a generic plan keeps run-time
// partition pruning, and the series reads prune nothing at plan time anyway.
//
// Contract:
// - Only for statements whose best plan is the same for every parameter value. A custom plan
//   folds "$n::text = '' OR ..." switches (QueryMeasurements' filters rely on it, and so do the
//   partition-pruning run filters); a generic plan evaluates both sides at run time, so such
//   statements stay on exec_params.
// - The generic plan is forced (`plan_cache_mode = force_generic_plan` set for this one execution
//   with SET LOCAL, then set back to the session's default), not left to PostgreSQL's choice after
//   five custom plans: for GetSeries' model read it kept choosing the custom plan, whose planning
//   is most of the call. Other statements of the transaction run as before.
// - The statement is prepared lazily by libpqxx on the connection's first use, named after a hash
//   of its text; a new pooled connection prepares it again. Schema changes (a partition attached
//   by the keeper, a migration) invalidate the plan and PostgreSQL replans it by itself.
// - Poolers in transaction mode must support protocol-level prepared statements (PgBouncer 1.21
//   or later with max_prepared_statements set); docs/operations.md says so.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_GENERIC_PLAN_H_
#define WARPWATCH_SERVER_STORE_DETAIL_GENERIC_PLAN_H_

#include <pqxx/pqxx>
#include <string>
#include <utility>

namespace warpwatch::server::detail {

// The prepared statement's name for `sql`: "ww_generic_" and a hash of the text.
std::string GenericPlanName(const std::string& sql);

template <typename... Args>
pqxx::result ExecGenericPlan(pqxx::transaction_base& tx, const std::string& sql,
                             Args&&... args) {
  const std::string name = GenericPlanName(sql);
  tx.conn().prepare(name, sql);  // defines it once per connection; the same text again is a no-op
  tx.exec0("SET LOCAL plan_cache_mode = force_generic_plan");
  pqxx::result rows = tx.exec_prepared(name, std::forward<Args>(args)...);
  tx.exec0("SET LOCAL plan_cache_mode TO DEFAULT");
  return rows;
}

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_GENERIC_PLAN_H_
