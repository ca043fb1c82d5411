#!/usr/bin/env bash
# The README's test command: installs what the tests need, builds, and runs every test with ctest.
# Store and RPC tests start their own throwaway PostgreSQL (as an unprivileged user when run as
# root). GPU tests (label `gpu`) print "skipped: no CUDA device" on machines without one.
#
# Two trees, so that no test list runs twice (docs/testing.md, "What CI runs where"):
# - build-tests/ (WARPWATCH_BUILD_DIR overrides): the normal build, CUDA on where nvcc is found,
#   unoptimised host code (WARPWATCH_BUILD_TYPE overrides; device code is optimised by ptxas
#   either way). Only what its tests need is built there (target warpwatch_cuda_tree: kernels,
#   worker, server and replay worker), and it runs the tests that need CUDA or are not C++ of ours:
#   labels gpu, cuda (CPU tests only a CUDA build has) and deploy.
# - build-asan/: tests/run_sanitized.sh, every CPU test under ASan + UBSan (the unit, store, RPC,
#   CLI, end-to-end tests and the fuzz corpora).
#
# The split is the default (measured on a fresh 2-core machine: 45.7 min against CI's 90,
# docs/testing.md "CI budget"). WARPWATCH_SANITIZED=0 builds everything in build-tests/ and runs
# every test there instead, without sanitizers; tests/run_sanitized.sh runs the sanitized tree on
# its own. Extra arguments go to ctest in build-tests/ (everything built, no sanitized tree):
# tests/run.sh -L gpu, -R store.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/deploy/install-deps.sh" --tests
export WARPWATCH_BUILD_DIR=${WARPWATCH_BUILD_DIR:-$root/build-tests}
if [ -z "${WARPWATCH_BUILD_TYPE:-}" ]; then
  export WARPWATCH_BUILD_TYPE=Debug
  export WARPWATCH_CMAKE_ARGS="${WARPWATCH_CMAKE_ARGS:-} -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_CUDA_FLAGS_DEBUG=-O0"
fi
ctest_args=(--output-on-failure --timeout 600 -j "${WARPWATCH_TEST_JOBS:-2}")

if [ $# -gt 0 ] || [ "${WARPWATCH_SANITIZED:-1}" = 0 ]; then
  "$root/deploy/build.sh"
  exec ctest --test-dir "$WARPWATCH_BUILD_DIR" "${ctest_args[@]}" "$@"
fi

WARPWATCH_BUILD_TARGET=warpwatch_cuda_tree "$root/deploy/build.sh"
status=0
ctest --test-dir "$WARPWATCH_BUILD_DIR" "${ctest_args[@]}" -L 'gpu|cuda|deploy' || status=$?
WARPWATCH_SKIP_DEPS=1 "$root/tests/run_sanitized.sh" || status=$?
exit "$status"
