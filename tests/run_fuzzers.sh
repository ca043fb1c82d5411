#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz; clang, CUDA off, ASan + UBSan) into build-fuzz/ and runs
# each for a bounded time, starting from its committed corpus (tests/fuzz/corpus/<name>/).
# Inputs libFuzzer finds new coverage with go to .fuzz/<name>/corpus/ (git-ignored), crashes to
# .fuzz/<name>/: a crash input belongs in tests/fuzz/corpus/<name>/ once fixed (the replay test
# fuzz_replay.<name> then keeps it fixed), with a named regression test of its own.
#
#   tests/run_fuzzers.sh                  # every fuzzer, 60 s each
#   WARPWATCH_FUZZ_SECONDS=300 tests/run_fuzzers.sh token_file page_token
#
# Exits non-zero when a fuzzer found a crash, a leak or a timeout (its output names the input).
# WARPWATCH_FUZZ_BUILD_DIR overrides build-fuzz/; WARPWATCH_SKIP_DEPS=1 skips install-deps.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ "${WARPWATCH_SKIP_DEPS:-0}" = 1 ] || "$root/deploy/install-deps.sh" --tests
# shellcheck source=sanitizers/sanitizer_env.sh
source "$root/tests/sanitizers/sanitizer_env.sh"
build=${WARPWATCH_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${WARPWATCH_FUZZ_SECONDS:-60}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DWARPWATCH_WITH_CUDA=OFF \
  -DWARPWATCH_FUZZ=ON ${WARPWATCH_FUZZ_CMAKE_ARGS:-}
cmake --build "$build" -j "${WARPWATCH_BUILD_JOBS:-$(nproc)}" --target warpwatch_fuzzers

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in "$root"/tests/fuzz/corpus/*/; do names+=("$(basename "$d")"); done
fi
failed=()
for name in "${names[@]}"; do
  work="$root/.fuzz/$name"
  mkdir -p "$work/corpus"
  echo "=== fuzz_$name: ${seconds} s"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: libFuzzer's default, stated.
  if ! "$build/bin/fuzz_$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" \
      "$root/tests/fuzz/corpus/$name"; then
    failed+=("$name")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "run_fuzzers: findings in: ${failed[*]} (inputs under .fuzz/<name>/)" >&2
  exit 1
fi
echo "run_fuzzers: ${#names[@]} fuzzers, ${seconds} s each, no findings"
