#!/usr/bin/env bash
# Prints, for each ctest tree named, the tests that failed in its last run and the last lines of
# each one's output (from Testing/Temporary/LastTest.log). .ci/run calls it last, so the tail of
# a CI log names the failing tests even when their inline output scrolled out of it.
# Usage: .ci/failed_tests.sh BUILD_DIR... (a tree without a failed-tests log prints nothing).
# WARPWATCH_FAILED_TAIL_LINES (default 25) is how many output lines are kept per test.
set -uo pipefail
lines=${WARPWATCH_FAILED_TAIL_LINES:-25}
for tree in "$@"; do
  failed="$tree/Testing/Temporary/LastTestsFailed.log"
  [ -s "$failed" ] || continue
  echo "=== failed in $tree:"
  sed 's/^[0-9]*:/  /' "$failed"
  while IFS=: read -r _ name; do
    echo "--- $name (last $lines lines of its output):"
    awk -v name="$name" '
      $0 ~ "^[0-9]+/[0-9]+ Test: " && substr($0, index($0, "Test: ") + 6) == name { want = 1; next }
      want && /^Output:$/ { getline; take = 1; n = 0; next }
      take && /^<end of output>$/ { take = 0; want = 0; next }
      take { out[n++ % keep] = $0; seen = n }
      END { start = seen > keep ? seen - keep : 0
            for (i = start; i < seen; i++) print "  " out[i % keep] }
    ' keep="$lines" "$tree/Testing/Temporary/LastTest.log"
  done < "$failed"
done
