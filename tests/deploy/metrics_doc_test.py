#!/usr/bin/env python3
# docs/metrics.md lists exactly the metrics the code exports (ctest deploy.metrics_doc): every
# "warpwatch_*" name registered in server/metrics and worker/metrics (a string literal there) is
# in the "Exported today" tables, and every warpwatch_* name in those tables is registered.
# prometheus-cpp's exposer_* metrics and Prometheus' `up` are documented but not ours to scan.
# A metric added to the code fails this test until it is documented (and moved out of "Planned").
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import deploy_files as df  # noqa: E402


def exported():
    names = {}
    for sub in ("server/metrics", "worker/metrics"):
        for path in sorted(glob.glob(os.path.join(df.ROOT, sub, "**", "*.*"), recursive=True)):
            if not path.endswith((".cc", ".h")):
                continue
            for line in open(path):
                code = line.split("//", 1)[0]
                for m in re.finditer(r'"(warpwatch_[a-z0-9_]+)"', code):
                    names.setdefault(m.group(1), os.path.relpath(path, df.ROOT))
    return names


def main():
    code = exported()
    documented, _ = df.documented_names()
    ours = {n for n in documented if n.startswith("warpwatch_")}
    problems = []
    if len(code) < 10:
        problems.append("found only %d metric names in server/metrics and worker/metrics "
                        "(scan broken?)" % len(code))
    for name in sorted(set(code) - ours):
        problems.append("%s (%s) is exported but not in docs/metrics.md \"Exported today\"" %
                        (name, code[name]))
    for name in sorted(ours - set(code)):
        problems.append("%s is in docs/metrics.md \"Exported today\" but no longer registered in "
                        "server/metrics or worker/metrics" % name)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("ok: the %d warpwatch_* metrics the code registers are the ones docs/metrics.md lists"
          % len(code))
    return 0


if __name__ == "__main__":
    sys.exit(main())
