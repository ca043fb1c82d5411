// File: tests/server/incidents/incident_test_fixture.h
// Incidents on a real PostgreSQL: the analysis fixture's runs on a fleet of GPUs with chosen
// drivers and clocks, analysed by the real analyzer, then swept (server/incidents/incident_sweep.h)
// as the server does after each analysed run.
#ifndef WARPWATCH_TESTS_SERVER_INCIDENTS_INCIDENT_TEST_FIXTURE_H_
#define WARPWATCH_TESTS_SERVER_INCIDENTS_INCIDENT_TEST_FIXTURE_H_

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "server/incidents/incident_store.h"
#include "server/incidents/incident_sweep.h"
#include "server/store/pg_incident_store.h"
#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {

inline constexpr const char* kOldDriver = "580.65.06";
inline constexpr const char* kNewDriver = "590.12";

inline std::string Gpu(int i) { return "GPU-" + std::to_string(i); }

// How one GPU ran one night.
struct GpuNight {
  double scale = 1.0;       // every case's median x this
  double clock_mhz = 1980;  // the SM clock of every point
  std::string driver = kOldDriver;
  std::string labels = "{}";  // the run's labels (jsonb), e.g. a worker's test_contention_* ones
  Point (*case_of)(int) = nullptr;   // case i of the run; nullptr: IncidentTest::Case
  std::map<int, double> case_scale;  // case i's median x this as well
};

class IncidentTest : public AnalysisTest {
 protected:
  void SetUp() override {
    AnalysisTest::SetUp();
    if (HasFatalFailure()) return;
    PgStoreOptions options;
    options.url = url_;
    options.pool_size = 2;
    StatusOr<std::unique_ptr<incidents::IncidentStore>> store = OpenPgIncidentStore(options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    incidents_ = std::move(store).value();
  }
  void TearDown() override {
    incidents_.reset();
    AnalysisTest::TearDown();
  }

  // Case i of the suite: memory.coalescing/copy at n = 1024 (i + 1), about 0.1 ms.
  static Point Case(int i) {
    Point p;
    p.params = {{"block_size", 256}, {"n", 1024 * (i + 1)}};
    p.median = 1e-4 * (1 + 0.01 * i);
    return p;
  }

  // Case i of a run of two subsystems' families: i < 6 Case(i) (HBM bandwidth), else
  // instr.arithmetic/fp32_fma at n = 1024 (i - 5) (SM arithmetic), about 0.2 ms.
  static Point MixedCase(int i) {
    if (i < 6) return Case(i);
    Point p;
    p.family = "instr.arithmetic";
    p.variant = "fp32_fma";
    p.params = {{"block_size", 256}, {"n", 1024 * (i - 5)}};
    p.median = 2e-4 * (1 + 0.01 * i);
    return p;
  }

  // Case i of a node run's peer copies: interconnect.peer_copy/peer_access of 64 MiB over the
  // i-th ordered pair of a 4-GPU node (source-major: 0->1, 0->2, 0->3, 1->0, ...; 12 pairs).
  static Point PairCase(int i) {
    const int src = (i / 3) % 4, k = i % 3, dst = k >= src ? k + 1 : k;
    Point p;
    p.family = "interconnect.peer_copy";
    p.variant = "peer_access";
    p.params = {{"bytes", int64_t{64} << 20}, {"dst", dst}, {"src", src}};
    p.median = 1.8e-4 * (1 + 0.002 * i);
    return p;
  }

  // One run of `cases` cases on `gpu` as `night` says (uploaded: opened without confirmation),
  // with its environment as a worker reports it; analysed, then swept. Returns the run id.
  int64_t RunNight(int gpu, int cases, const GpuNight& night) {
    std::normal_distribution<double> noise(0, 0.002);
    std::vector<Point> points;
    for (int i = 0; i < cases; ++i) {
      Point p = night.case_of != nullptr ? night.case_of(i) : Case(i);
      const auto extra = night.case_scale.find(i);
      p.median *=
          night.scale * (extra == night.case_scale.end() ? 1 : extra->second) * (1 + noise(rng_));
      p.clock_mhz = night.clock_mhz;
      points.push_back(p);
    }
    RunOptions options = OnDevice(Gpu(gpu));
    options.uploaded = true;
    const int64_t run = AddRun(points, options);
    Sql("UPDATE run SET driver_version = $2, labels = $4::jsonb, environment = $3::jsonb "
        "WHERE id = $1",
        run, night.driver,
        "{\"device\": {\"uuid\": \"" + Gpu(gpu) + "\", \"name\": \"" + kModel +
            "\"}, \"driverVersion\": \"" + night.driver +
            "\", \"cudaRuntimeVersion\": 12080, \"workerVersion\": \"0.9.0\"}",
        night.labels);
    EXPECT_EQ(AnalyzeAll(), 1);
    Sweep();
    return run;
  }

  // `nights` ordinary nights of every GPU, oldest first: the baseline.
  void Baseline(int gpus, int cases, int nights = 6) {
    for (int n = 0; n < nights; ++n) {
      for (int g = 0; g < gpus; ++g) RunNight(g, cases, GpuNight());
    }
  }

  // After a baseline of `gpus` GPUs x `cases` cases, GPU 0 alone runs a night `slow`; its one
  // incident is acknowledged by "alice". Returns that incident's id (0 when it was not opened).
  int64_t FirstGpuSlowedAndTriaged(int gpus, int cases, const GpuNight& slow) {
    Baseline(gpus, cases);
    RunNight(0, cases, slow);
    const std::vector<v1::Incident> opened = Incidents();
    EXPECT_EQ(opened.size(), 1u);
    if (opened.size() != 1) return 0;
    EXPECT_TRUE(
        incidents_
            ->UpdateIncident(opened[0].id(), v1::INCIDENT_STATE_ACKNOWLEDGED, "looking", "alice")
            .ok());
    return opened[0].id();
  }

  incidents::SweepSummary Sweep() {
    StatusOr<incidents::SweepSummary> s = incidents::SweepIncidents(*incidents_);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : incidents::SweepSummary();
  }

  std::vector<v1::Incident> Incidents() {
    StatusOr<incidents::IncidentPage> page = incidents_->ListIncidents({});
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? page->incidents : std::vector<v1::Incident>();
  }

  std::unique_ptr<incidents::IncidentStore> incidents_;
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_INCIDENTS_INCIDENT_TEST_FIXTURE_H_
