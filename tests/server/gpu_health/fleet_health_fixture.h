// File: tests/server/gpu_health/fleet_health_fixture.h
// GPU health through the real analysis path on a real PostgreSQL: 8 GPUs of one model measured in
// one schedule run a night, each run analysed as it finishes (fleet OUTLIER rows), then the
// verdicts read by the PostgreSQL GpuHealthStore (fleet_health_test.cc, link_health_test.cc).
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_FLEET_HEALTH_FIXTURE_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_FLEET_HEALTH_FIXTURE_H_

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "server/gpu_health/gpu_verdict.h"
#include "server/store/pg_gpu_health_store.h"
#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {

using gpu_health::TimePoint;

inline constexpr int kDevices = 8;

inline std::string Gpu(int i) { return "GPU-health-" + std::to_string(i); }

inline Point FleetHealthCase(const std::string& family, const std::string& variant, double median) {
  Point p;
  p.family = family;
  p.variant = variant;
  p.params = {{"n", 16777216}};
  p.median = median;
  return p;
}

// How much slower a GPU runs a night, by kind of case.
struct FleetHealthSlowdown {
  double memory = 0;   // the HBM-bound families (memory.coalescing, reduce)
  double compute = 0;  // instr.arithmetic, shared.bank_conflicts
};

class FleetHealthTest : public RunAnalyzerTest {
 protected:
  void SetUp() override {
    RunAnalyzerTest::SetUp();
    if (HasFatalFailure()) return;
    PgStoreOptions options;
    options.url = url_;
    options.pool_size = 1;
    StatusOr<std::unique_ptr<gpu_health::GpuHealthStore>> store = OpenPgGpuHealthStore(options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    health_store_ = std::move(*store);
  }

  // One night, a day after the one before: every GPU measured in one schedule run and analysed
  // as it finishes; GPU i runs `slow(i)` slower. The fleet view judges from the third night on
  // (it needs the cases' between-run noise: two analysed runs of a GPU).
  void Night(const std::function<FleetHealthSlowdown(int)>& slow) {
    ExpireModelNoise();
    const int64_t schedule_run = AddScheduleRun();
    for (int i = 0; i < kDevices; ++i) {
      const FleetHealthSlowdown s = slow(i);
      const double jitter = 1 + 0.001 * (i % 3);  // GPUs of a model differ a little
      RunOptions options = OnDevice(Gpu(i));
      options.schedule_run_id = schedule_run;
      if (environment_) options.environment = environment_(i);
      AddRun(
          {Copy(1e-4 * jitter * (1 + s.memory)), Strided(2, 2e-4 * jitter * (1 + s.memory)),
           Reduce(3e-5 * jitter * (1 + s.memory)),
           FleetHealthCase("instr.arithmetic", "fp32_fma", 5e-5 * jitter * (1 + s.compute)),
           FleetHealthCase("shared.bank_conflicts", "stride_1", 4e-5 * jitter * (1 + s.compute))},
          options);
      ASSERT_EQ(AnalyzeAll(), 1);
    }
  }
  void CleanNight() {
    Night([](int) { return FleetHealthSlowdown{}; });
  }
  void TwoCleanNights() {
    CleanNight();
    CleanNight();
  }
  // GPU `sick` runs its memory-bound cases `memory` slower; the others are clean.
  void SickNight(int sick, double memory) {
    Night([=](int i) {
      return i == sick ? FleetHealthSlowdown{memory, 0} : FleetHealthSlowdown{};
    });
  }

  // GPU `gpu`'s history as the verdict reads it at `now` (a failure and an empty one if the store
  // does not give exactly that GPU's).
  gpu_health::GpuHistory History(int gpu, TimePoint now = std::chrono::system_clock::now()) {
    gpu_health::HistoryQuery query;
    query.device_uuid = Gpu(gpu);
    query.since = now - policy_.window;
    query.max_runs = policy_.window_runs;
    StatusOr<std::vector<gpu_health::GpuHistory>> histories = health_store_->ReadHistories(query);
    EXPECT_TRUE(histories.ok()) << histories.status().ToString();
    if (!histories.ok() || histories->size() != 1) {
      ADD_FAILURE() << "no history of " << Gpu(gpu);
      return gpu_health::GpuHistory();
    }
    return std::move(histories->front());
  }

  v1::GpuHealth Health(int gpu, TimePoint now = std::chrono::system_clock::now()) {
    return gpu_health::DecideGpuHealth(History(gpu, now), policy_, now);
  }

  gpu_health::HealthPolicy policy_;
  std::unique_ptr<gpu_health::GpuHealthStore> health_store_;
  // GPU i's run environment (protobuf JSON) on the nights that follow; empty: none.
  std::function<std::string(int)> environment_;
};

}  // namespace warpwatch::server::testing

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_FLEET_HEALTH_FIXTURE_H_
