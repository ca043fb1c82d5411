#!/usr/bin/env bash
# The README's test command: installs what the tests need, builds, and runs every test with ctest.
# Store and RPC tests start their own throwaway PostgreSQL (as an unprivileged user when run as
# root). GPU tests (label `gpu`) print "skipped: no CUDA device" on machines without one.
# Extra arguments go to ctest (e.g. tests/run.sh -L gpu, tests/run.sh -R store).
#
# The tests build into build-tests/ (WARPWATCH_BUILD_DIR overrides), unoptimised host code by
# default (WARPWATCH_BUILD_TYPE overrides; device code is optimised by ptxas either way): it
# compiles about a third faster, and the quickstart's optimised build/ stays untouched.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/deploy/install-deps.sh"
export WARPWATCH_BUILD_DIR=${WARPWATCH_BUILD_DIR:-$root/build-tests}
if [ -z "${WARPWATCH_BUILD_TYPE:-}" ]; then
  export WARPWATCH_BUILD_TYPE=Debug
  export WARPWATCH_CMAKE_ARGS="${WARPWATCH_CMAKE_ARGS:-} -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_CUDA_FLAGS_DEBUG=-O0"
fi
"$root/deploy/build.sh"
ctest --test-dir "$WARPWATCH_BUILD_DIR" --output-on-failure --timeout 600 \
  -j "${WARPWATCH_TEST_JOBS:-2}" "$@"
