#!/usr/bin/env bash
# Installs the Debian 12 packages warpwatch builds and runs with (idempotent; needs root or sudo).
# The CUDA toolkit is not a Debian package: it is expected in /usr/local/cuda when present.
#
#   deploy/install-deps.sh          what building and running needs (deploy/quickstart.sh)
#   deploy/install-deps.sh --tests  that and the tools only tests use (tests/run.sh and the other
#                                   test scripts): clang's libFuzzer, promtool, rsvg-convert,
#                                   docker-compose and kubectl for the deploy tests
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libpqxx-dev prometheus-cpp-dev libgtest-dev libgmock-dev
  libcli11-dev nlohmann-json3-dev libspdlog-dev libssl-dev
  postgresql openssl procps util-linux
  libpng-dev fonts-dejavu-core  # warpwatch-report's SVG charts (libpng: their test reads PNGs)
  libabsl-dev tzdata  # schedules: cron in IANA time zones (server/schedule)
)
case "${1:-}" in
  "") ;;
  --tests)
    packages+=(
      clang libclang-rt-14-dev  # libFuzzer targets (tests/run_fuzzers.sh): clang and its libFuzzer runtime
      prometheus  # promtool, for tests/deploy (its service is not needed: warpwatch's tests run none)
      librsvg2-bin  # rsvg-convert: the SVG chart test renders the charts
      docker-compose  # tests/deploy/compose_test.sh: `docker-compose config`, offline
    )
    # tests/deploy/kubernetes_test.py: `kubectl kustomize` and `kubectl label --local`, offline.
    # Debian's kubectl is 1.20 (kubernetes-client); a newer kubectl already installed is kept.
    command -v kubectl >/dev/null 2>&1 || packages+=(kubernetes-client)
    ;;
  *) echo "install-deps: error: unknown argument '$1' (none, or --tests)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
# Debian's postgresql package starts a system cluster; warpwatch runs its own, so leave that alone.
