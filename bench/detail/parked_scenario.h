// File: bench/detail/parked_scenario.h
// bench_server_load's parked scenario (issue 23 item 4): N workers, one GPU each, hold an
// AcquireJob long-poll open; jobs are then submitted one at a time, each for one of those GPUs
// (a confirmation's or a schedule fire's selector). Prints submit -> lease latency with the polls
// of every other worker parked, and the claim transactions the server ran per submit (its
// warpwatch_acquire_claims_total{trigger="notification"}: one per parked poll before targeted
// wake-ups, about one after).
#ifndef WARPWATCH_BENCH_DETAIL_PARKED_SCENARIO_H_
#define WARPWATCH_BENCH_DETAIL_PARKED_SCENARIO_H_

#include "bench/detail/load_references.h"
#include "bench/detail/server_under_test.h"
#include "common/status/status.h"

namespace warpwatch::bench {

// `workers` parked polls (at most the server's worker tokens), `submits` jobs (at most
// `workers`: each worker leases once). Errors: setup failures, a poll that leased the wrong job
// or none within 30 s, metrics that cannot be read.
Status RunParked(ServerUnderTest& server, UnaryReference& unary, int workers, int submits);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_PARKED_SCENARIO_H_
