#!/usr/bin/env bash
# The README's first command: sets up and runs warpwatch's main job on this host.
#
#   deploy/quickstart.sh          install, build, start PostgreSQL + server (+ a worker on a GPU
#                                 host), submit the nightly guide suite, follow it, show results
#   deploy/quickstart.sh status   what is running
#   deploy/quickstart.sh stop     stop what quickstart started
#   deploy/quickstart.sh targets  what start would build on this host (build targets and GPU
#                                 architectures), building nothing
#
# It builds only what it runs: the server and the CLI always; the worker (and with it the kernel
# suite) only on a GPU host (nvidia-smi finds a GPU, nvcc is installed), and there for the GPUs it
# finds plus their PTX, not every fleet architecture (deploy/build.sh on its own, the release
# build, keeps them all).
#
# State lives under .warpwatch/ (PostgreSQL cluster, logs, pid files). With WARPWATCH_DATABASE_URL
# set, that database is used instead of a local cluster. With WARPWATCH_PREBUILT=1 the binaries
# already in $WARPWATCH_BUILD_DIR/bin are used as they are (no package install, no build: hosts
# that received a build, e.g. a GPU node). Idempotent: running it again reuses what is already up.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state=${WARPWATCH_STATE_DIR:-$root/.warpwatch}
bin=${WARPWATCH_BUILD_DIR:-$root/build}/bin
pg_port=${WARPWATCH_PG_PORT:-55432}
# Loopback by default: with no tokens file the server is open (anyone who reaches it acts as
# admin), and warpwatch-server refuses to run open on a network address. For remote workers set
# WARPWATCH_LISTEN=0.0.0.0:50051 with WARPWATCH_TOKENS_FILE (and TLS), or WARPWATCH_ALLOW_OPEN=1 on
# a trusted network.
listen=${WARPWATCH_LISTEN:-127.0.0.1:50051}
grpc_port=${listen##*:}
metrics=${WARPWATCH_METRICS_LISTEN:-0.0.0.0:9464}
pgbin=/usr/lib/postgresql/15/bin
pgdata=${WARPWATCH_PG_DIR:-$state/pg}
# Where an earlier start put the cluster (it may have had to leave $state, see below).
if [ -z "${WARPWATCH_PG_DIR:-}" ] && [ -f "$state/pgdata" ]; then pgdata=$(cat "$state/pgdata"); fi
cmd=${1:-start}

say() { printf '\033[1mquickstart:\033[0m %s\n' "$*"; }
die() { printf 'quickstart: error: %s\n' "$*" >&2; exit 1; }

# PostgreSQL refuses to run as root: run its programs as `postgres` when we are root.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_all() {
  for p in worker server; do
    if running "$state/$p.pid"; then
      say "stopping $p (pid $(cat "$state/$p.pid"))"
      kill -TERM "$(cat "$state/$p.pid")" || true
      for _ in $(seq 1 100); do running "$state/$p.pid" || break; sleep 0.1; done
    fi
    rm -f "$state/$p.pid"
  done
  if [ -d "$pgdata" ] && as_pg $pgbin/pg_ctl -D "$pgdata" status >/dev/null 2>&1; then
    say "stopping PostgreSQL"
    as_pg $pgbin/pg_ctl -D "$pgdata" -m fast -w stop >/dev/null
  fi
}

show_status() {
  for p in server worker; do
    if running "$state/$p.pid"; then echo "$p: running (pid $(cat "$state/$p.pid"))"; else echo "$p: stopped"; fi
  done
  if [ -d "$pgdata" ] && as_pg $pgbin/pg_ctl -D "$pgdata" status >/dev/null 2>&1; then
    echo "postgresql: running on 127.0.0.1:$pg_port ($pgdata)"
  elif [ -n "${WARPWATCH_DATABASE_URL:-}" ]; then echo "postgresql: external ($WARPWATCH_DATABASE_URL)"
  else echo "postgresql: stopped"; fi
}

# The compute capabilities of this host's GPUs as CMake architectures ("90", "80 90"), from
# nvidia-smi; empty when it finds no GPU (or is not installed). Fails when nvidia-smi lists GPUs
# but cannot say their compute capability (a driver older than 510).
host_gpu_architectures() {
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  nvidia-smi -L >/dev/null 2>&1 || return 0
  local caps
  caps=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null) || return 1
  printf '%s\n' "$caps" | tr -d ' .\r' | grep -E '^[0-9]+$' | sort -n -u | tr '\n' ' ' | sed 's/ $//'
}

have_nvcc() { [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; }

# Sets build_targets, cuda_archs (a CMAKE_CUDA_ARCHITECTURES value, empty when the worker is not
# built) and build_reason: what `start` builds on this host.
plan_build() {
  build_targets=(warpwatch-server warpwatch)
  cuda_archs=
  local archs
  if ! archs=$(host_gpu_architectures); then
    die "nvidia-smi lists GPUs but not their compute capability (driver older than 510?): build by hand with deploy/build.sh, or set WARPWATCH_PREBUILT=1"
  fi
  if [ -z "$archs" ]; then
    build_reason="no NVIDIA GPU here: the server and the CLI (workers run elsewhere)"
  elif ! have_nvcc; then
    build_reason="GPUs (sm ${archs// /, sm }) but no nvcc: the server and the CLI only (install the CUDA toolkit, or bring a built worker and use WARPWATCH_PREBUILT=1)"
  else
    build_targets+=(warpwatch-worker)
    local a newest
    for a in $archs; do cuda_archs+="${cuda_archs:+;}$a-real"; newest=$a; done
    cuda_archs+=";$newest-virtual"
    build_reason="the server, the CLI and the worker with its kernels for this host's GPUs ($cuda_archs)"
  fi
}

case "$cmd" in
  stop) stop_all; exit 0 ;;
  status) show_status; exit 0 ;;
  targets)
    plan_build
    echo "targets: ${build_targets[*]}"
    echo "cuda-architectures: ${cuda_archs:-none}"
    echo "why: $build_reason"
    exit 0 ;;
  start) ;;
  *) die "unknown command '$cmd' (start, status, stop, targets)" ;;
esac

mkdir -p "$state/logs"
if [ "${WARPWATCH_PREBUILT:-0}" = 1 ]; then
  for b in warpwatch-server warpwatch; do
    [ -x "$bin/$b" ] || die "WARPWATCH_PREBUILT=1 but $bin/$b is missing"
  done
  say "using the prebuilt binaries in $bin"
else
  say "installing Debian packages (if missing)"
  "$root/deploy/install-deps.sh"
  plan_build
  # Only what this host runs: on 2 cores without a GPU, the server and the CLI are about 200 of
  # the tree's 700-odd build steps (the rest are tests, benchmarks, the kernels and the worker).
  say "building $build_reason (log: $state/logs/build.log)"
  # A unity build (cmake/WarpwatchUnityBuild.cmake): each target's C++ files compiled in batches.
  build_args="-DWARPWATCH_UNITY_BUILD=ON ${WARPWATCH_CMAKE_ARGS:-}"
  if [ -n "$cuda_archs" ]; then build_args+=" -DCMAKE_CUDA_ARCHITECTURES=$cuda_archs"; fi
  build_start=$SECONDS
  WARPWATCH_CMAKE_ARGS=$build_args WARPWATCH_BUILD_TARGETS="${build_targets[*]}" \
    "$root/deploy/build.sh" >"$state/logs/build.log" 2>&1 || { tail -30 "$state/logs/build.log"; die "build failed"; }
  say "built in $(( (SECONDS - build_start) / 60 )) min $(( (SECONDS - build_start) % 60 )) s"
fi

# --- PostgreSQL ---------------------------------------------------------------------------------
if [ -n "${WARPWATCH_DATABASE_URL:-}" ]; then
  db_url=$WARPWATCH_DATABASE_URL
  say "using the database at WARPWATCH_DATABASE_URL"
else
  if [ "$(id -u)" -eq 0 ] && [ -z "${WARPWATCH_PG_DIR:-}" ] && ! runuser -u postgres -- test -x "$state" 2>/dev/null; then
    # PostgreSQL runs as `postgres`, which cannot reach $state (e.g. a checkout under /root).
    mkdir -p "$state"
    if ! runuser -u postgres -- test -x "$state" 2>/dev/null; then
      pgdata=/var/lib/warpwatch/pg
      say "the postgres user cannot reach $state: keeping the cluster in $pgdata"
      mkdir -p /var/lib/warpwatch && chown postgres: /var/lib/warpwatch
    fi
  fi
  echo "$pgdata" >"$state/pgdata"
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    say "creating a PostgreSQL cluster in $pgdata"
    mkdir -p "$pgdata"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$pgdata"
    chmod 700 "$pgdata"
    as_pg $pgbin/initdb -D "$pgdata" -U warpwatch --auth=trust -E UTF8 >"$state/logs/initdb.log" \
      || die "initdb failed (log: $state/logs/initdb.log)"
  fi
  pglog=$state/logs/postgresql.log
  if [ "$(id -u)" -eq 0 ]; then pglog=$pgdata/postgresql.log; fi
  if ! as_pg $pgbin/pg_ctl -D "$pgdata" status >/dev/null 2>&1; then
    say "starting PostgreSQL on 127.0.0.1:$pg_port"
    as_pg $pgbin/pg_ctl -D "$pgdata" -l "$pglog" -w start \
      -o "-c listen_addresses=127.0.0.1 -c port=$pg_port -c unix_socket_directories=$pgdata" >/dev/null
  fi
  if ! as_pg $pgbin/psql -h 127.0.0.1 -p "$pg_port" -U warpwatch -d postgres -Atc \
      "SELECT 1 FROM pg_database WHERE datname='warpwatch'" | grep -q 1; then
    as_pg $pgbin/psql -h 127.0.0.1 -p "$pg_port" -U warpwatch -d postgres -qc "CREATE DATABASE warpwatch"
  fi
  db_url="postgresql://warpwatch@127.0.0.1:$pg_port/warpwatch"
fi

# --- server ---------------------------------------------------------------------------------------
export WARPWATCH_SERVER=${WARPWATCH_SERVER:-localhost:$grpc_port}
if running "$state/server.pid"; then
  say "server already running (pid $(cat "$state/server.pid"))"
else
  say "starting warpwatch-server on $listen (metrics on $metrics)"
  WARPWATCH_DATABASE_URL=$db_url nohup "$bin/warpwatch-server" --listen "$listen" \
    --metrics-listen "$metrics" >"$state/logs/server.log" 2>&1 &
  echo $! >"$state/server.pid"
fi
for _ in $(seq 1 100); do
  if "$bin/warpwatch" jobs --limit 1 >/dev/null 2>&1; then break; fi
  running "$state/server.pid" || { tail -20 "$state/logs/server.log"; die "the server exited"; }
  sleep 0.2
done
"$bin/warpwatch" jobs --limit 1 >/dev/null || die "the server does not answer (log: $state/logs/server.log)"

# --- GPU? -----------------------------------------------------------------------------------------
gpu=0
if [ -x "$bin/warpwatch-worker" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=1
fi
host=$(hostname -f 2>/dev/null || hostname)
if [ $gpu = 0 ]; then
  cat <<MSG

  No NVIDIA GPU on this host (or no worker built here): nothing will run jobs locally.
  The server stays up, listening on $listen:
    gRPC     $listen   (health + reflection: grpcurl -plaintext $listen list)
    remote workers need a network address: restart with WARPWATCH_LISTEN=0.0.0.0:$grpc_port and
    WARPWATCH_TOKENS_FILE (see docs), or WARPWATCH_ALLOW_OPEN=1 on a trusted network
    metrics  http://$host:${metrics##*:}/metrics
    logs     $state/logs/server.log
  Submit the nightly suite:  $bin/warpwatch submit --family '*'
  List jobs:                 $bin/warpwatch jobs
  Runs and their results:    $bin/warpwatch runs; $bin/warpwatch results RUN
  Stop everything:           deploy/quickstart.sh stop

MSG
  exit 0
fi

if "$bin/warpwatch-worker" serve --help >/dev/null 2>&1; then
  if running "$state/worker.pid"; then
    say "worker already running (pid $(cat "$state/worker.pid"))"
  else
    say "starting warpwatch-worker serve"
    nohup "$bin/warpwatch-worker" serve --server "$WARPWATCH_SERVER" >"$state/logs/worker.log" 2>&1 &
    echo $! >"$state/worker.pid"
  fi
  say "submitting the nightly guide suite"
  job=$("$bin/warpwatch" submit --family '*' --label source=quickstart --json | sed -n 's/.*"id": *"\{0,1\}\([0-9]*\).*/\1/p' | head -1)
  [ -n "$job" ] || die "submit did not return a job id"
  "$bin/warpwatch" watch "$job" || true
  "$bin/warpwatch" job "$job"
  # What the job measured: each of its runs (one per GPU it ran on) through `warpwatch results`.
  runs=$("$bin/warpwatch" --json runs --job "$job" | sed -n 's/^ *"id": *"\([0-9]*\)".*/\1/p')
  [ -n "$runs" ] || say "job $job stored no run"
  for run in $runs; do
    say "results of job $job, run $run:"
    "$bin/warpwatch" results "$run" || true
  done
else
  # The queue-driven worker daemon is not built yet: run the nightly suite directly on this GPU.
  out=$state/results/nightly-$(date -u +%Y%m%dT%H%M%SZ).json
  mkdir -p "$state/results"
  say "this build has no worker daemon yet: running the nightly suite locally (warpwatch-worker run)"
  "$bin/warpwatch-worker" run --out "$out"
  say "results: $out"
fi
say "stop everything with: deploy/quickstart.sh stop"
