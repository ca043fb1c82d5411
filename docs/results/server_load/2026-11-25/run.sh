#!/usr/bin/env bash
# One device call: server load benchmark in three placements, then the GPU tests.
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
nvidia-smi -L > "$out/gpu.txt" 2>&1; nproc >> "$out/gpu.txt"; git log -1 --format=%H >> "$out/gpu.txt" 2>/dev/null
B=build-gpu/bin/bench_server_load; S=build-gpu/bin/warpwatch-server
args="--server $S --fixture tests/fixtures/h100_nightly.json --scenario all --submits 1000 --ingest-measurements 40000 --fleet-workers 1000 --fleet-seconds 30"
if [ "${SKIP_LOAD:-0}" != 1 ]; then
  echo "== taskset -c 0,1 $B $args" > "$out/load-2cores-shared.out"
  timeout 150 taskset -c 0,1 $B $args >> "$out/load-2cores-shared.out" 2>&1; echo "rc=$?" >> "$out/load-2cores-shared.out"
  echo "== $B $args --server-cpus 0,1" > "$out/load-server2.out"
  timeout 150 $B $args --server-cpus 0,1 >> "$out/load-server2.out" 2>&1; echo "rc=$?" >> "$out/load-server2.out"
  echo "== $B $args" > "$out/load-16cores.out"
  timeout 150 $B $args >> "$out/load-16cores.out" 2>&1; echo "rc=$?" >> "$out/load-16cores.out"
fi
if [ "${SKIP_GPU:-0}" != 1 ]; then
  echo "# ctest --test-dir build-gpu -L gpu --output-on-failure --timeout 240" > "$out/gpu_tests.txt"
  timeout ${GPU_TIMEOUT:-330} ctest --test-dir build-gpu -L gpu --output-on-failure --timeout 240 >> "$out/gpu_tests.txt" 2>&1
  echo "rc=$?" >> "$out/gpu_tests.txt"
fi
