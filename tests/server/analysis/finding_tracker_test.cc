// Tests of what a later run does to a standing finding (server/analysis/finding_tracker.h).
#include "server/analysis/finding_tracker.h"

#include <gtest/gtest.h>

namespace warpwatch::server::analysis {
namespace {

ActiveFinding Regression(const std::string& state = kStateOpen, double change = 0.03) {
  ActiveFinding f;
  f.regression_id = 7;
  f.kind = kKindRegression;
  f.state = state;
  f.change = change;
  return f;
}

detect::SeriesDecision Judged(double change, detect::Verdict verdict) {
  detect::SeriesDecision d;
  d.judged = true;
  d.verdict = verdict;
  d.time.change = change;
  d.time.p_value = verdict == detect::Verdict::kSame ? 0.4 : 1e-6;
  return d;
}

TEST(FindingTrackerTest, ARunAtTheNewLevelAttaches) {
  const Tracking t = TrackFinding(Regression(), Judged(0.028, detect::Verdict::kSlower), 12);
  EXPECT_EQ(t.action, TrackAction::kAttach);
  EXPECT_NE(t.note.find("run 12"), std::string::npos) << t.note;
}

TEST(FindingTrackerTest, ARunNearerTheNewLevelAttachesEvenIfNotSignificantAlone) {
  // A noisy series: +2 % is not significant by itself, but nearer +3 % than 0 %.
  EXPECT_EQ(TrackFinding(Regression(), Judged(0.02, detect::Verdict::kSame), 12).action,
            TrackAction::kAttach);
}

TEST(FindingTrackerTest, ARunBackAtTheOldLevelClosesAnOpenFinding) {
  const Tracking t = TrackFinding(Regression(), Judged(0.002, detect::Verdict::kSame), 13);
  EXPECT_EQ(t.action, TrackAction::kClose);
  EXPECT_NE(t.note.find("level returned"), std::string::npos) << t.note;
  EXPECT_EQ(TrackFinding(Regression(kStateAcknowledged), Judged(-0.001, detect::Verdict::kSame), 13)
                .action,
            TrackAction::kClose);
}

TEST(FindingTrackerTest, ASuspectedFindingIsLeftToItsConfirmation) {
  EXPECT_EQ(
      TrackFinding(Regression(kStateSuspected), Judged(0.0, detect::Verdict::kSame), 13).action,
      TrackAction::kNone);
}

TEST(FindingTrackerTest, BelowHalfTheLevelButStillSignificantDoesNothing) {
  // +1.2 % against a +3 % finding, yet significantly above the old level: neither.
  EXPECT_EQ(TrackFinding(Regression(), Judged(0.012, detect::Verdict::kSlower), 13).action,
            TrackAction::kNone);
}

TEST(FindingTrackerTest, AnImprovementTracksTheOtherWay) {
  ActiveFinding f = Regression(kStateOpen, -0.05);
  f.kind = kKindImprovement;
  EXPECT_EQ(TrackFinding(f, Judged(-0.045, detect::Verdict::kFaster), 14).action,
            TrackAction::kAttach);
  EXPECT_EQ(TrackFinding(f, Judged(0.001, detect::Verdict::kSame), 14).action, TrackAction::kClose);
}

TEST(FindingTrackerTest, AnUnjudgedRunDoesNothing) {
  detect::SeriesDecision d;
  d.reason = "unverified";
  const Tracking t = TrackFinding(Regression(), d, 15);
  EXPECT_EQ(t.action, TrackAction::kNone);
  EXPECT_NE(t.note.find("unverified"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::server::analysis
