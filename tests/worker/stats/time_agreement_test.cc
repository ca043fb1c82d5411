// Tests of the event-vs-kernel time agreement flag.
#include "worker/stats/time_agreement.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

// The H100 figures of the memset flush: 49.0 us by events where the copy kernel ran 42.6 us.
TEST(TimeAgreement, DirtyL2WriteBackInsideTheTimedRegionIsFlagged) {
  EXPECT_TRUE(TimesDisagree(49.0e-6, 42.6e-6));
  EXPECT_NEAR(EventKernelGap(49.0e-6, 42.6e-6), 0.150, 1e-3);
}

TEST(TimeAgreement, EventRecordOverheadOfAboutAMicrosecondIsNotFlagged) {
  EXPECT_FALSE(TimesDisagree(44.4e-6, 43.6e-6));
  EXPECT_FALSE(TimesDisagree(5.9e-6, 5.0e-6));
}

TEST(TimeAgreement, EventsShorterThanTheKernelBeyondTheThresholdAreFlaggedToo) {
  EXPECT_TRUE(TimesDisagree(40e-6, 45e-6));
}

TEST(TimeAgreement, UnknownKernelTimeIsNeverFlagged) {
  EXPECT_FALSE(TimesDisagree(49e-6, 0));
  EXPECT_EQ(EventKernelGap(49e-6, 0), 0);
}

}  // namespace
}  // namespace warpwatch::worker
