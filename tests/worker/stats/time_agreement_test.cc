// Tests of the event-vs-kernel time agreement flag.
#include "worker/stats/time_agreement.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// H100: a 1 us kernel timed with nothing holding the stream read 6.3 us by events.
TEST(TimeAgreement, HostLaunchTimeInsideTheTimedRegionIsFlagged) {
  EXPECT_TRUE(TimesDisagree(6.3e-6, 1.06e-6));
  EXPECT_NEAR(EventKernelGap(6.3e-6, 1.06e-6), 4.94, 0.01);
}

// H100: events read a fixed ~2.5 us more than CUPTI's kernel start-to-end.
TEST(TimeAgreement, TheFixedEventOverheadIsNotFlagged) {
  EXPECT_FALSE(TimesDisagree(3.20e-6, 1.06e-6));
  EXPECT_FALSE(TimesDisagree(43.0e-6, 40.5e-6));
  EXPECT_FALSE(TimesDisagree(98.8e-6, 96.3e-6));
}

TEST(TimeAgreement, EventsShorterThanTheKernelAreFlagged) {
  EXPECT_TRUE(TimesDisagree(40e-6, 45e-6));
  EXPECT_FALSE(TimesDisagree(40.0e-6, 40.5e-6));
}

TEST(TimeAgreement, UnknownKernelTimeIsNeverFlagged) {
  EXPECT_FALSE(TimesDisagree(49e-6, 0));
  EXPECT_EQ(EventKernelGap(49e-6, 0), 0);
}

}  // namespace
}  // namespace warpwatch::worker
