// What may be compared: the settings key and the series id (common/series/comparable_series.h).
#include "common/series/comparable_series.h"

#include <gtest/gtest.h>

#include "worker/engine/engine_settings.h"

namespace warpwatch::series {
namespace {

v1::MeasurementSettings Nightly() { return v1::MeasurementSettings(); }

TEST(SettingsKeyTest, TheNightlyDefaultsHaveTheEmptyKey) { EXPECT_EQ(SettingsKey(Nightly()), ""); }

TEST(SettingsKeyTest, DefaultsSpelledOutAreTheDefaults) {
  v1::MeasurementSettings s;
  s.set_min_samples(kDefaultMinSamples);
  s.set_max_samples(kDefaultMaxSamples);
  s.set_target_noise(kDefaultTargetNoise);
  s.set_min_gpu_time_seconds(kDefaultMinGpuTimeSeconds);
  s.set_point_timeout_seconds(kDefaultPointTimeoutSeconds);
  s.set_sample_groups(kDefaultSampleGroups);
  s.set_l2_flush(true);
  EXPECT_EQ(SettingsKey(s), "");
}

TEST(SettingsKeyTest, EveryMemberThatChangesATimingMakesAnotherKey) {
  v1::MeasurementSettings flush;
  flush.set_l2_flush(false);
  EXPECT_EQ(SettingsKey(flush), "l2_flush=off");
  v1::MeasurementSettings budget;
  budget.set_max_samples(500);
  EXPECT_EQ(SettingsKey(budget), "max_samples=500");
  v1::MeasurementSettings rule;
  rule.set_min_samples(50);
  rule.set_target_noise(0.01);
  rule.set_min_gpu_time_seconds(0.5);
  rule.set_point_timeout_seconds(30);
  EXPECT_EQ(SettingsKey(rule), "min_samples=50;target_noise=0.01;min_gpu_time=0.5s;timeout=30s");
  v1::MeasurementSettings groups;
  groups.set_sample_groups(8);
  EXPECT_EQ(SettingsKey(groups), "sample_groups=8");
  v1::MeasurementSettings counters;
  counters.set_collect_counters(true);
  EXPECT_EQ(SettingsKey(counters), "counters=on");
}

TEST(SettingsKeyTest, TheKeyFollowsWhatTheEngineRunsNotHowItWasAskedFor) {
  v1::MeasurementSettings low_cap;  // max below min: the engine raises it to min
  low_cap.set_min_samples(100);
  low_cap.set_max_samples(20);
  v1::MeasurementSettings same;
  same.set_min_samples(100);
  same.set_max_samples(100);
  EXPECT_EQ(SettingsKey(low_cap), SettingsKey(same));
  v1::MeasurementSettings many_groups;  // clamped to the engine's maximum
  many_groups.set_sample_groups(99);
  EXPECT_EQ(SettingsKey(many_groups), "sample_groups=16");
}

TEST(SettingsKeyTest, TheDefaultsAreTheEngines) {
  const worker::EngineSettings e = worker::ResolveSettings(Nightly());
  EXPECT_EQ(e.stop.min_samples, kDefaultMinSamples);
  EXPECT_EQ(e.stop.max_samples, kDefaultMaxSamples);
  EXPECT_EQ(e.stop.target_noise, kDefaultTargetNoise);
  EXPECT_EQ(e.stop.min_gpu_time_seconds, kDefaultMinGpuTimeSeconds);
  EXPECT_EQ(e.stop.timeout_seconds, kDefaultPointTimeoutSeconds);
  EXPECT_EQ(e.sample_groups, kDefaultSampleGroups);
  EXPECT_EQ(worker::kMaxSampleGroups, kMaxSampleGroups);
  EXPECT_TRUE(e.l2_flush);
  EXPECT_FALSE(e.collect_counters);
}

TEST(SeriesIdTest, TheNightlySeriesKeepsItsPlainId) {
  EXPECT_EQ(SeriesId("reduce/cub?n=16777216", "NVIDIA H100 80GB HBM3", ""),
            "reduce/cub?n=16777216@NVIDIA H100 80GB HBM3");
  EXPECT_EQ(SettingsKeyOf("reduce/cub?n=16777216@NVIDIA H100 80GB HBM3"), "");
}

TEST(SeriesIdTest, OtherSettingsAreAnotherSeries) {
  const std::string id = SeriesId("reduce/cub?n=16777216", "NVIDIA H100 80GB HBM3", "l2_flush=off");
  EXPECT_EQ(id, "reduce/cub?n=16777216@NVIDIA H100 80GB HBM3#l2_flush=off");
  EXPECT_EQ(SettingsKeyOf(id), "l2_flush=off");
}

}  // namespace
}  // namespace warpwatch::series
