// File: server/store/detail/retention_sql.h
// The one definition of which runs retention leaves alone (Store::DropOldSamples,
// Store::DownsampleSummaries), as a SQL condition on a run aliased `r`.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_RETENTION_SQL_H_
#define WARPWATCH_SERVER_STORE_DETAIL_RETENTION_SQL_H_

namespace warpwatch::server::detail {

// True for a run that a baseline pin holds, or that an unresolved regression (SUSPECTED, OPEN,
// ACKNOWLEDGED) names as its run, a baseline run or its confirmation: someone still needs its
// samples and its own summary.
inline constexpr const char* kRetainedRunSql =
    " (EXISTS (SELECT 1 FROM baseline_pin_run p WHERE p.run_id = r.id)"
    "  OR EXISTS (SELECT 1 FROM regression g"
    "   WHERE g.state IN ('SUSPECTED', 'OPEN', 'ACKNOWLEDGED')"
    "    AND (g.run_id = r.id OR r.id = ANY (g.baseline_run_ids)"
    "         OR g.confirmation_run_id = r.id)))";

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_RETENTION_SQL_H_
