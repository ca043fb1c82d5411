// File: bench/detail/fleet_scenario.h
// bench_server_load's fleet scenario: N simulated workers, each with its own token and
// connection, keep an AcquireJob long-poll open and heartbeat once a second; prints heartbeat and
// health-check latency and the server's threads, memory and database connections.
#ifndef WARPWATCH_BENCH_DETAIL_FLEET_SCENARIO_H_
#define WARPWATCH_BENCH_DETAIL_FLEET_SCENARIO_H_

#include "bench/detail/load_references.h"
#include "bench/detail/server_under_test.h"
#include "common/status/status.h"

namespace warpwatch::bench {

// `count` workers for `seconds` (both bounded by the caller's flags). Errors: setup failures
// (registration), INTERNAL when no heartbeat was answered at all.
Status RunFleet(ServerUnderTest& server, UnaryReference& unary, const References& refs, int count,
                int seconds);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_FLEET_SCENARIO_H_
