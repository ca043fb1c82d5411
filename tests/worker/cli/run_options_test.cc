// Tests of `warpwatch-worker run` flags -> JobSpec.
#include "worker/cli/run_options.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(RunOptions, AxisFlagWithFamily) {
  auto a = ParseAxisFlag("reduce:block_size=128,256");
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->family(), "reduce");
  EXPECT_EQ(a->axis(), "block_size");
  ASSERT_EQ(a->values_size(), 2);
  EXPECT_EQ(a->values(1), 256);
}

TEST(RunOptions, AxisFlagWithoutFamilyAppliesToAll) {
  auto a = ParseAxisFlag("n=16777216");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->family(), "");
  EXPECT_EQ(a->values(0), 16777216);
}

TEST(RunOptions, MalformedAxisFlagsNameTheFlag) {
  for (const char* bad : {"n", "n=", "n=1,,2", "n=abc", "=5", "memory.*:=1"}) {
    auto a = ParseAxisFlag(bad);
    ASSERT_FALSE(a.ok()) << bad;
    EXPECT_NE(a.status().message().find("--axis"), std::string::npos);
  }
}

TEST(RunOptions, BuildsSpecWithSettings) {
  RunOptions o;
  o.families = {"memory.*"};
  o.variants = {"copy"};
  o.axes = {"n=1024"};
  o.max_noise_percent = 1;
  o.min_samples = 20;
  o.counters = true;
  auto spec = BuildJobSpec(o);
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->families(0), "memory.*");
  EXPECT_EQ(spec->variants(0), "copy");
  EXPECT_DOUBLE_EQ(spec->measurement().target_noise(), 0.01);
  EXPECT_EQ(spec->measurement().min_samples(), 20);
  EXPECT_TRUE(spec->measurement().collect_counters());
  EXPECT_FALSE(spec->measurement().has_l2_flush());
}

TEST(RunOptions, MinTimeAndSampleGroupsReachTheSpec) {
  RunOptions o;
  o.min_time_seconds = 0.25;
  o.sample_groups = 4;
  auto spec = BuildJobSpec(o);
  ASSERT_TRUE(spec.ok());
  EXPECT_DOUBLE_EQ(spec->measurement().min_gpu_time_seconds(), 0.25);
  EXPECT_EQ(spec->measurement().sample_groups(), 4);
}

TEST(RunOptions, SampleGroupsOutOfRangeNameTheFlag) {
  RunOptions o;
  o.sample_groups = 17;
  auto spec = BuildJobSpec(o);
  ASSERT_FALSE(spec.ok());
  EXPECT_NE(spec.status().message().find("--sample-groups"), std::string::npos);
}

TEST(RunOptions, NoFamilyMeansEveryFamily) {
  auto spec = BuildJobSpec(RunOptions{});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec->families_size(), 1);
  EXPECT_EQ(spec->families(0), "*");
}

TEST(RunOptions, NamingOnlyNodeFamiliesMakesANodeJob) {
  RunOptions o;
  o.families = {"interconnect.nccl", "interconnect.peer_copy"};
  auto spec = BuildJobSpec(o);
  ASSERT_TRUE(spec.ok()) << spec.status().ToString();
  EXPECT_TRUE(spec->node_scoped());
}

TEST(RunOptions, GlobsAndGpuFamiliesStayGpuJobsUnlessNodeIsGiven) {
  RunOptions o;
  o.families = {"interconnect.*"};
  auto glob = BuildJobSpec(o);
  ASSERT_TRUE(glob.ok());
  EXPECT_FALSE(glob->node_scoped());
  o.families = {"interconnect.nccl", "reduce"};
  EXPECT_FALSE(BuildJobSpec(o)->node_scoped());
  o.families = {};
  EXPECT_FALSE(BuildJobSpec(o)->node_scoped());
  o.node = true;
  EXPECT_TRUE(BuildJobSpec(o)->node_scoped());
}

}  // namespace
}  // namespace warpwatch::worker
