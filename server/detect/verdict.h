// What the detector concludes about one case, and whom it blames.
#ifndef WARPWATCH_SERVER_DETECT_VERDICT_H_
#define WARPWATCH_SERVER_DETECT_VERDICT_H_

namespace warpwatch::server::detect {

enum class Verdict {
  kSame,    // within the series' noise or below the minimum change
  kSlower,  // beyond the z threshold and the minimum change, slower
  kFaster,
  kUnsure,  // cannot be judged: too few good baseline runs, a bad candidate, or time and cycles
            // that disagree in a way no clock change explains; `reason` says which
};

// Who moved, when the verdict is kSlower or kFaster.
enum class Blame {
  kNone,         // kSame or kUnsure
  kCode,         // cycles (time x SM clock) moved with the time, or the clock did not change
  kEnvironment,  // the time moved but the cycles did not: the GPU ran at another clock
};

// "SAME", "SLOWER", "FASTER", "UNSURE" / "NONE", "CODE", "ENVIRONMENT".
const char* VerdictName(Verdict verdict);
const char* BlameName(Blame blame);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_VERDICT_H_
