#!/usr/bin/env bash
# Prints, for each ctest tree named, the tests whose last run failed and those that failed an
# attempt but passed when ctest retried them (`--repeat until-pass:N`), each with the last lines of
# its failed attempt's output (from Testing/Temporary/LastTest.log, which keeps every attempt).
# .ci/run calls it last, so the tail of a CI log names them even after their inline output
# scrolled out of it. Usage: .ci/failed_tests.sh BUILD_DIR... (a tree without a log prints
# nothing). WARPWATCH_FAILED_TAIL_LINES (default 25): output lines kept per test.
set -uo pipefail
lines=${WARPWATCH_FAILED_TAIL_LINES:-25}
for tree in "$@"; do
  log="$tree/Testing/Temporary/LastTest.log"
  [ -s "$log" ] || continue
  failed="$tree/Testing/Temporary/LastTestsFailed.log"
  awk -v keep="$lines" -v tree="$tree" -v failed="$failed" '
    BEGIN {  # LastTestsFailed.log: "N:name" per test whose last attempt failed (absent: none)
      while ((getline line < failed) > 0) { sub(/^[0-9]+:/, "", line); final[line] = 1 }
    }
    /^[0-9]+\/[0-9]+ Test: / { name = substr($0, index($0, " Test: ") + 7); next }
    /^Output:$/ { getline; take = 1; n = 0; next }
    take && /^<end of output>$/ { take = 0; next }
    take { out[n++ % keep] = $0; next }
    /^Test Failed/ && name != "" {
      if (!(name in attempts)) order[++count] = name
      attempts[name]++
      start = n > keep ? n - keep : 0
      text = ""
      for (i = start; i < n; i++) text = text "  " out[i % keep] "\n"
      tail[name] = text
    }
    END {
      for (pass = 1; pass <= 2; pass++) {
        header = 0
        for (k = 1; k <= count; k++) {
          t = order[k]
          if ((pass == 1) != (t in final)) continue
          if (!header) {
            print (pass == 1 ? "=== failed in " : "=== failed, then passed when retried, in ") tree ":"
            header = 1
          }
          print "--- " t " (" attempts[t] " failed attempt(s); the last one'"'"'s final " keep " lines):"
          printf "%s", tail[t]
        }
      }
    }
  ' "$log"
done
