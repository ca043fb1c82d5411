#!/usr/bin/env bash
# Checks deploy/prometheus with promtool: the scrape config, the alert rules, and the rules' unit
# tests (deploy/prometheus/tests/*_test.yml). Exits 77 (ctest: skipped) when promtool is absent.
#   tests/deploy/prometheus_rules_test.sh [deploy/prometheus]
set -euo pipefail

dir="${1:-$(cd "$(dirname "$0")/../../deploy/prometheus" && pwd)}"
if ! command -v promtool >/dev/null 2>&1; then
  echo "skipped: promtool not found (Debian package prometheus; deploy/install-deps.sh installs it)"
  exit 77
fi
cd "$dir"
promtool check config prometheus.yml
promtool check rules rules/*.yml
shopt -s nullglob
tests=(tests/*_test.yml)
if [ ${#tests[@]} -eq 0 ]; then
  echo "FAIL: no rule tests in $dir/tests"
  exit 1
fi
promtool test rules "${tests[@]}"
