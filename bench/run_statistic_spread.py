#!/usr/bin/env python3
"""Between-run spread of one case under three statistics of its samples: median, p10, minimum.

Reads RunResult JSON files (`warpwatch-worker run --out`), groups them (by GPU uuid, or by the arm
letter of tests/fixtures/h200_host_side's run_TAG_NN_ARM.json names with --by arm) and prints, per
group and case, as markdown: runs, the relative standard deviation of the run medians, of the run
p10s and of the run minima (each as the engine computed it over all of the run's samples: the
`stats` of a thinned run are those of the full run), and the range of the runs' sample counts (a
minimum of more samples is lower: the count is part of the reading).

The question it answers (docs/noise.md, "Which statistic"): whether a case whose timed region
rides on the host has a steadier floor than middle, i.e. whether host episodes only ever add time.

Usage: bench/run_statistic_spread.py RUN.json... [--by uuid|arm] [--cases SUBSTR,...]
"""
import argparse
import collections
import json
import re
import statistics

STATS = ("median", "p10", "min")


def rel_sd(xs):
    return statistics.stdev(xs) / statistics.mean(xs)


def group_of(path, doc, by):
    if by == "arm":
        m = re.search(r"_([a-z])\.json$", path)
        if not m:
            raise SystemExit(f"{path}: no arm letter (run_TAG_NN_ARM.json)")
        return "arm " + m.group(1)
    return doc["environment"]["device"]["uuid"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--by", choices=("uuid", "arm"), default="uuid")
    ap.add_argument("--cases", default="", help="only cases whose key contains one of these")
    a = ap.parse_args()
    wanted = [c for c in a.cases.split(",") if c]
    # group -> case -> stat -> [value per run]; and sample counts
    values = collections.defaultdict(lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for path in sorted(a.runs):
        doc = json.load(open(path))
        group = group_of(path, doc, a.by)
        for m in doc["measurements"]:
            key = m["case"]["canonical"]
            if m["status"] != "POINT_STATUS_OK" or not m.get("verified"):
                continue
            if wanted and not any(w in key for w in wanted):
                continue
            for s in STATS:
                values[group][key][s].append(m["stats"][s])
            values[group][key]["samples"].append(int(m.get("sample_count", 0)))
    for group in sorted(values):
        print(f"\n### {group}\n")
        print("| case | runs | median | p10 | min | samples |")
        print("|---|---:|---:|---:|---:|---|")
        for key in sorted(values[group]):
            v = values[group][key]
            n = len(v["median"])
            if n < 2:
                continue
            cells = " | ".join(f"{100 * rel_sd(v[s]):.2f} %" for s in STATS)
            print(f"| {key.split('?')[0]} | {n} | {cells} | {min(v['samples'])}-{max(v['samples'])} |")


if __name__ == "__main__":
    main()
