// File: bench/detail/paired_latency.h
// Latency percentiles of a call measured next to a reference call in the same run: each timed
// call follows one reference call on the same connection, so both see the same host load and the
// ratio between them survives a noisy machine.
#ifndef WARPWATCH_BENCH_DETAIL_PAIRED_LATENCY_H_
#define WARPWATCH_BENCH_DETAIL_PAIRED_LATENCY_H_

#include <functional>
#include <string>
#include <vector>

namespace warpwatch::bench {

struct Percentiles {
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

// Nearest-rank percentiles of `ms` (milliseconds). Precondition: `ms` is not empty.
Percentiles Summarize(std::vector<double> ms);

struct PairedLatency {
  std::string name;
  Percentiles measured;
  Percentiles reference;
  bool ok = true;  // every call returned what was expected
};

// Calls reference() then call(q) for q in [0, calls), timing each. `call` returns false when its
// answer was wrong (the latency is still recorded). Precondition: calls > 0.
PairedLatency TimePaired(const std::string& name, int calls, const std::function<bool(int)>& call,
                         const std::function<void()>& reference);

// The table: one row per query with its p50/p99/max, the reference's p50/p99 and the ratios
// p50/p50 and p99/p99, and whether the p99 is under `target_ms`.
void PrintLatencyTable(const std::vector<PairedLatency>& rows, int calls, double target_ms);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_PAIRED_LATENCY_H_
