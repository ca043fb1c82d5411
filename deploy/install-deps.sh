#!/usr/bin/env bash
# Installs the Debian 12 packages warpwatch builds and tests with (idempotent; needs root or sudo).
# The CUDA toolkit is not a Debian package: it is expected in /usr/local/cuda when present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  libpqxx-dev prometheus-cpp-dev libgtest-dev libgmock-dev
  libcli11-dev nlohmann-json3-dev libspdlog-dev libssl-dev
  postgresql openssl procps util-linux
  librsvg2-bin libpng-dev fonts-dejavu-core  # warpwatch-report's SVG charts, rendered in a test
  libabsl-dev tzdata  # schedules: cron in IANA time zones (server/schedule)
  clang libclang-rt-14-dev  # libFuzzer targets (tests/run_fuzzers.sh): clang and its libFuzzer runtime
  prometheus  # promtool, for tests/deploy (its service is not needed: warpwatch's tests run none)
)

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
