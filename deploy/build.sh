#!/usr/bin/env bash
# Configures and builds warpwatch into ${WARPWATCH_BUILD_DIR:-build} (idempotent). CUDA parts are
# built when nvcc is found (/usr/local/cuda/bin is added to PATH if present). WARPWATCH_BUILD_TARGET
# builds one target instead of all (tests/run.sh: warpwatch_cuda_tree, when that target exists).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WARPWATCH_BUILD_DIR:-$root/build}
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
jobs=${WARPWATCH_BUILD_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${WARPWATCH_BUILD_TYPE:-RelWithDebInfo} \
  ${WARPWATCH_CMAKE_ARGS:-}
target=()
if [ -n "${WARPWATCH_BUILD_TARGET:-}" ] &&
    ninja -C "$build" -t query "$WARPWATCH_BUILD_TARGET" >/dev/null 2>&1; then
  target=(--target "$WARPWATCH_BUILD_TARGET")
fi
cmake --build "$build" -j "$jobs" "${target[@]}"
