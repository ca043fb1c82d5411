#!/usr/bin/env bash
# What deploy/quickstart.sh builds (ctest deploy.quickstart_targets), through its `targets`
# command, which prints the plan `start` builds and builds nothing:
# - on a host without a GPU (this one, when nvidia-smi finds none; and always with a stand-in
#   nvidia-smi that finds none): exactly the server and the CLI, no CUDA architectures;
# - with a stand-in nvidia-smi reporting an H100 and an A100 (and a stand-in nvcc): the worker
#   too, for sm_80 and sm_90 plus sm_90's PTX, not the release build's nine architectures;
# - with GPUs but no nvcc: the server and the CLI.
# With a build tree given (ctest passes its own), the targets named must be targets of it.
# Usage: quickstart_targets_test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-}
quickstart=$root/deploy/quickstart.sh
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect NAME OUTPUT TARGETS ARCHS: the plan printed must name exactly these.
expect() {
  local name=$1 out=$2 targets=$3 archs=$4
  local got_targets got_archs ok=1
  got_targets=$(sed -n 's/^targets: //p' <<<"$out")
  got_archs=$(sed -n 's/^cuda-architectures: //p' <<<"$out")
  if [ "$got_targets" != "$targets" ]; then
    echo "FAIL ($name): targets '$got_targets', expected '$targets'"; ok=0
  fi
  if [ "$got_archs" != "$archs" ]; then
    echo "FAIL ($name): cuda-architectures '$got_archs', expected '$archs'"; ok=0
  fi
  if [ $ok = 1 ]; then echo "ok ($name): $got_targets; $got_archs"; else fail=1; fi
}

# A PATH with stand-ins first. $1: what nvidia-smi does ("none" or "h100+a100"); $2: nvcc or not.
stand_ins() {
  local dir=$tmp/$1-$2
  mkdir -p "$dir"
  if [ "$1" = none ]; then
    printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$dir/nvidia-smi"
  else
    cat >"$dir/nvidia-smi" <<'SMI'
#!/bin/sh
case "$*" in
  -L) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)"; echo "GPU 1: NVIDIA A100-SXM4-80GB (UUID: GPU-1)" ;;
  *compute_cap*) printf '9.0\n8.0\n9.0\n' ;;
  *) exit 2 ;;
esac
SMI
  fi
  if [ "$2" = nvcc ]; then printf '#!/bin/sh\nexit 0\n' >"$dir/nvcc"; fi
  chmod +x "$dir"/*
  echo "$dir"
}

# This host, as it is (only meaningful without a GPU: the issue's newcomer machine and CI).
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "note: this host has a GPU; its own plan is not checked, only the stand-ins below"
else
  expect "this host, no GPU" "$("$quickstart" targets)" "warpwatch-server warpwatch" none
fi
expect "nvidia-smi finds no GPU" "$(PATH=$(stand_ins none nvcc):$PATH "$quickstart" targets)" \
  "warpwatch-server warpwatch" none
if [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "note: /usr/local/cuda/bin/nvcc exists, so the GPU-without-nvcc plan is not checked here"
else
  # A PATH without any nvcc but the stand-ins' directory and the basic tools.
  expect "GPUs, no nvcc" \
    "$(PATH=$(stand_ins h100+a100 no-nvcc):/usr/bin:/bin "$quickstart" targets)" \
    "warpwatch-server warpwatch" none
fi
gpu_plan=$(PATH=$(stand_ins h100+a100 nvcc):$PATH "$quickstart" targets)
expect "an H100 and an A100" "$gpu_plan" "warpwatch-server warpwatch warpwatch-worker" \
  "80-real;90-real;90-virtual"

# The names are real targets of the build tree (the worker's only where CUDA is on).
if [ -n "$build" ] && [ -f "$build/build.ninja" ]; then
  names=(warpwatch-server warpwatch)
  if grep -q '^WARPWATCH_WITH_CUDA:BOOL=ON' "$build/CMakeCache.txt"; then names+=(warpwatch-worker); fi
  for t in "${names[@]}"; do
    if ninja -C "$build" -t query "$t" >/dev/null 2>&1; then
      echo "ok: $t is a target of $build"
    else
      echo "FAIL: $t is not a target of $build"; fail=1
    fi
  done
fi
exit $fail
