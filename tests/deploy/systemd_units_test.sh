#!/usr/bin/env bash
# `systemd-analyze verify` of deploy/systemd/*.service (ctest deploy.systemd_units). The units'
# /usr/local/bin/warpwatch-* binaries are replaced by a stub, since verify insists that ExecStart
# exists; any warning (unknown option, bad value) fails the test. Exits 77 (skipped) without
# systemd-analyze.
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/../../deploy/systemd" && pwd)}"
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "skipped: systemd-analyze not found (Debian package systemd)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\nexit 0\n' > "$tmp/stub" && chmod +x "$tmp/stub"
units=()
for u in "$src"/*.service; do
  sed -E "s#/usr/local/bin/warpwatch-[a-z]+#$tmp/stub#g" "$u" > "$tmp/$(basename "$u")"
  units+=("$tmp/$(basename "$u")")
done
if [ ${#units[@]} -eq 0 ]; then echo "FAIL: no units in $src"; exit 1; fi
out=$(systemd-analyze verify --man=no "${units[@]}" 2>&1) || { echo "$out"; echo "FAIL: verify"; exit 1; }
if [ -n "$out" ]; then echo "$out"; echo "FAIL: systemd-analyze verify warned"; exit 1; fi
echo "ok: ${#units[@]} units verified"
