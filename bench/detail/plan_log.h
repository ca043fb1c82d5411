// File: bench/detail/plan_log.h
// The plans PostgreSQL actually executed for a store's statements, with their parameters: the
// store's connections load auto_explain (ANALYZE, BUFFERS) and the plans are read back from the
// server's log. No statement is re-typed by the benchmark, so the plans cannot drift from the
// store's SQL.
#ifndef WARPWATCH_BENCH_DETAIL_PLAN_LOG_H_
#define WARPWATCH_BENCH_DETAIL_PLAN_LOG_H_

#include <cstdint>
#include <string>

namespace warpwatch::bench {

// `url` ("postgresql://...", no query part) with libpq options that make every statement of its
// sessions that runs for `min_duration_ms` or longer log its plan with EXPLAIN (ANALYZE, BUFFERS)
// at level LOG; with `timing` false, without per-node timing (row and buffer counts only, which
// cost little). Needs a superuser.
std::string WithAutoExplain(const std::string& url, int min_duration_ms, bool timing);

// A server log file read from a mark onwards. Not thread-safe.
class ServerLog {
 public:
  explicit ServerLog(std::string path) : path_(std::move(path)) {}
  // Remembers the log's current end.
  void Mark();
  // What was appended since Mark(), with each line's timestamp and pid prefix removed.
  std::string SinceMark() const;

 private:
  std::string path_;
  std::uintmax_t mark_ = 0;
};

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_PLAN_LOG_H_
