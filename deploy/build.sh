#!/usr/bin/env bash
# Configures and builds warpwatch into ${WARPWATCH_BUILD_DIR:-build} (idempotent). CUDA parts are
# built when nvcc is found (/usr/local/cuda/bin is added to PATH if present).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WARPWATCH_BUILD_DIR:-$root/build}
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
jobs=${WARPWATCH_BUILD_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${WARPWATCH_BUILD_TYPE:-RelWithDebInfo} \
  ${WARPWATCH_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
