// Tests of the published-time-vs-kernel-time agreement flag.
#include "worker/stats/time_agreement.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// H100: a 1 us kernel timed with nothing holding the stream read 6.3 us by events.
TEST(TimeAgreement, HostLaunchTimeInsideTheTimedRegionIsFlagged) {
  EXPECT_TRUE(TimesDisagree(6.3e-6, 1.06e-6));
  EXPECT_NEAR(EventKernelGap(6.3e-6, 1.06e-6), 4.94, 0.01);
}

// H100: events read a fixed ~2.4 us more than CUPTI's kernel start-to-end.
TEST(TimeAgreement, TheFixedEventOverheadIsNotFlagged) {
  EXPECT_FALSE(TimesDisagree(3.20e-6, 1.06e-6));
  EXPECT_FALSE(TimesDisagree(43.0e-6, 40.5e-6));
  EXPECT_FALSE(TimesDisagree(98.8e-6, 96.3e-6));
}

// The widest kernel-only points of the H100 nightly stay inside the band.
TEST(TimeAgreement, TheWidestKernelOnlyPointsOfTheH100NightlyAreNotFlagged) {
  EXPECT_FALSE(TimesDisagree(3106.24e-6, 3126.89e-6));  // matmul/naive: -20.6 us of 3.1 ms
  EXPECT_FALSE(TimesDisagree(1383.97e-6, 1372.82e-6));  // coalescing/scattered 2^26: +11.2 us
}

TEST(TimeAgreement, EventsShorterThanTheKernelAreFlagged) {
  EXPECT_TRUE(TimesDisagree(40e-6, 45e-6));
  EXPECT_TRUE(TimesDisagree(40.0e-6, 40.5e-6));  // 2.9 us short of the overhead
  EXPECT_FALSE(TimesDisagree(42.5e-6, 40.5e-6));
}

TEST(TimeAgreement, UnknownKernelTimeIsNeverFlagged) {
  EXPECT_FALSE(TimesDisagree(49e-6, 0));
  EXPECT_EQ(EventKernelGap(49e-6, 0), 0);
}

// A memset of 90 us after a 41 us copy: what the headline publishes is not the kernel's time.
TEST(TimeAgreement, HeadlineIsComparedWhenTracingCostsLittle) {
  TimeAgreement a = CompareWithKernels(131e-6, 131.4e-6, 40.6e-6);
  EXPECT_TRUE(a.against_headline);
  EXPECT_NEAR(a.tracing_cost, 0.003, 1e-3);
  EXPECT_TRUE(a.disagree);
  EXPECT_NEAR(a.gap, 131.0 / 40.6 - 1, 1e-9);
}

// The headline differs from a traced kernel by the tracing cost, not by anything in the region:
// occupancy.shared_memory/padded?shared_bytes=49152 on the H100 (headline 101.50 us, traced
// events 110.59 us, traced kernel 108.21 us). Against the headline it would read 6.7 us short;
// against the traced events of the same pass it agrees.
TEST(TimeAgreement, CostlyTracingComparesTheTracedEventsInstead) {
  TimeAgreement a = CompareWithKernels(101.50e-6, 110.59e-6, 108.21e-6);
  EXPECT_FALSE(a.against_headline);
  EXPECT_NEAR(a.tracing_cost, 0.0896, 1e-3);
  EXPECT_FALSE(a.disagree);
  EXPECT_TRUE(TimesDisagree(101.50e-6, 108.21e-6));
}

TEST(TimeAgreement, UnknownTracedEventsCompareTheHeadline) {
  TimeAgreement a = CompareWithKernels(43e-6, 0, 40.5e-6);
  EXPECT_TRUE(a.against_headline);
  EXPECT_EQ(a.tracing_cost, 0);
  EXPECT_FALSE(a.disagree);
}

}  // namespace
}  // namespace warpwatch::worker
