// File: bench/detail/history_load.h
// Loads a synthetic history into a migrated warpwatch database with server-side SQL: every
// device runs every case every night, as a fleet's nightly job would (bench_history_scale).
#ifndef WARPWATCH_BENCH_DETAIL_HISTORY_LOAD_H_
#define WARPWATCH_BENCH_DETAIL_HISTORY_LOAD_H_

#include <cstdint>
#include <functional>
#include <string>

#include "common/status/status.h"

namespace warpwatch::bench {

struct HistoryShape {
  int nights = 365;
  int devices = 96;  // "GPU-<d>", model "Model-<d % models>"
  int models = 3;
  int cases = 286;  // "fam<i % 28>/v<i / 28>?n=<i>"
  // Rows of one night's runs reach the heap in chunks of this many points per run, interleaved
  // across the night's runs, as the workers' uploaders (64 points per batch) store them.
  int upload_batch = 64;
  // A stored measurement document (the proto as JSON, sample arrays left out) whose other fields
  // each row's `doc` carries: a real one from the H100 fixture makes the rows as large as a real
  // night's (~3 KB of JSON each), so that decoding and heap reads cost what they cost in
  // production. Case, series and median are set per case and model each night, the run id per
  // row. "{}" = only those.
  std::string doc_template = "{}";
  // Run ids per measurement partition (Store::KeepPartitionsAhead's size); 0 = what a server's
  // keeper would have made for this fleet: the runs of 30 nights (migration 0020), at least 1,000.
  int64_t partition_runs = 0;

  long long measurements() const { return static_cast<long long>(nights) * devices * cases; }
  // The case key (canonical) of case i and the names of device d and model m.
  static std::string CaseKey(int i);
  static std::string Device(int d);
  static std::string Model(int m);
};

// The doc_template for HistoryShape from a `warpwatch-worker run --out` file (e.g.
// tests/fixtures/h100_nightly.json): its measurement of median document size, sample arrays
// removed. NOT_FOUND / INVALID_ARGUMENT naming the file when it cannot be read or has none.
StatusOr<std::string> DocTemplateFromRunFile(const std::string& path);

// Inserts shape.nights x shape.devices runs (SUCCEEDED, analysed, one per device per night from
// 2025-01-01), the measurement partitions a server's keeper would make for them (run-id ranges of
// 1000), and every case's measurement in each, night by night (one transaction per night),
// then VACUUM ANALYZEs run, and measurement until 99 % of its pages are all-visible (10 passes
// at most). Nights load over `connections` connections at once (a night is one transaction);
// `progress(nights_done)` is called after each night, from the loading threads, one at a time.
// Precondition: `url` names a database migrated by server::RunMigrations and holding no runs.
Status LoadHistory(const std::string& url, const HistoryShape& shape, int connections,
                   const std::function<void(int)>& progress);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_HISTORY_LOAD_H_
