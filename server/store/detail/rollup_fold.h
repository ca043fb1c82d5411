// File: server/store/detail/rollup_fold.h
// The one statement that folds measurement summaries into week rollups (migration 0012), for the
// row-wise fold (Store::DownsampleSummaries) and the fold of a whole partition before it is
// dropped (Store::DropOldPartitions).
#ifndef WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_FOLD_H_
#define WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_FOLD_H_

#include <string>

namespace warpwatch::server::detail {

// The columns a fold needs, of a measurement aliased `m` joined with its run aliased `r`:
// "SELECT" + kFoldPickColumns + " FROM ..." is a `picked` for RollupFoldSql.
extern const char* const kFoldPickColumns;

// One statement: the rows `picked` selects are folded into measurement_rollup, merging with a
// week already there (its medians kept sorted, so the percentiles are recomputed exactly), and,
// with `delete_picked`, deleted from measurement by (run_id, id). A good point is
// detect::IsGoodRun's, bar the throttle bound: a throttled run is still history worth
// summarising, and its fraction is kept in the mean. Returns one row: how many rows were picked.
// `picked` is trusted SQL (its parameters are the caller's).
std::string RollupFoldSql(const std::string& picked, bool delete_picked);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_ROLLUP_FOLD_H_
