// Tests of the code-or-GPU table.
#include "server/detect/attribution.h"

#include <gtest/gtest.h>

namespace warpwatch::server::detect {
namespace {

TEST(AttributionTest, ASlowerTimeAtTheSameClockIsTheCode) {
  const Attribution a = Attribute(Move::kUp, Move::kUp, ClockComparison::kSame, 0.0);
  EXPECT_EQ(a.verdict, Verdict::kSlower);
  EXPECT_EQ(a.blame, Blame::kCode);
}

TEST(AttributionTest, AnUnmovedTimeIsSameAndBlamesNobody) {
  const Attribution a = Attribute(Move::kSame, Move::kSame, ClockComparison::kSame, 0.0);
  EXPECT_EQ(a.verdict, Verdict::kSame);
  EXPECT_EQ(a.blame, Blame::kNone);
}

TEST(AttributionTest, SlowerTimeAndCyclesAtALowerClockAreTheCode) {
  const Attribution a = Attribute(Move::kUp, Move::kUp, ClockComparison::kChanged, -0.1);
  EXPECT_EQ(a.verdict, Verdict::kSlower);
  EXPECT_EQ(a.blame, Blame::kCode);
}

TEST(AttributionTest, SlowerTimeWithTheSameCyclesAtALowerClockIsTheGpu) {
  const Attribution a = Attribute(Move::kUp, Move::kSame, ClockComparison::kChanged, -0.1);
  EXPECT_EQ(a.verdict, Verdict::kSlower);
  EXPECT_EQ(a.blame, Blame::kEnvironment);
}

TEST(AttributionTest, SlowerTimeWithFewerCyclesAtALowerClockIsTheGpu) {
  const Attribution a = Attribute(Move::kUp, Move::kDown, ClockComparison::kChanged, -0.2);
  EXPECT_EQ(a.verdict, Verdict::kSlower);
  EXPECT_EQ(a.blame, Blame::kEnvironment);
}

TEST(AttributionTest, FasterTimeWithTheSameCyclesAtAHigherClockIsTheGpu) {
  const Attribution a = Attribute(Move::kDown, Move::kSame, ClockComparison::kChanged, 0.1);
  EXPECT_EQ(a.verdict, Verdict::kFaster);
  EXPECT_EQ(a.blame, Blame::kEnvironment);
}

TEST(AttributionTest, FasterTimeWithMoreCyclesAtAHigherClockIsUnsure) {
  // The GPU got faster and hid code that needs more cycles.
  const Attribution a = Attribute(Move::kDown, Move::kUp, ClockComparison::kChanged, 0.2);
  EXPECT_EQ(a.verdict, Verdict::kUnsure);
  EXPECT_NE(a.reason.find("hidden"), std::string::npos);
}

TEST(AttributionTest, SlowerTimeWithTheSameCyclesAtAHigherClockIsUnsure) {
  // No clock change makes a kernel slower by running it faster.
  const Attribution a = Attribute(Move::kUp, Move::kSame, ClockComparison::kChanged, 0.1);
  EXPECT_EQ(a.verdict, Verdict::kUnsure);
}

TEST(AttributionTest, UnchangedTimeWithMovedCyclesIsUnsure) {
  const Attribution a = Attribute(Move::kSame, Move::kUp, ClockComparison::kChanged, 0.1);
  EXPECT_EQ(a.verdict, Verdict::kUnsure);
  EXPECT_NE(a.reason.find("memory-bound"), std::string::npos);
}

TEST(AttributionTest, AnUnknownClockKeepsTheVerdictButBlamesNobody) {
  const Attribution a = Attribute(Move::kUp, Move::kSame, ClockComparison::kUnknown, 0.0);
  EXPECT_EQ(a.verdict, Verdict::kSlower);
  EXPECT_EQ(a.blame, Blame::kNone);
  EXPECT_FALSE(a.reason.empty());
}

TEST(AttributionTest, VerdictsAndBlamesHaveTheirApiNames) {
  EXPECT_STREQ(VerdictName(Verdict::kSlower), "SLOWER");
  EXPECT_STREQ(VerdictName(Verdict::kUnsure), "UNSURE");
  EXPECT_STREQ(BlameName(Blame::kEnvironment), "ENVIRONMENT");
}

}  // namespace
}  // namespace warpwatch::server::detect
