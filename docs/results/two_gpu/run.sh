#!/usr/bin/env bash
# Issue 11 on real GPUs: one warpwatch-worker serving every GPU of a two-GPU host, a schedule that
# fans out to both (a cron fire every minute, then a manual trigger), `warpwatch night`, and the
# fleet-outlier check across the two GPUs. Run from the project root on the GPU host, over a
# bundle of the binaries (../shared/tools/gpu-bundle.sh --with-postgres build-gpu/bin/warpwatch-worker
# build-server/bin/warpwatch-server build-server/bin/warpwatch):
#   bash .gpu-bundle/inside.sh 'bash docs/results/two_gpu/run.sh'
# The worker must be a CUDA build (build-gpu); the server and CLI need no CUDA (SERVER_BIN, default
# build-server/bin, a CUDA-off build).
# Everything it prints goes to $OUT/two_gpu.log (and stdout); logs of each process to $OUT.
set -uo pipefail
out=${OUT:-/tmp/two_gpu_out}
mkdir -p "$out"
exec > >(tee "$out/two_gpu.log") 2>&1
bin=${WORKER_BIN:-build-gpu/bin}
sbin=${SERVER_BIN:-build-server/bin}
W="$sbin/warpwatch --server 127.0.0.1:50051"
state=$(mktemp -d /tmp/ww-two-gpu.XXXXXX)
chmod 755 "$state"
pgbin=/usr/lib/postgresql/15/bin
say() { printf '\n== %s  [%s]\n' "$*" "$(date -u +%H:%M:%S)"; }

say "host"
nvidia-smi -L
nvidia-smi --query-gpu=index,name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv

say "PostgreSQL (as user postgres, in $state/pg)"
mkdir -p "$state/pg" && chown postgres: "$state/pg" && chmod 700 "$state/pg"
runuser -u postgres -- $pgbin/initdb -D "$state/pg" -U warpwatch --auth=trust -E UTF8 >"$out/initdb.log" 2>&1
runuser -u postgres -- $pgbin/pg_ctl -D "$state/pg" -l "$state/pg/postgres.log" -w \
  -o "-p 55432 -k $state/pg -c listen_addresses=127.0.0.1" start >/dev/null
db="postgresql://warpwatch@127.0.0.1:55432/postgres"

say "server (scheduler every 2 s)"
$sbin/warpwatch-server --listen 127.0.0.1:50051 --metrics-listen 127.0.0.1:9464 --database-url "$db" \
  --schedule-interval-seconds 2 >"$out/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do $W jobs --limit 1 >/dev/null 2>&1 && break; sleep 0.2; done

say "one worker serving every GPU of the host"
$bin/warpwatch-worker serve --server 127.0.0.1:50051 >"$out/worker.log" 2>&1 &
worker=$!
for _ in $(seq 1 150); do
  [ "$($W workers 2>/dev/null | grep -c GPU-)" -ge 1 ] && break; sleep 0.2
done
$W workers

say "a schedule fanning out to every GPU: cron every minute, no overlap"
$W schedule create two-gpu-nightly --cron '* * * * *' --time-zone UTC \
  --family memory.coalescing --family reduce --family memory.vector_width \
  --label source=two-gpu-run
$W schedules

wait_idle() {  # until no job is QUEUED or RUNNING, at most $1 s
  local deadline=$((SECONDS + $1))
  while [ $SECONDS -lt $deadline ]; do
    [ "$($W jobs --state queued --state running 2>/dev/null | grep -cE '^ *[0-9]+ ')" -eq 0 ] && return 0
    sleep 5
  done
  return 1
}

say "waiting for the first cron fire (at most 70 s), then for its jobs (the cron keeps firing every"
say "minute meanwhile: with no overlap allowed those fires are recorded as skipped)"
for _ in $(seq 1 70); do
  $W schedule runs two-gpu-nightly 2>/dev/null | grep -qE '^ *[0-9]+ ' && break; sleep 1
done
$W schedule runs two-gpu-nightly
sleep 5
$W jobs --limit 10
wait_idle 200 || say "jobs still running after 200 s"
$W schedule update two-gpu-nightly --disable
$W schedule runs two-gpu-nightly

say "the first fire pinned as the baseline of every series it measured (both GPUs' runs, one pin)"
$W baseline pin --schedule-run 1 --note "first fire of two-gpu-nightly"
$W baseline list

say "a manual trigger (cron now disabled)"
$W schedule trigger two-gpu-nightly
sleep 5
$W jobs --limit 10
wait_idle 200 || say "jobs still running after 200 s"

say "both GPUs at once: start and end of every job (one job per GPU at a time)"
$W --json jobs --limit 20 | grep -E '"(id|state|deviceUuid|startedAt|finishedAt|scheduleRunId)"' || true
$W jobs --limit 20

say "the schedule's runs"
$W schedule runs two-gpu-nightly
$W --json schedule runs two-gpu-nightly > "$out/schedule_runs.json" || true

say "warpwatch night (last night of this schedule: one row per GPU)"
$W night two-gpu-nightly
$W --json night two-gpu-nightly > "$out/night.json" || true

say "fleet outliers across the two GPUs, and every finding"
# The fleet view judges a model's devices only when it has at least 4 good ones
# (detect::FleetOutlierOptions::min_devices): with two GPUs neither can be called the sick one,
# so the runs' analyses record no outlier; the two GPUs are compared run against run instead.
$W regressions --kind outlier || true
$W regressions || true
grep -E "run analysed" "$out/server.log" || true

say "the two GPUs of the manual fire against each other (CompareRuns: GPU 0's run vs GPU 1's)"
runs=$($W --json night two-gpu-nightly | grep -oE '"runId": *"?[0-9]+' | grep -oE '[0-9]+$' | sort -n)
set -- $runs
[ $# -ge 2 ] && $W compare "$1" "$2" || echo "fewer than two runs in the night: $runs"

say "runs and a few results"
$W runs --limit 10 || true

say "stop"
kill -TERM $worker; wait $worker
kill -TERM $server; wait $server
runuser -u postgres -- $pgbin/pg_ctl -D "$state/pg" -m fast -w stop >/dev/null
cp "$state/pg/postgres.log" "$out/postgres.log" 2>/dev/null
grep -vE "\] \[(debug|trace)\]" "$out/worker.log" | tail -300 > "$out/worker_tail.log"
grep -E "GPU|device|job" "$out/worker.log" | head -40
