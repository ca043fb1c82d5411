#!/usr/bin/env bash
# Issue 25 item 2, 2026-12-02: ingest of the server before (BEFORE, commit f8983eb) and after
# (AFTER, commit 2b61d39: the copy path's stored-case probe) the fix, both paths of each, in
# alternating rounds on the 2-core development VM (PostgreSQL, server and load generator sharing
# its 2 cores). Both servers and the benchmark: RelWithDebInfo, CUDA off, unity build.
#   BEFORE=/tmp/before/build-rel/bin/warpwatch-server AFTER=build-rel/bin/warpwatch-server \
#     bash docs/results/server_load/2026-12-02/ab_ingest.sh > .../ab_ingest.out 2>&1
set -euo pipefail
bench=${BENCH:-build-rel/bin/bench_server_load}
for n in 40000 100000; do
  for round in 1 2; do
    for side in BEFORE AFTER; do
      echo "#### $side server, round $round, $n measurements: ${!side}"
      "$bench" --server "${!side}" --scenario ingest --ingest-paths json copy --ingest-rounds 1 \
        --ingest-measurements "$n" --reference-calls 50
    done
  done
done
