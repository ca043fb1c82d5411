// The fixture of the run analyzer's tests on a real PostgreSQL (run_analyzer_test.cc,
// confirmation_timeout_test.cc): three cases with their nightly medians and a baseline of ten runs.
#ifndef WARPWATCH_TESTS_SERVER_ANALYSIS_RUN_ANALYZER_FIXTURE_H_
#define WARPWATCH_TESTS_SERVER_ANALYSIS_RUN_ANALYZER_FIXTURE_H_

#include <random>
#include <string>
#include <vector>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {

inline constexpr double kNoise = 0.002;  // run-to-run noise of the medians (0.2 %)

inline Point Copy(double median = 1e-4) {
  Point p;
  p.median = median;
  return p;
}
inline Point Reduce(double median = 3e-5) {
  Point p;
  p.family = "reduce";
  p.variant = "cub";
  p.params = {{"n", 16777216}};
  p.median = median;
  return p;
}
inline Point Strided(int64_t stride, double median = 2e-4) {
  Point p;
  p.variant = "strided";
  p.params = {{"block_size", 256}, {"n", 16777216}, {"stride", stride}};
  p.median = median;
  return p;
}

class RunAnalyzerTest : public AnalysisTest {
 protected:
  // Ten runs of Copy, Reduce and Strided(2) around their medians, analysed.
  std::vector<int64_t> AddBaseline(const RunOptions& options = {}) {
    std::normal_distribution<double> normal(0, kNoise);
    std::vector<int64_t> ids;
    for (int i = 0; i < 10; ++i) {
      ids.push_back(AddRun({Copy(1e-4 * (1 + normal(rng_))), Reduce(3e-5 * (1 + normal(rng_))),
                            Strided(2, 2e-4 * (1 + normal(rng_)))},
                           options));
    }
    EXPECT_EQ(AnalyzeAll(), 10);
    return ids;
  }
  int Count(const std::string& where) {
    return Sql("SELECT count(*) FROM regression WHERE " + where).at(0).at(0).as<int>();
  }
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_ANALYSIS_RUN_ANALYZER_FIXTURE_H_
