// Tests of splitting CUPTI kernel records into the samples of a point.
#include "worker/profiler/kernel_trace.h"

#include <gtest/gtest.h>

#include <vector>

#include "worker/stats/sample_stats.h"

namespace warpwatch::worker {
namespace {

constexpr const char* kMarker = "stamp";

// A sample: flush kernel, stamp, the Run's kernels, stamp.
void AddSample(std::vector<KernelRecord>* r, uint64_t t0, uint64_t main_ns, uint64_t final_ns) {
  r->push_back({"flush", t0, t0 + 30000});
  r->push_back({kMarker, t0 + 31000, t0 + 32000});
  r->push_back({"main", t0 + 33000, t0 + 33000 + main_ns});
  r->push_back({"final", t0 + 34000 + main_ns, t0 + 34000 + main_ns + final_ns});
  r->push_back({kMarker, t0 + 40000 + main_ns, t0 + 41000 + main_ns});
}

TEST(KernelTrace, KernelsBetweenMarkersFormOneSampleEach) {
  std::vector<KernelRecord> records;
  AddSample(&records, 0, 40000, 2000);
  AddSample(&records, 1000000, 42000, 2000);
  AddSample(&records, 2000000, 41000, 2000);
  KernelTrace t = SplitSamples(records, kMarker);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].symbol, "main");
  EXPECT_EQ(t.kernels[1].symbol, "final");
  ASSERT_EQ(t.kernels[0].seconds.size(), 3u);
  EXPECT_DOUBLE_EQ(Percentile(t.kernels[0].seconds, 50), 41e-6);
  EXPECT_DOUBLE_EQ(Percentile(t.kernels[1].seconds, 50), 2e-6);
  ASSERT_EQ(t.span_seconds.size(), 3u);
  // From main's start to final's end: main + 1 us gap + final.
  EXPECT_DOUBLE_EQ(t.span_seconds[0], 43e-6);
  EXPECT_EQ(t.kernels[0].launches_per_sample, 1);
}

// A kernel of another stream of the process (the test contention's copy) that starts inside a
// sample's markers is counted as the point's unless it is dropped first.
TEST(KernelTrace, ForeignKernelsAreDroppedBeforeTheSplit) {
  std::vector<KernelRecord> records;
  AddSample(&records, 0, 40000, 2000);
  records.push_back({"contention_copy", 31500, 250000});
  KernelTrace mixed = SplitSamples(records, kMarker);
  ASSERT_EQ(mixed.kernels.size(), 3u);  // what WithoutKernels prevents
  KernelTrace clean = SplitSamples(WithoutKernels(records, {"contention_copy"}), kMarker);
  ASSERT_EQ(clean.kernels.size(), 2u);
  EXPECT_EQ(clean.kernels[0].symbol, "main");
  EXPECT_EQ(clean.kernels[1].symbol, "final");
  ASSERT_EQ(clean.span_seconds.size(), 1u);
  EXPECT_DOUBLE_EQ(clean.span_seconds[0], 43e-6);
  EXPECT_EQ(WithoutKernels(records, {}).size(), records.size());
}

TEST(KernelTrace, RecordsArriveInAnyOrder) {
  std::vector<KernelRecord> records;
  AddSample(&records, 0, 40000, 2000);
  AddSample(&records, 1000000, 40000, 2000);
  std::vector<KernelRecord> reversed(records.rbegin(), records.rend());
  KernelTrace t = SplitSamples(reversed, kMarker);
  ASSERT_EQ(t.span_seconds.size(), 2u);
  EXPECT_EQ(t.kernels[0].symbol, "main");
}

TEST(KernelTrace, RepeatedLaunchesOfOneKernelAreSummedPerSample) {
  std::vector<KernelRecord> records = {
      {kMarker, 0, 100}, {"step", 1000, 2000}, {"step", 3000, 4000}, {kMarker, 5000, 5100}};
  KernelTrace t = SplitSamples(records, kMarker);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.kernels[0].launches_per_sample, 2);
  EXPECT_DOUBLE_EQ(t.kernels[0].seconds[0], 2e-6);
  EXPECT_DOUBLE_EQ(t.span_seconds[0], 3e-6);
}

TEST(KernelTrace, SampleWithoutKernelsHasNoSpan) {
  // A memcpy-only Run: nothing between the markers.
  std::vector<KernelRecord> records = {{kMarker, 0, 100}, {kMarker, 5000, 5100}};
  KernelTrace t = SplitSamples(records, kMarker);
  EXPECT_TRUE(t.kernels.empty());
  EXPECT_TRUE(t.span_seconds.empty());
}

TEST(KernelTrace, MedianOfEmptyIsZero) { EXPECT_EQ(Percentile({}, 50), 0); }

// A Run() that launches A, B, A: two kernels, and the launches in their order.
TEST(KernelTrace, LaunchSymbolsKeepEveryLaunchInOrder) {
  std::vector<KernelRecord> records = {
      {kMarker, 0, 1000},    {"A", 2000, 3000},       {"B", 4000, 5000},   {"A", 6000, 7000},
      {kMarker, 8000, 9000}, {kMarker, 10000, 11000}, {"A", 12000, 13000}, {"B", 14000, 15000},
      {"A", 16000, 17000},   {kMarker, 18000, 19000}};
  KernelTrace t = SplitSamples(records, kMarker);
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].launches_per_sample, 2);
  EXPECT_EQ(t.kernels[1].launches_per_sample, 1);
  EXPECT_EQ(t.launch_symbols, (std::vector<std::string>{"A", "B", "A"}));
}

}  // namespace
}  // namespace warpwatch::worker
