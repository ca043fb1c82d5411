// File: tests/server/incidents/explain/environment_diff_test.cc
#include "server/incidents/explain/environment_diff.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

v1::RunEnvironment Env(const std::string& driver) {
  v1::RunEnvironment e;
  e.set_driver_version(driver);
  e.set_cuda_runtime_version(12080);
  e.set_worker_version("0.9.0");
  e.add_built_architectures("sm_90");
  e.mutable_device()->set_uuid("GPU-1");
  e.set_sm_clock_mhz_start(1980);
  e.set_temperature_c_start(40);
  (*e.mutable_labels())["git_sha"] = "abc";
  return e;
}

const v1::EnvironmentDifference* Find(const std::vector<v1::EnvironmentDifference>& diffs,
                                      const std::string& field) {
  for (const auto& d : diffs) {
    if (d.field() == field) return &d;
  }
  return nullptr;
}

TEST(EnvironmentDiffTest, NamesADriverChangeWithBothVersions) {
  const auto diffs = DiffEnvironments({Env("580.65.06"), Env("580.65.06")}, Env("590.12"));
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].field(), "driver_version");
  ASSERT_EQ(diffs[0].baseline_size(), 1);
  EXPECT_EQ(diffs[0].baseline(0), "580.65.06");
  EXPECT_EQ(diffs[0].new_value(), "590.12");
  EXPECT_EQ(diffs[0].area(), v1::DIFFERENCE_AREA_SOFTWARE);
}

TEST(EnvironmentDiffTest, EqualEnvironmentsDifferInNothing) {
  EXPECT_TRUE(DiffEnvironments({Env("580"), Env("580")}, Env("580")).empty());
}

TEST(EnvironmentDiffTest, AGitShaLabelAndBuiltArchitecturesAreSoftware) {
  v1::RunEnvironment now = Env("580");
  (*now.mutable_labels())["git_sha"] = "def";
  now.add_built_architectures("sm_100");
  const auto diffs = DiffEnvironments({Env("580")}, now);
  const v1::EnvironmentDifference* sha = Find(diffs, "labels.git_sha");
  ASSERT_NE(sha, nullptr);
  EXPECT_EQ(sha->baseline(0), "abc");
  EXPECT_EQ(sha->new_value(), "def");
  const v1::EnvironmentDifference* archs = Find(diffs, "built_architectures");
  ASSERT_NE(archs, nullptr);
  EXPECT_EQ(archs->new_value(), "sm_100,sm_90");
  EXPECT_EQ(archs->area(), v1::DIFFERENCE_AREA_SOFTWARE);
}

// The worker's test-only contention says the GPU was loaded beside the suite: a condition of the
// run, never a software change (issue 26 item 4(b)); a test code-generation build is software.
TEST(EnvironmentDiffTest, ContentionLabelsAreConditionsAndACodegenLabelIsSoftware) {
  v1::RunEnvironment now = Env("580");
  (*now.mutable_labels())["test_contention_gib"] = "1";
  (*now.mutable_labels())["build_test_codegen"] = "kernels/x.cu=-maxrregcount=32";
  const auto diffs = DiffEnvironments({Env("580")}, now);
  const v1::EnvironmentDifference* gib = Find(diffs, "labels.test_contention_gib");
  ASSERT_NE(gib, nullptr);
  EXPECT_EQ(gib->area(), v1::DIFFERENCE_AREA_CONDITIONS);
  const v1::EnvironmentDifference* codegen = Find(diffs, "labels.build_test_codegen");
  ASSERT_NE(codegen, nullptr);
  EXPECT_EQ(codegen->area(), v1::DIFFERENCE_AREA_SOFTWARE);
  EXPECT_EQ(Find(diffs, "labels.git_sha"), nullptr);
}

TEST(EnvironmentDiffTest, StartClockWithinTwoPercentOfTheBaselineIsNoDifference) {
  v1::RunEnvironment near = Env("580");
  near.set_sm_clock_mhz_start(1965);
  EXPECT_EQ(Find(DiffEnvironments({Env("580")}, near), "sm_clock_mhz_start"), nullptr);
  v1::RunEnvironment low = Env("580");
  low.set_sm_clock_mhz_start(1600);
  const auto diffs = DiffEnvironments({Env("580")}, low);
  const v1::EnvironmentDifference* clock = Find(diffs, "sm_clock_mhz_start");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->area(), v1::DIFFERENCE_AREA_CLOCKS);
  EXPECT_EQ(clock->new_value(), "1600");
}

TEST(EnvironmentDiffTest, TemperatureCountsOnlyBeyondFiveDegrees) {
  v1::RunEnvironment warm = Env("580");
  warm.set_temperature_c_start(44);
  EXPECT_TRUE(DiffEnvironments({Env("580")}, warm).empty());
  warm.set_temperature_c_start(60);
  const auto diffs = DiffEnvironments({Env("580")}, warm);
  EXPECT_NE(Find(diffs, "temperature_c_start"), nullptr);
}

TEST(EnvironmentDiffTest, WithoutBaselineRunsThereIsNothingToCompare) {
  EXPECT_TRUE(DiffEnvironments({}, Env("590")).empty());
}

v1::RunEnvironment WithLink(v1::RunEnvironment e, int src, int dst, const std::string& path,
                            int nvlinks) {
  v1::GpuLink* link = e.add_gpu_links();
  link->set_src(src);
  link->set_dst(dst);
  link->set_path(path);
  link->set_nvlinks(nvlinks);
  link->set_through_nvswitch(nvlinks > 0);
  link->set_nvlink_version(4);
  return e;
}

TEST(EnvironmentDiffTest, ALostNvlinkIsADeviceDifferenceNamingThePair) {
  v1::RunEnvironment base = WithLink(WithLink(Env("580"), 0, 1, "NV18", 18), 0, 2, "NV18", 18);
  v1::RunEnvironment now = WithLink(WithLink(Env("580"), 0, 1, "NV17", 17), 0, 2, "NV18", 18);
  const auto diffs = DiffEnvironments({base, base}, now);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].field(), "gpu_links.0-1");
  EXPECT_EQ(diffs[0].area(), v1::DIFFERENCE_AREA_DEVICE);
  ASSERT_EQ(diffs[0].baseline_size(), 1);
  EXPECT_EQ(diffs[0].baseline(0), "NV18, 18 NVLinks via NVSwitch");
  EXPECT_EQ(diffs[0].new_value(), "NV17, 17 NVLinks via NVSwitch");
}

TEST(EnvironmentDiffTest, APairFallenBackToPcieOrGoneIsADifferenceEqualLinksAreNot) {
  v1::RunEnvironment base = WithLink(Env("580"), 0, 1, "NV18", 18);
  EXPECT_TRUE(DiffEnvironments({base}, base).empty());
  const auto pcie = DiffEnvironments({base}, WithLink(Env("580"), 0, 1, "SYS", 0));
  ASSERT_NE(Find(pcie, "gpu_links.0-1"), nullptr);
  EXPECT_EQ(Find(pcie, "gpu_links.0-1")->new_value(), "SYS");
  // A run that records links beside baseline runs that recorded none (an older worker, one GPU)
  // compares nothing; a pair missing from the new run's links reads as "".
  EXPECT_TRUE(DiffEnvironments({Env("580")}, base).empty());
  const auto gone =
      DiffEnvironments({WithLink(base, 0, 2, "NV18", 18)}, WithLink(Env("580"), 0, 1, "NV18", 18));
  ASSERT_NE(Find(gone, "gpu_links.0-2"), nullptr);
  EXPECT_EQ(Find(gone, "gpu_links.0-2")->new_value(), "");
}

}  // namespace
}  // namespace warpwatch::server::incidents
