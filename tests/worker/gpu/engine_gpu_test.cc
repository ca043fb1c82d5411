// GPU tests of the measurement engine (label gpu): the stopping rule on a real kernel, the copy
// against the theoretical bandwidth, and CUPTI achieved occupancy.
#include <gtest/gtest.h>

#include "common/catalog/catalog.h"
#include "kernels/core/family.h"
#include "tests/worker/gpu/gpu_test_support.h"
#include "worker/engine/point_engine.h"

namespace warpwatch::worker {
namespace {

catalog::Point Point(const std::string& family, const std::string& variant,
                     std::map<std::string, int64_t> params) {
  catalog::Point p;
  p.family = family;
  p.variant = variant;
  p.params = std::move(params);
  return p;
}

class EngineGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_CUDA_DEVICE();
    auto engine = PointEngine::Open(0);
    ASSERT_TRUE(engine.ok()) << engine.status().ToString();
    engine_ = std::move(engine).value();
    std::printf("device: %s\n", engine_->environment().ShortDebugString().c_str());
  }
  std::unique_ptr<PointEngine> engine_;
};

TEST_F(EngineGpuTest, StoppingRuleIsHonouredOnARealKernel) {
  v1::MeasurementSettings s;
  s.set_min_samples(10);
  s.set_target_noise(0.005);
  PointResult r = engine_->Measure(Point("testing.fault", "ok", {{"n", 1 << 22}}),
                                   ResolveSettings(s));
  const v1::Measurement& m = r.measurement;
  ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  EXPECT_TRUE(m.verified());
  EXPECT_TRUE(m.l2_flushed());
  EXPECT_EQ(m.samples_seconds_size(), m.sample_sm_clock_mhz_size());
  EXPECT_EQ(m.samples_seconds_size(), m.sample_throttled_size());
  double total = 0;
  for (double x : m.samples_seconds()) total += x;
  if (m.stop_reason() == "noise" || m.stop_reason() == "converged") {
    EXPECT_GE(m.samples_seconds_size(), 10) << Explain(m);
    EXPECT_GE(total, StopSettings{}.min_gpu_time_seconds)
        << "stopped before the minimum GPU time" << Explain(m);
    EXPECT_EQ(m.sample_count(), m.samples_seconds_size());
    EXPECT_GT(m.wall_time().sampling_seconds(), 0) << Explain(m);
    EXPECT_GE(m.wall_time().total_seconds(),
              m.wall_time().setup_seconds() + m.wall_time().sampling_seconds() +
                  m.wall_time().duration_pass_seconds() + m.wall_time().counter_pass_seconds())
        << Explain(m);
    if (m.stop_reason() == "noise") {
      EXPECT_LT(m.rel_stddev(), 0.005) << Explain(m);
    }
  } else {
    // Allowed, but only for the stated reasons.
    EXPECT_TRUE(m.stop_reason() == "max_samples" || m.stop_reason() == "timeout") << Explain(m);
  }
  std::printf("stopped on %s after %d samples, %.3f s of GPU time, noise %.4f\n",
              m.stop_reason().c_str(), m.samples_seconds_size(), total, m.rel_stddev());
  EXPECT_GT(m.stats().median(), 0) << Explain(m);
  EXPECT_GT(m.gbps(), 0) << Explain(m);
  EXPECT_GT(m.median_sm_clock_mhz(), 0) << "no SM clock from " << engine_->telemetry().source();
}

TEST_F(EngineGpuTest, CoalescedCopyReachesEightyPercentOfTheoreticalBandwidth) {
  if (kernels::FindImplementation("memory.coalescing") == nullptr) {
    GTEST_SKIP() << "memory.coalescing is not built in this worker";
  }
  v1::MeasurementSettings s;
  PointResult r = engine_->Measure(
      Point("memory.coalescing", "copy", {{"n", 1 << 26}, {"block_size", 256}}),
      ResolveSettings(s));
  const v1::Measurement& m = r.measurement;
  ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  std::printf("copy: %.1f GB/s = %.1f%% of %.1f GB/s\n", m.gbps(),
              m.pct_of_peak_bandwidth() * 100,
              engine_->environment().device().theoretical_bandwidth_bytes_per_second() / 1e9);
  EXPECT_GE(m.pct_of_peak_bandwidth(), 0.80) << Explain(m);
}

TEST_F(EngineGpuTest, CuptiAchievedOccupancyIsARatio) {
  v1::MeasurementSettings s;
  s.set_collect_counters(true);
  PointResult r = engine_->Measure(Point("testing.fault", "ok", {{"n", 1 << 22}}),
                                   ResolveSettings(s));
  const v1::Measurement& m = r.measurement;
  ASSERT_EQ(m.status(), v1::POINT_STATUS_OK) << Explain(m);
  if (m.counters_note().find("not permitted") != std::string::npos) {
    GTEST_SKIP() << m.counters_note();
  }
  ASSERT_TRUE(m.counters_note().empty()) << "counters unavailable: " << m.counters_note();
  ASSERT_TRUE(m.occupancy().has_achieved()) << Explain(m);
  EXPECT_GT(m.occupancy().achieved(), 0) << Explain(m);
  EXPECT_LE(m.occupancy().achieved(), 1) << Explain(m);
  EXPECT_EQ(m.counters().count(catalog::kAchievedOccupancyCounter), 1u) << Explain(m);
}

TEST_F(EngineGpuTest, MissingFamilyIsSkippedNotFailed) {
  PointResult r = engine_->Measure(Point("no.such.family", "x", {}), ResolveSettings({}));
  EXPECT_EQ(r.measurement.status(), v1::POINT_STATUS_SKIPPED);
  EXPECT_EQ(r.measurement.error(), "family not implemented in this worker build");
}

}  // namespace
}  // namespace warpwatch::worker
