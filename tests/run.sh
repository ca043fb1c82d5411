#!/usr/bin/env bash
# The README's test command: installs what the tests need, builds one tree, and runs every test in
# it with ctest. Store and RPC tests use a throwaway PostgreSQL, one for the whole run (below; as
# an unprivileged user when run as root). GPU tests (label `gpu`) print "skipped: no CUDA device"
# on machines without one.
#
# One tree, build-tests/ (WARPWATCH_BUILD_DIR overrides): everything the build has, CUDA on where
# nvcc is found (for CI's architecture set: a Debug build), unoptimised host code
# (WARPWATCH_BUILD_TYPE overrides; device code is optimised by ptxas either way), no sanitizers.
# A second run reuses the tree: only what changed is rebuilt. Arguments go to ctest
# (tests/run.sh -L gpu, -R store). A unity build (cmake/WarpwatchUnityBuild.cmake: each target's
# C++ files compiled in batches; WARPWATCH_UNITY_BUILD=OFF in WARPWATCH_CMAKE_ARGS turns it off).
#
# One PostgreSQL for the whole ctest run (tests/support/shared_postgres_main.cc, removed when ctest
# exits): every test still gets a database of its own, but no test process starts a server unless
# its tests stop or replicate it. WARPWATCH_TEST_SHARED_POSTGRES=0 gives each test process its own
# server, as plain ctest does.
#
# The sanitized tree (every CPU test under ASan + UBSan) is tests/run_sanitized.sh; CI (.ci/run)
# runs this command and then that one (docs/testing.md, "What CI runs where").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/deploy/install-deps.sh" --tests
export WARPWATCH_BUILD_DIR=${WARPWATCH_BUILD_DIR:-$root/build-tests}
if [ -z "${WARPWATCH_BUILD_TYPE:-}" ]; then
  export WARPWATCH_BUILD_TYPE=Debug
  export WARPWATCH_CMAKE_ARGS="${WARPWATCH_CMAKE_ARGS:-} -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_CUDA_FLAGS_DEBUG=-O0"
fi
export WARPWATCH_CMAKE_ARGS="-DWARPWATCH_UNITY_BUILD=ON ${WARPWATCH_CMAKE_ARGS:-}"
"$root/deploy/build.sh"
if [ "${WARPWATCH_TEST_SHARED_POSTGRES:-1}" != 0 ]; then
  # --owner $$: the server goes when this shell, which becomes ctest, exits.
  WARPWATCH_TEST_POSTGRES_PORT=$("$WARPWATCH_BUILD_DIR/bin/warpwatch-test-postgres" --owner $$)
  export WARPWATCH_TEST_POSTGRES_PORT
fi
exec ctest --test-dir "$WARPWATCH_BUILD_DIR" --output-on-failure --timeout 600 \
  -j "${WARPWATCH_TEST_JOBS:-2}" "$@"
