// Names of verdicts and blames as the API and CLI print them.
#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSame:
      return "SAME";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kUnsure:
      return "UNSURE";
  }
  return "UNSURE";
}

const char* BlameName(Blame blame) {
  switch (blame) {
    case Blame::kNone:
      return "NONE";
    case Blame::kCode:
      return "CODE";
    case Blame::kEnvironment:
      return "ENVIRONMENT";
  }
  return "NONE";
}

}  // namespace warpwatch::server::detect
