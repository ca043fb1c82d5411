// The test-only family the engine's fault tests (and its per-launch counter test) run: never
// selected by a glob, never nightly.
#include <vector>

#include "common/catalog/detail/axes.h"
#include "common/catalog/detail/families.h"

namespace warpwatch::catalog::detail {

FamilyInfo TestingFault() {
  FamilyInfo f;
  f.name = "testing.fault";
  f.guide_section = "none (engine fault tests)";
  f.lesson = "a faulting point fails alone; the job and the next points go on";
  f.variants = {
      {"ok", "a correct copy of n floats", false, false},
      {"illegal_address", "writes far outside its buffer: cudaErrorIllegalAddress (sticky)", false,
       false},
      {"trap", "executes __trap(): cudaErrorLaunchFailure (sticky)", false, false},
      {"hang", "spins forever: only the point timeout ends it", false, false},
      {"persistent_error",
       "leaves a stream capture open: every later sync fails with a code no sticky list names "
       "(cudaErrorStreamCaptureUnsupported); only the second-sync rule retires the child",
       false, false},
      {"launch_order",
       "the copy, a one-warp kernel, the copy again (A, B, A): each launch's counters under its "
       "own kernel",
       false, false},
      {"copy_then_memset",
       "the copy, then a 256 MiB cudaMemsetAsync inside the timed region: the published time is "
       "not the kernel's (the time cross-check flags it)",
       false, false},
  };
  f.axes = {ProblemSizeAxis("float elements", {1 << 20}, 1, 1 << 24)};
  f.test_only = true;
  return f;
}

}  // namespace warpwatch::catalog::detail
