// The test-only contention flags.
#include "worker/contention/contention_flags.h"

#include <CLI/CLI.hpp>

namespace warpwatch::worker {

void AddContentionFlags(CLI::App& command, ContentionOptions* o) {
  command
      .add_option_function<double>(
          kContentionGibFlag, [o](const double& v) { o->gib = v; },
          "TEST ONLY, slows the GPU: run a DRAM copy between two buffers of this many GiB on "
          "another stream of the measuring process while the suite runs")
      ->group("");
  command
      .add_option_function<double>(
          kContentionDutyFlag, [o](const double& v) { o->duty = v; },
          "TEST ONLY: fraction of time that copy runs, 0.05-1 (default 1: back to back)")
      ->group("");
}

}  // namespace warpwatch::worker
