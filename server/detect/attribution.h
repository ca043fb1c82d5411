// Code or GPU: combines how the time moved with how the cycles (time x SM clock) moved.
#ifndef WARPWATCH_SERVER_DETECT_ATTRIBUTION_H_
#define WARPWATCH_SERVER_DETECT_ATTRIBUTION_H_

#include <string>

#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

// A quantity compared with its reference: beyond the thresholds up, down, or neither.
enum class Move { kSame, kUp, kDown };

enum class ClockComparison {
  kSame,     // both clocks known and within the tolerance: cycles add nothing
  kUnknown,  // a clock is missing: time is judged, but code and GPU cannot be told apart
  kChanged,  // both known and different: cycles decide who is to blame
};

struct Attribution {
  Verdict verdict = Verdict::kUnsure;
  Blame blame = Blame::kNone;
  std::string reason;  // empty for plain SAME/SLOWER/FASTER with the clock unchanged
};

// The verdict follows the time; the blame follows the cycles when the clock changed:
//  - clock the same: time up/down => SLOWER/FASTER blamed on CODE; else SAME.
//  - clock unknown: as above but blamed on nobody (kNone) with a reason; the cycles are unknown.
//  - clock changed (clock_change = new / old - 1):
//      time and cycles moved alike                        => that verdict, CODE
//      time up, cycles same or down, clock down           => SLOWER, ENVIRONMENT
//      time down, cycles same, clock up                   => FASTER, ENVIRONMENT
//      time down, cycles up (a code slowdown a faster clock hid), time same but cycles moved
//      (a memory-bound kernel, or code hidden by the clock), any other mix => UNSURE.
// `cycles` is read only when clock == kChanged.
Attribution Attribute(Move time, Move cycles, ClockComparison clock, double clock_change);

// "same", "up", "down".
const char* MoveName(Move move);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_ATTRIBUTION_H_
