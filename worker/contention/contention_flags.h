// The test-only contention flags on a CLI11 subcommand (`run`, `serve` and the hidden `exec`).
#ifndef WARPWATCH_WORKER_CONTENTION_CONTENTION_FLAGS_H_
#define WARPWATCH_WORKER_CONTENTION_CONTENTION_FLAGS_H_

#include "worker/contention/contention_options.h"

namespace CLI {
class App;
}  // namespace CLI

namespace warpwatch::worker {

// Adds --test-contention-gib, --test-contention-duty and --test-contention-engine to `command`,
// hidden from --help (they deliberately slow the GPU: tests and proofs only; docs/operations.md
// documents them). A value that is not a number, or an engine other than kernel|copy, is CLI11's
// parse error naming the flag; ranges are checked by ValidateContentionOptions after parsing.
// `options` must outlive parsing.
void AddContentionFlags(CLI::App& command, ContentionOptions* options);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CONTENTION_CONTENTION_FLAGS_H_
