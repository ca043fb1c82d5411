#!/usr/bin/env bash
# Configures and builds warpwatch into ${WARPWATCH_BUILD_DIR:-build} (idempotent). CUDA parts are
# built when nvcc is found (/usr/local/cuda/bin is added to PATH if present), for every fleet GPU
# architecture in a release build (cmake/WarpwatchCudaArchitectures.cmake) unless
# WARPWATCH_CMAKE_ARGS gives CMAKE_CUDA_ARCHITECTURES (deploy/quickstart.sh: the host's GPUs); an
# earlier run's choice is not kept.
#
# WARPWATCH_BUILD_TARGETS (space-separated) builds those targets instead of all; each must exist
# (deploy/quickstart.sh: the server, the CLI and, on a GPU host, the worker).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${WARPWATCH_BUILD_DIR:-$root/build}
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
jobs=${WARPWATCH_BUILD_JOBS:-$(nproc)}
extra_args=${WARPWATCH_CMAKE_ARGS:-}
# A CMAKE_CUDA_ARCHITECTURES given once (the quickstart's, for its host) stays in CMakeCache.txt:
# drop it unless given again, so that the release build goes back to every architecture.
unset_archs=()
case "$extra_args" in
  *CMAKE_CUDA_ARCHITECTURES*) ;;
  *) unset_archs=(-UCMAKE_CUDA_ARCHITECTURES) ;;
esac
# shellcheck disable=SC2086  # WARPWATCH_CMAKE_ARGS is a list of arguments
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${WARPWATCH_BUILD_TYPE:-RelWithDebInfo} \
  "${unset_archs[@]}" $extra_args
target=()
if [ -n "${WARPWATCH_BUILD_TARGETS:-}" ]; then
  for t in $WARPWATCH_BUILD_TARGETS; do
    ninja -C "$build" -t query "$t" >/dev/null 2>&1 ||
      { echo "build.sh: error: no target '$t' in $build (WARPWATCH_BUILD_TARGETS)" >&2; exit 1; }
    target+=(--target "$t")
  done
fi
cmake --build "$build" -j "$jobs" "${target[@]}"
