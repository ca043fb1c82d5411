// File: bench/detail/statement_stats.h
// The server-side view of a benchmark's statements (pg_stat_statements): reset before the timed
// part, the costliest printed after it. The server must preload pg_stat_statements
// (shared_preload_libraries=pg_stat_statements, pg_stat_statements.track_planning=on).
#ifndef WARPWATCH_BENCH_DETAIL_STATEMENT_STATS_H_
#define WARPWATCH_BENCH_DETAIL_STATEMENT_STATS_H_

#include <string>

namespace warpwatch::bench {

// Creates the extension when missing and forgets what was counted so far. Throws pqxx errors.
void ResetStatementStats(const std::string& url);

// Prints the `limit` statements of `url`'s database with at least `min_calls` calls that cost the
// most server time since the reset (planning + execution, in total): calls, total and mean
// milliseconds, rows and shared pages hit and read per call, and the statement's first
// `text_chars` characters. What the client's time adds on top is the round trips, result
// transfer and decoding. Throws pqxx errors.
void PrintStatementStats(const std::string& url, int limit, int min_calls, int text_chars);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_STATEMENT_STATS_H_
