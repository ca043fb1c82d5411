// File: server/analysis/finding_tracker.h
// One report per change: what a later run of a GPU does to the finding still standing for its
// series. The run is judged against the finding's own baseline (the old level); while it stays
// nearer the new level it attaches to the finding (the evidence grows, no new row, no new
// confirmation job); once it is back at the old level the detector closes the finding. Policy in
// docs/regressions.md ("One report per change").
#ifndef WARPWATCH_SERVER_ANALYSIS_FINDING_TRACKER_H_
#define WARPWATCH_SERVER_ANALYSIS_FINDING_TRACKER_H_

#include <string>

#include "server/analysis/analysis_store.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::analysis {

enum class TrackAction {
  kNone,    // not judged, or between the two levels: nothing is written
  kAttach,  // still at the finding's level: AttachToFinding
  kClose,   // the level returned (an OPEN or ACKNOWLEDGED finding): CloseFinding
};

struct Tracking {
  TrackAction action = TrackAction::kNone;
  std::string note;  // why; the closing event's note for kClose
};

// `decision`: the run's point against the finding's baseline runs (DecideSeries or the pinned
// decision, with the same noise model). At the level: the change has the finding's sign and at
// least half its size (nearer the new level than the old). Returned: under half of it, and the
// decision found no significant move (SAME). A SUSPECTED finding is never closed here: its
// confirmation run decides.
Tracking TrackFinding(const ActiveFinding& finding, const detect::SeriesDecision& decision,
                      int64_t run_id);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_FINDING_TRACKER_H_
