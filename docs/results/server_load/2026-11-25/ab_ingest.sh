#!/usr/bin/env bash
# A/B of migration 0013 on ingest: the server without it (devbin/warpwatch-server-base, 5af97ed)
# and with it (build-gpu/bin/warpwatch-server), alternating, server + PostgreSQL on CPUs 0,1.
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
B=build-gpu/bin/bench_server_load
common="--fixture tests/fixtures/h100_nightly.json --scenario ingest --ingest-measurements 40000 --reference-calls 50"
for rep in 1 2 3; do
  for v in base new; do
    s=build-gpu/bin/warpwatch-server; [ $v = base ] && s=devbin/warpwatch-server-base
    echo "== rep $rep $v: $B --server $s $common --server-cpus 0,1" >> "$out/ab_ingest.out"
    timeout 100 $B --server $s $common --server-cpus 0,1 >> "$out/ab_ingest.out" 2>&1
  done
done
for v in base new; do
  s=build-gpu/bin/warpwatch-server; [ $v = base ] && s=devbin/warpwatch-server-base
  echo "== 16 cores $v: $B --server $s $common" >> "$out/ab_ingest.out"
  timeout 100 $B --server $s $common >> "$out/ab_ingest.out" 2>&1
done
grep -E "^== |measurements per second|server CPU per" "$out/ab_ingest.out"
