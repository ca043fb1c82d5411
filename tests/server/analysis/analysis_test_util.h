// File: tests/server/analysis/analysis_test_util.h
// Fixture for the analysis tests on a real PostgreSQL: a fresh migrated database, the job store
// (uploads, claims) and an AnalysisStore on it, and builders for finished runs whose points have
// chosen medians.
#ifndef WARPWATCH_TESTS_SERVER_ANALYSIS_ANALYSIS_TEST_UTIL_H_
#define WARPWATCH_TESTS_SERVER_ANALYSIS_ANALYSIS_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "server/analysis/analysis_config.h"
#include "server/analysis/analysis_store.h"
#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {

inline constexpr const char* kModel = "NVIDIA H100 80GB HBM3";
inline constexpr const char* kDeviceA = "GPU-aaaaaaaa-0000-0000-0000-000000000001";
inline constexpr const char* kDeviceB = "GPU-bbbbbbbb-0000-0000-0000-000000000002";
inline constexpr const char* kWorker = "w-analysis-test";

// One point of a run.
struct Point {
  std::string family = "memory.coalescing";
  std::string variant = "copy";
  std::map<std::string, int64_t> params = {{"block_size", 256}, {"n", 16777216}};
  double median = 1e-4;     // seconds
  double clock_mhz = 1980;  // median SM clock
  bool ok = true;
  bool verified = true;
  double throttled = 0;         // fraction
  std::vector<double> samples;  // raw samples to store; empty: 20 samples around the median
  std::map<std::string, double> counters;  // CUPTI counters of the point (a counter pass)
  std::string counters_note;               // why a counter pass took none
};

// "family/variant?k=v&..." with keys sorted, as the engine writes case keys.
std::string Canonical(const Point& p);
// Canonical(p) + "@" + kModel.
std::string SeriesOf(const Point& p);

struct RunOptions {
  std::string device = kDeviceA;
  bool uploaded = false;            // no job behind it (job_id NULL), as UploadRun stores one
  // Of an uploaded run: its uploader, whose own history it is in (migration 0018).
  std::string uploader = "offline-user";
  std::string state = "SUCCEEDED";  // the run's final state
  int64_t job_id = 0;               // use this job (e.g. a confirmation job) instead of a new one
  // The new job's MeasurementSettings (protobuf JSON). max_samples 2000 is the engine's default
  // spelled out: the nightly series, whose id is SeriesOf(point).
  std::string measurement = "{\"max_samples\": 2000}";
  int64_t schedule_run_id = 0;  // the new job belongs to this schedule run (AddScheduleRun)
  std::string git_sha;          // the run's `git_sha` label ("" = none): its software build
  std::string environment;      // the run's RunEnvironment as protobuf JSON ("" = none)
};
inline RunOptions MeasuredWith(const std::string& measurement_json) {
  RunOptions o;
  o.measurement = measurement_json;
  return o;
}
inline RunOptions OnDevice(const std::string& uuid) {
  RunOptions o;
  o.device = uuid;
  return o;
}
inline RunOptions Ending(const std::string& state) {
  RunOptions o;
  o.state = state;
  return o;
}
inline RunOptions Uploaded() {
  RunOptions o;
  o.uploaded = true;
  return o;
}
inline RunOptions OfJob(int64_t job_id, const std::string& device = kDeviceA) {
  RunOptions o;
  o.job_id = job_id;
  o.device = device;
  return o;
}

class AnalysisTest : public StoreTest {
 public:
  // Runs one statement on the test database (assertions and setup the stores do not offer).
  pqxx::result Sql(const std::string& sql);
  template <typename... Args>
  pqxx::result Sql(const std::string& sql, Args&&... args) {
    pqxx::work tx(*conn_);
    pqxx::result r = tx.exec_params(sql, std::forward<Args>(args)...);
    tx.commit();
    return r;
  }

 protected:
  void SetUp() override;
  void TearDown() override;

  std::unique_ptr<analysis::AnalysisStore> OpenAnalysisStore();

  // A fired schedule run (of a schedule made for it); returns its id.
  int64_t AddScheduleRun();

  // A finished run with these points (each with 20 samples around its median); returns its id.
  int64_t AddRun(const std::vector<Point>& points, const RunOptions& options = {});
  // A run uploaded through the store's UploadRun path (Store::StoreUploadedRun) on `device` by
  // `uploader`; returns its id. Its series are the nightly ones (default settings).
  int64_t UploadRun(const std::vector<Point>& points, const Uploader& uploader,
                    const std::string& device = kDeviceA);
  // `n` runs of one point each at base x (1 + N(0, noise)) (the fixture's seeded generator).
  std::vector<int64_t> AddNoisyRuns(const Point& base, int n, double noise,
                                    const RunOptions& options = {});

  // Analyses pending runs with AnalyzeRun until none is left; returns how many were claimed.
  int AnalyzeAll(analysis::AnalysisStore* store = nullptr);

  // A day passes for the model noise cache: the model rows of series_noise, which a night's runs
  // share for AnalysisConfig::model_noise_max_age, are dropped, so the next run computes them
  // afresh from the runs analysed so far (nights of a test are seconds apart).
  void ExpireModelNoise() { Sql("DELETE FROM series_noise WHERE device_uuid = ''"); }

  // The measurement partition holding run `run`'s range ("" when none does: DEFAULT's).
  std::string PartitionOf(int64_t run);

  analysis::AnalysisConfig config_;
  std::unique_ptr<analysis::AnalysisStore> analysis_store_;
  std::unique_ptr<pqxx::connection> conn_;
  std::mt19937_64 rng_{12345};
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_ANALYSIS_ANALYSIS_TEST_UTIL_H_
