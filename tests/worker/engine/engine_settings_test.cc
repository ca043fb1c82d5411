// Tests of the measurement settings' defaults.
#include "worker/engine/engine_settings.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(EngineSettings, ZeroFieldsTakeTheDesignDefaults) {
  EngineSettings e = ResolveSettings(v1::MeasurementSettings());
  EXPECT_EQ(e.stop.min_samples, 10);
  EXPECT_EQ(e.stop.max_samples, 2000);
  EXPECT_DOUBLE_EQ(e.stop.target_noise, 0.005);
  EXPECT_DOUBLE_EQ(e.stop.min_gpu_time_seconds, 0.1);
  EXPECT_DOUBLE_EQ(e.stop.timeout_seconds, 15);
  EXPECT_TRUE(e.l2_flush);
  EXPECT_FALSE(e.collect_counters);
}

TEST(EngineSettings, JobValuesWinAndMaxSamplesCoversMinSamples) {
  v1::MeasurementSettings s;
  s.set_min_samples(50);
  s.set_max_samples(20);
  s.set_target_noise(0.01);
  s.set_l2_flush(false);
  s.set_collect_counters(true);
  EngineSettings e = ResolveSettings(s);
  EXPECT_EQ(e.stop.min_samples, 50);
  EXPECT_EQ(e.stop.max_samples, 50);
  EXPECT_DOUBLE_EQ(e.stop.target_noise, 0.01);
  EXPECT_FALSE(e.l2_flush);
  EXPECT_TRUE(e.collect_counters);
}

TEST(EngineSettings, SampleGroupsDefaultToOneAndAreCapped) {
  EXPECT_EQ(ResolveSettings(v1::MeasurementSettings{}).sample_groups, 1);
  v1::MeasurementSettings s;
  s.set_sample_groups(4);
  EXPECT_EQ(ResolveSettings(s).sample_groups, 4);
  s.set_sample_groups(1000);
  EXPECT_EQ(ResolveSettings(s).sample_groups, kMaxSampleGroups);
}

}  // namespace
}  // namespace warpwatch::worker
