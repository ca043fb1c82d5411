#!/usr/bin/env python3
"""Between-run spread of point medians over repeated runs (`warpwatch-worker run --out` JSONs).

Per point (case.canonical, status OK in every run of a group): the robust relative spread of the
runs' medians (stats.median), 1.4826 * MAD / median, over all runs and within each group (by
default a group is one GPU, environment.device.uuid; --group-re takes the group from the file
name instead). Prints, per group, the median/p90/p95/max of that spread over points, then the
points whose spread in any group is above --threshold (percent). Also checks every file: number of
measurements, statuses, verified.

Usage: bench/run_spread.py RUN.json... [--group-re '_(l[0-9]+)_'] [--threshold 1.0] [--points]
"""
import argparse
import collections
import json
import re
import statistics


def pct(xs, q):
    """Percentile with linear interpolation between order statistics (numpy's default)."""
    xs = sorted(xs)
    if not xs:
        return float("nan")
    pos = (len(xs) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def robust_rel_spread(values):
    med = statistics.median(values)
    mad = statistics.median(abs(v - med) for v in values)
    return 1.4826 * mad / med


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--group-re", help="regex on the file name whose group 1 names the group")
    ap.add_argument("--threshold", type=float, default=1.0, help="list points above this %%")
    ap.add_argument("--points", action="store_true", help="print every point's spreads")
    ap.add_argument("--case-re", help="only the points whose case.canonical matches (re.search)")
    ap.add_argument("--exclude-re", help="leave out the points whose case.canonical matches")
    a = ap.parse_args()

    def kept(canonical):
        return ((not a.case_re or re.search(a.case_re, canonical)) and
                (not a.exclude_re or not re.search(a.exclude_re, canonical)))

    groups = collections.OrderedDict()  # group -> list of {canonical: median}
    problems = []
    for path in a.runs:
        run = json.load(open(path))
        ms = run.get("measurements", [])
        status = collections.Counter(m.get("status") for m in ms)
        unverified = [m["case"]["canonical"] for m in ms if not m.get("verified")]
        print("%s: %d measurements, %s, unverified %d" % (
            path, len(ms), dict(status), len(unverified)))
        for m in ms:
            if m.get("status") != "POINT_STATUS_OK" or not m.get("verified"):
                problems.append((path, m["case"]["canonical"], m.get("status"), m.get("error", "")))
        if a.group_re:
            g = re.search(a.group_re, path).group(1)
        else:
            g = run["environment"]["device"]["uuid"]
        groups.setdefault(g, []).append(
            {m["case"]["canonical"]: m["stats"]["median"] for m in ms
             if m.get("status") == "POINT_STATUS_OK" and kept(m["case"]["canonical"])})
    for p in problems:
        print("NOT OK/verified: %s %s %s %s" % p)

    allruns = [r for rs in groups.values() for r in rs]
    sets = [("all", allruns)] + list(groups.items())
    points = sorted(set.intersection(*(set(r) for r in allruns)))
    print("\n%d points OK in all %d runs" % (len(points), len(allruns)))
    spread = {}  # set name -> {point: spread}
    for name, rs in sets:
        spread[name] = {p: robust_rel_spread([r[p] for r in rs]) for p in points}

    print("\n| runs | n | median | p90 | p95 | max | points > %g %% |" % a.threshold)
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rs in sets:
        v = list(spread[name].values())
        print("| %s | %d | %.3f %% | %.3f %% | %.3f %% | %.3f %% | %d |" % (
            name, len(rs), 100 * pct(v, 50), 100 * pct(v, 90), 100 * pct(v, 95),
            100 * max(v), sum(x > a.threshold / 100 for x in v)))

    names = [n for n, _ in sets]
    over = [p for p in points if any(spread[n][p] > a.threshold / 100 for n in names)]
    shown = points if a.points else sorted(over, key=lambda p: -spread["all"][p])
    if shown:
        print("\n%s\n" % ("every point:" if a.points else
                          "points with spread > %g %% in any set:" % a.threshold))
        print("| point | median (all runs) | " + " | ".join(names) + " |")
        print("|---|---:|" + "---:|" * len(names))
        for p in shown:
            med = statistics.median(r[p] for r in allruns)
            print("| %s | %.2f us | " % (p, med * 1e6) +
                  " | ".join("%.3f %%" % (100 * spread[n][p]) for n in names) + " |")


if __name__ == "__main__":
    main()
