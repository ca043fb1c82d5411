#!/usr/bin/env bash
# The README's test command: installs what the tests need, builds, and runs every test with ctest.
# Store and RPC tests start their own throwaway PostgreSQL (as an unprivileged user when run as
# root). GPU tests (label `gpu`) print "skipped: no CUDA device" on machines without one.
# Extra arguments go to ctest (e.g. tests/run.sh -L gpu, tests/run.sh -R store).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/deploy/install-deps.sh"
"$root/deploy/build.sh"
build=${WARPWATCH_BUILD_DIR:-$root/build}
ctest --test-dir "$build" --output-on-failure --timeout 600 -j "${WARPWATCH_TEST_JOBS:-2}" "$@"
