// File: server/analysis/finding_tracker.cc
#include "server/analysis/finding_tracker.h"

#include <cmath>
#include <cstdio>

namespace warpwatch::server::analysis {

Tracking TrackFinding(const ActiveFinding& finding, const detect::SeriesDecision& decision,
                      int64_t run_id) {
  Tracking t;
  if (!decision.judged) {
    t.note = "not judged: " + decision.reason;
    return t;
  }
  const double change = decision.time.change;
  const double level = finding.change;
  char evidence[200];
  std::snprintf(evidence, sizeof(evidence),
                "run %lld: %+.2f %% against the finding's baseline (its level %+.2f %%), p %.2g",
                static_cast<long long>(run_id), 100 * change, 100 * level, decision.time.p_value);
  const bool same_sign = (change > 0) == (level > 0);
  if (same_sign && std::fabs(change) >= std::fabs(level) / 2) {
    t.action = TrackAction::kAttach;
    t.note = std::string("at the finding's level: ") + evidence;
    return t;
  }
  const bool returned = (!same_sign || std::fabs(change) < std::fabs(level) / 2) &&
                        decision.verdict == detect::Verdict::kSame;
  if (returned && finding.state != kStateSuspected) {
    t.action = TrackAction::kClose;
    t.note = std::string("the level returned: ") + evidence;
    return t;
  }
  t.note = std::string("between the levels: ") + evidence;
  return t;
}

}  // namespace warpwatch::server::analysis
