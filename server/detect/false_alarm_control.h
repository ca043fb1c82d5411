// File: server/detect/false_alarm_control.h
// False alarms controlled over one run's decisions, not per case: a night of a fleet is thousands
// of decisions (1000 GPUs x 144 cases), so a per-case rate that sounds small pages someone every
// night. Benjamini-Hochberg at rate q over the run's judged decisions, on the noise model's
// p-values (never the U-test's): when nothing changed it bounds the chance that the run raises any
// flag by q; when many cases moved together (a real change) the cutoff loosens with them.
#ifndef WARPWATCH_SERVER_DETECT_FALSE_ALARM_CONTROL_H_
#define WARPWATCH_SERVER_DETECT_FALSE_ALARM_CONTROL_H_

#include <cstddef>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/series_decision.h"

namespace warpwatch::server::detect {

struct FalseAlarmControl {
  size_t decisions = 0;  // judged decisions of the run (m)
  double cutoff = 0;     // the largest p that stays a move: q * i / m, 0 when none does
  size_t demoted = 0;    // SLOWER/FASTER verdicts turned SAME by the control
};

// Applies Benjamini-Hochberg at config.false_alarm_rate to `decisions` (the run's, judged or not;
// only judged ones count): a SLOWER or FASTER verdict whose time p-value is above the cutoff
// becomes SAME (blame NONE, the reason says why). Every judged decision gets the cutoff, m, and its
// minimum detectable change recomputed for m decisions. Pointers must be non-null.
FalseAlarmControl ControlFalseAlarms(const std::vector<SeriesDecision*>& decisions,
                                     const DetectionConfig& config);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_FALSE_ALARM_CONTROL_H_
