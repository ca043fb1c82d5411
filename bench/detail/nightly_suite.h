// File: bench/detail/nightly_suite.h
// The cases of the nightly suite as a recorded run measured them
// (tests/fixtures/h100_nightly.json): case key, family, variant, params and median, for benchmarks
// that simulate a fleet's nights.
#ifndef WARPWATCH_BENCH_DETAIL_NIGHTLY_SUITE_H_
#define WARPWATCH_BENCH_DETAIL_NIGHTLY_SUITE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::bench {

struct SuiteCase {
  std::string canonical;
  std::string family;
  std::string variant;
  std::map<std::string, int64_t> params;
  double median_seconds = 0;
};

// The measurements of a `warpwatch-worker run --out` file, in file order. NOT_FOUND when the
// file cannot be read; INVALID_ARGUMENT when it holds no measurement with a positive median.
StatusOr<std::vector<SuiteCase>> SuiteFromRunFile(const std::string& path);

// The run file's job spec (its "spec" member) as protobuf JSON; "{}" when it has none.
StatusOr<std::string> SpecJsonFromRunFile(const std::string& path);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_NIGHTLY_SUITE_H_
