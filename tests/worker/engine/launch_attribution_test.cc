// Tests of filing the counter pass's launches under the kernels they ran.
#include "worker/engine/launch_attribution.h"

#include <gtest/gtest.h>

#include "common/catalog/catalog.h"

namespace warpwatch::worker {
namespace {

constexpr const char* kOccupancy = catalog::kAchievedOccupancyCounter;
constexpr const char* kDram = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
// Symbols as nvcc emits them for kernels in an anonymous namespace.
constexpr const char* kA = "_ZN12_GLOBAL__N_17KernelAEPKfPfl";
constexpr const char* kB = "_ZN12_GLOBAL__N_17KernelBEPfl";

// The kernels as the duration pass lists them: one entry per distinct kernel, in first-launch
// order, with its launches per Run().
v1::Measurement TracedAB() {
  v1::Measurement m;
  v1::KernelInfo* a = m.add_kernels();
  a->set_name("KernelA");
  a->set_demangled("(anonymous namespace)::KernelA(float const*, float*, long)");
  a->set_mangled(kA);
  a->set_launches(2);
  v1::KernelInfo* b = m.add_kernels();
  b->set_name("KernelB");
  b->set_demangled("(anonymous namespace)::KernelB(float*, long)");
  b->set_mangled(kB);
  b->set_launches(1);
  m.mutable_occupancy()->set_theoretical(1.0);
  return m;
}

LaunchCounters Launch(const std::string& name, double occupancy, double dram) {
  return LaunchCounters{name, {{kOccupancy, occupancy}, {kDram, dram}}};
}

// The defect this replaces: counters were filed by launch index onto the per-kernel list, so B
// got A's second launch and B's own counters went to a third, nameless kernel.
TEST(LaunchAttribution, RunLaunchingABAKeepsEachLaunchUnderItsKernel) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch(kA, 90, 80), Launch(kB, 2, 1), Launch(kA, 88, 79)}, {}, &m);
  ASSERT_EQ(m.kernels_size(), 2);
  ASSERT_EQ(m.launches_size(), 3);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), 1);
  EXPECT_EQ(m.launches(2).kernel(), 0);
  EXPECT_EQ(m.launches(1).counters().at(kDram), 1);
  EXPECT_EQ(m.launches(2).counters().at(kDram), 79);
  EXPECT_EQ(m.kernels(0).counters().at(kDram), 80);  // A's first launch
  EXPECT_EQ(m.kernels(1).counters().at(kDram), 1);   // B's own
  EXPECT_EQ(m.counters().at(kDram), 80);
  EXPECT_DOUBLE_EQ(m.occupancy().achieved(), 0.9);
}

// By index, A, A, B filed A's second launch under B.
TEST(LaunchAttribution, RunLaunchingAABKeepsBsCountersUnderB) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch(kA, 90, 80), Launch(kA, 88, 79), Launch(kB, 2, 1)}, {}, &m);
  ASSERT_EQ(m.kernels_size(), 2);
  EXPECT_EQ(m.kernels(1).counters().at(kDram), 1);
  EXPECT_EQ(m.launches(1).kernel(), 0);
  EXPECT_EQ(m.launches(2).kernel(), 1);
}

TEST(LaunchAttribution, RangesNamedByShortOrDemangledNameMatchTheirKernel) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch("KernelA", 90, 80), Launch(m.kernels(1).demangled(), 2, 1)}, {},
                          &m);
  ASSERT_EQ(m.kernels_size(), 2);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), 1);
}

TEST(LaunchAttribution, UnnamedRangesTakeTheTracedLaunchOrder) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch("", 90, 80), Launch("", 2, 1), Launch("", 88, 79)}, {kA, kB, kA},
                          &m);
  ASSERT_EQ(m.launches_size(), 3);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), 1);
  EXPECT_EQ(m.launches(2).kernel(), 0);
  EXPECT_EQ(m.kernels(1).counters().at(kDram), 1);
}

// CUPTI 13.0 on the H100 names auto ranges "0", "1", "2": the traced launches name them.
TEST(LaunchAttribution, IndexNamedRangesFollowTheTracedLaunchOrder) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch("0", 90, 80), Launch("1", 2, 1), Launch("2", 88, 79)},
                          {kA, kB, kA}, &m);
  ASSERT_EQ(m.kernels_size(), 2);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), 1);
  EXPECT_EQ(m.launches(2).kernel(), 0);
}

// Counted differently, the traced order cannot be trusted to line up: past the first launch (the
// first kernel's, by the Case contract) the launches stay unattributed rather than filed under a
// guess, and the note says so.
TEST(LaunchAttribution, UnnamedRangesThatDoNotLineUpAreLeftUnattributed) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch("0", 90, 80), Launch("1", 2, 1)}, {kA, kB, kA}, &m);
  ASSERT_EQ(m.launches_size(), 2);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), -1);
  EXPECT_EQ(m.kernels(0).counters().at(kDram), 80);
  EXPECT_TRUE(m.kernels(1).counters().empty());
  EXPECT_EQ(m.kernels_size(), 2);
  EXPECT_EQ(m.counters().at(kDram), 80);
  EXPECT_NE(m.counters_note().find("1 of 2 kernel launches not attributed"), std::string::npos)
      << m.counters_note();
}

// concurrency.streams: one kernel launched once per stream. Every launch is that kernel's; no
// nameless kernel appears.
TEST(LaunchAttribution, OneKernelLaunchedFourTimesHasFourLaunchesAndOneKernel) {
  v1::Measurement m;
  v1::KernelInfo* k = m.add_kernels();
  k->set_name("StreamWork");
  k->set_mangled("_ZN9warpwatch7kernels10StreamWorkEPKfPfli");
  k->set_launches(4);
  std::vector<LaunchCounters> launches;
  for (int i = 0; i < 4; ++i) launches.push_back(Launch(k->mangled(), 12, 3));
  AttributeLaunchCounters(launches, {}, &m);
  ASSERT_EQ(m.kernels_size(), 1);
  ASSERT_EQ(m.launches_size(), 4);
  for (const v1::KernelLaunch& l : m.launches()) EXPECT_EQ(l.kernel(), 0);
}

// A kernel the traced launches name but the list lacks (the list held only the first kernel, from
// its function) is added, with its launches counted.
TEST(LaunchAttribution, KernelsOnlyTheTracedLaunchesNameAreAdded) {
  v1::Measurement m;
  v1::KernelInfo* a = m.add_kernels();
  a->set_name("KernelA");
  a->set_mangled(kA);
  AttributeLaunchCounters({Launch("0", 90, 80), Launch("1", 2, 1), Launch("2", 88, 79)},
                          {kA, kB, kA}, &m);
  ASSERT_EQ(m.kernels_size(), 2);
  EXPECT_EQ(m.kernels(1).mangled(), kB);
  EXPECT_EQ(m.kernels(1).name(), "KernelB");
  EXPECT_EQ(m.kernels(0).launches(), 2);
  EXPECT_EQ(m.kernels(1).launches(), 1);
  EXPECT_EQ(m.launches(1).kernel(), 1);
  EXPECT_TRUE(m.counters_note().empty());
}

// Without the duration pass nothing names the ranges but the Case contract: the first launch is
// the first kernel's. The others are kept, unattributed, and no kernel is invented from "1".
TEST(LaunchAttribution, WithoutTracedLaunchesOnlyTheFirstLaunchIsAttributed) {
  v1::Measurement m;
  v1::KernelInfo* a = m.add_kernels();
  a->set_name("KernelA");
  a->set_mangled(kA);
  AttributeLaunchCounters({Launch("0", 90, 80), Launch("1", 2, 1), Launch("2", 88, 79)}, {}, &m);
  ASSERT_EQ(m.kernels_size(), 1);
  ASSERT_EQ(m.launches_size(), 3);
  EXPECT_EQ(m.launches(0).kernel(), 0);
  EXPECT_EQ(m.launches(1).kernel(), -1);
  EXPECT_EQ(m.launches(2).kernel(), -1);
  EXPECT_EQ(m.launches(1).counters().at(kDram), 1);
  EXPECT_EQ(m.kernels(0).launches(), 1);
  EXPECT_NE(m.counters_note().find("2 of 3"), std::string::npos) << m.counters_note();
}

// The achieved occupancy belongs to kernel 0, whose occupancy the point reports, even when
// another kernel's launch comes first.
TEST(LaunchAttribution, AchievedOccupancyComesFromKernelZerosFirstLaunch) {
  v1::Measurement m = TracedAB();
  AttributeLaunchCounters({Launch(kB, 2, 1), Launch(kA, 75, 80)}, {}, &m);
  EXPECT_DOUBLE_EQ(m.occupancy().achieved(), 0.75);
}

}  // namespace
}  // namespace warpwatch::worker
