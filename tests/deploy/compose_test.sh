#!/usr/bin/env bash
# Validates deploy/compose/docker-compose.yml offline (ctest deploy.compose): `docker-compose
# config` (schema, interpolation), the services issue 10 asks for, and that every bind-mounted
# file and Dockerfile it names exists. Exits 77 (skipped) without docker-compose (Debian package
# docker-compose) or the `docker compose` plugin.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
file="$root/deploy/compose/docker-compose.yml"
if command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
elif command -v docker >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
else
  echo "skipped: neither docker-compose (Debian package docker-compose) nor 'docker compose' found"
  exit 77
fi
fail=0
"${compose[@]}" -f "$file" config -q
config=$("${compose[@]}" -f "$file" --profile dcgm config)
services=$("${compose[@]}" -f "$file" --profile dcgm config --services)
for s in postgres server worker prometheus grafana dcgm-exporter; do
  grep -qx "$s" <<<"$services" || { echo "FAIL: service $s missing"; fail=1; }
done
# Bind mounts: "- /abs/source:/target[:mode]" after interpolation.
while read -r src; do
  [ -e "$src" ] || { echo "FAIL: bind-mount source $src does not exist"; fail=1; }
done < <(sed -nE 's#^ *- (/[^:]+):/.*#\1#p' <<<"$config")
while read -r df; do
  [ -f "$root/$df" ] || { echo "FAIL: dockerfile $df does not exist"; fail=1; }
done < <(sed -nE 's#^ *dockerfile: (.*)$#\1#p' <<<"$config")
grep -q 'driver: nvidia' <<<"$config" || { echo "FAIL: no NVIDIA device reservation"; fail=1; }
[ $fail -eq 0 ] && echo "ok: compose file valid, $(wc -l <<<"$services") services, mounts and Dockerfiles present"
exit $fail
