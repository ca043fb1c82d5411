// The code-or-GPU table of attribution.h.
#include "server/detect/attribution.h"

#include <cstdio>

namespace warpwatch::server::detect {
namespace {

Verdict TimeVerdict(Move time) {
  switch (time) {
    case Move::kUp:
      return Verdict::kSlower;
    case Move::kDown:
      return Verdict::kFaster;
    case Move::kSame:
      return Verdict::kSame;
  }
  return Verdict::kUnsure;
}

std::string ClockText(double clock_change) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "SM clock %+.1f %%", 100 * clock_change);
  return buffer;
}

}  // namespace

const char* MoveName(Move move) {
  switch (move) {
    case Move::kSame:
      return "same";
    case Move::kUp:
      return "up";
    case Move::kDown:
      return "down";
  }
  return "same";
}

Attribution Attribute(Move time, Move cycles, ClockComparison clock, double clock_change) {
  Attribution a;
  a.verdict = TimeVerdict(time);
  const bool moved = time != Move::kSame;
  if (clock == ClockComparison::kSame) {
    a.blame = moved ? Blame::kCode : Blame::kNone;
    return a;
  }
  if (clock == ClockComparison::kUnknown) {
    a.blame = Blame::kNone;
    if (moved) a.reason = "SM clock not recorded: cannot tell slower code from a slower GPU";
    return a;
  }
  const std::string clock_text = ClockText(clock_change);
  if (time == cycles) {
    a.blame = moved ? Blame::kCode : Blame::kNone;
    if (moved) a.reason = "cycles moved with the time (" + clock_text + ")";
    return a;
  }
  const bool clock_down = clock_change < 0;
  if (time == Move::kUp && cycles != Move::kUp && clock_down) {
    a.blame = Blame::kEnvironment;
    a.reason = "time slower but cycles " + std::string(MoveName(cycles)) +
               ": the GPU ran slower (" + clock_text + ")";
    return a;
  }
  if (time == Move::kDown && cycles == Move::kSame && !clock_down) {
    a.blame = Blame::kEnvironment;
    a.reason = "time faster but cycles the same: the GPU ran faster (" + clock_text + ")";
    return a;
  }
  a.verdict = Verdict::kUnsure;
  a.blame = Blame::kNone;
  a.reason = "time " + std::string(MoveName(time)) + " but cycles " + MoveName(cycles) + " with " +
             clock_text + ": ";
  if (time == Move::kSame) {
    a.reason += "a memory-bound kernel, or a code change the clock hid; re-run at the old clock";
  } else if (time == Move::kDown) {
    a.reason += "a code slowdown hidden by a faster GPU";
  } else {
    a.reason += "no clock change explains it";
  }
  return a;
}

}  // namespace warpwatch::server::detect
