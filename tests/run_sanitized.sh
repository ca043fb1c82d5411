#!/usr/bin/env bash
# Builds every CPU target with AddressSanitizer + UndefinedBehaviorSanitizer (WARPWATCH_SANITIZE,
# cmake/WarpwatchSanitizers.cmake) into build-asan/ and runs its tests with ctest: CUDA off, Debug
# at -O1 (ASan's usual level: -O0 runs the tests slower, -O2 compiles slower and hides frames)
# with -g1 (line tables: reports still name file and line; measured on an RPC test file, 17.6 s
# of CPU against 21.1 s with -g, and a third of the object size, so links are faster too), as a
# unity build (each target's files compiled in batches: cmake/WarpwatchUnityBuild.cmake).
# Any ASan, UBSan or LeakSanitizer report fails the test that hit it (tests/sanitizers/).
# Extra arguments go to ctest (e.g. tests/run_sanitized.sh -R store). Deploy tests (scripts, no
# C++ of ours under test but the server) run in tests/run.sh's tree only. CI (.ci/run) runs this
# after tests/run.sh.
#
# WARPWATCH_ASAN_BUILD_DIR overrides build-asan/; WARPWATCH_SKIP_DEPS=1 skips deploy/install-deps.sh
# (tests/run.sh has run it already).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ "${WARPWATCH_SKIP_DEPS:-0}" = 1 ] || "$root/deploy/install-deps.sh" --tests
# shellcheck source=sanitizers/sanitizer_env.sh
source "$root/tests/sanitizers/sanitizer_env.sh"  # gtest discovery runs test binaries at build time
build=${WARPWATCH_ASAN_BUILD_DIR:-$root/build-asan}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
  -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DWARPWATCH_WITH_CUDA=OFF -DWARPWATCH_SANITIZE=ON \
  -DWARPWATCH_UNITY_BUILD=ON ${WARPWATCH_ASAN_CMAKE_ARGS:-}
cmake --build "$build" -j "${WARPWATCH_BUILD_JOBS:-$(nproc)}"
# One PostgreSQL for the run, as in tests/run.sh (the helper is built with the sanitizers too).
if [ "${WARPWATCH_TEST_SHARED_POSTGRES:-1}" != 0 ]; then
  WARPWATCH_TEST_POSTGRES_PORT=$("$build/bin/warpwatch-test-postgres" --owner $$)
  export WARPWATCH_TEST_POSTGRES_PORT
fi
ctest --test-dir "$build" --output-on-failure --timeout 900 -LE deploy \
  -j "${WARPWATCH_TEST_JOBS:-2}" "$@"
