#!/usr/bin/env python3
"""Where the host-side families' between-run spread comes from: tables for docs/noise.md.

Reads runs recorded by tests/fixtures/h200_host_side/record.sh (`run_TAG_NN_ARM.json`, the arm a
letter: a/o nightly settings, g eight sample groups, p pinned to two CPUs, h glibc huge pages,
w the 2 s host-side window build) and prints, as markdown:
  1. per point and arm: runs, relative standard deviation of the run medians, robust spread
     (1.4826 * MAD / median), median in-run relative standard deviation of the samples;
  2. the g runs' group_median_spread ((max - min) / median of the eight groups' medians, from
     all samples of the run): the spread between fresh allocations seconds apart in one process;
  3. time structure inside one allocation: (max - min) / median of the medians of a run's four
     consecutive quarters of samples (on the committed, evenly thinned samples), median over runs;
  4. every run's deviation from its arm's median for the link cases, to show episodes that move
     all of them at once.

Usage: bench/host_side_noise.py RUN.json... [--arms ao] [--points pageable,pinned,...]
"""
import argparse
import collections
import json
import re
import statistics


def rel_mad(xs):
    med = statistics.median(xs)
    return 1.4826 * statistics.median([abs(x - med) for x in xs]) / med


def rel_sd(xs):
    return statistics.stdev(xs) / statistics.mean(xs)


def short(key):
    return key.split("?")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--episode-points", default="pinned,write_combining,small_copies,"
                    "streamed_pipeline,pageable")
    a = ap.parse_args()
    by_arm = collections.defaultdict(list)  # arm -> [(file, {key: measurement})]
    order = []
    for path in sorted(a.runs):
        m = re.search(r"run_(\w+?)_(\d+)_([a-z])\.json$", path)
        if not m:
            raise SystemExit(f"{path}: not run_TAG_NN_ARM.json")
        doc = json.load(open(path))
        points = {}
        for meas in doc["measurements"]:
            if meas["status"] != "POINT_STATUS_OK" or not meas.get("verified"):
                raise SystemExit(f"{path}: {meas['case']['canonical']} {meas['status']}")
            points[meas["case"]["canonical"]] = meas
            if meas["case"]["canonical"] not in order:
                order.append(meas["case"]["canonical"])
        by_arm[m.group(3)].append((f"{m.group(1)}_{m.group(2)}", points))
    arms = sorted(by_arm)

    print("## 1. Between-run spread of the run medians, per arm\n")
    print("| point | median | " + " | ".join(f"{x}: runs, rsd, robust, in-run" for x in arms) + " |")
    print("|---|---:|" + "---:|" * len(arms))
    for key in order:
        cells = []
        for arm in arms:
            meds = [p[key]["stats"]["median"] for _, p in by_arm[arm] if key in p]
            inrun = [p[key]["rel_stddev"] for _, p in by_arm[arm] if key in p]
            if len(meds) < 2:
                cells.append("")
                continue
            cells.append(f"{len(meds)}, {rel_sd(meds) * 100:.2f} %, {rel_mad(meds) * 100:.2f} %, "
                         f"{statistics.median(inrun) * 100:.1f} %")
        all_meds = [p[key]["stats"]["median"] for arm in arms for _, p in by_arm[arm] if key in p]
        print(f"| {short(key)} | {statistics.median(all_meds) * 1e6:.2f} us | " +
              " | ".join(cells) + " |")

    if "g" in by_arm:
        print("\n## 2. Eight fresh allocations in one process (g runs): group_median_spread\n")
        print("| point | " + " | ".join(r for r, _ in by_arm["g"]) + " | median |")
        print("|---|" + "---:|" * (len(by_arm["g"]) + 1))
        for key in order:
            xs = [p[key]["group_median_spread"] for _, p in by_arm["g"] if key in p]
            print(f"| {short(key)} | " + " | ".join(f"{x * 100:.1f} %" for x in xs) +
                  f" | {statistics.median(xs) * 100:.1f} % |")

    print("\n## 3. Inside one allocation: spread of the four quarters' medians, median over runs\n")
    print("| point | " + " | ".join(arms) + " |")
    print("|---|" + "---:|" * len(arms))
    for key in order:
        cells = []
        for arm in arms:
            xs = []
            for _, p in by_arm[arm]:
                if key not in p or p[key].get("sample_groups", 0) > 1:
                    continue
                s = p[key]["samples_seconds"]
                if len(s) < 8:
                    continue
                q = [statistics.median(s[i * len(s) // 4:(i + 1) * len(s) // 4]) for i in range(4)]
                xs.append((max(q) - min(q)) / statistics.median(s))
            cells.append(f"{statistics.median(xs) * 100:.1f} %" if xs else "")
        print(f"| {short(key)} | " + " | ".join(cells) + " |")

    wanted = a.episode_points.split(",")
    print("\n## 4. Each run's median against its arm's median (link cases)\n")
    for arm in arms:
        runs = by_arm[arm]
        print(f"arm {arm}: runs " + " ".join(r for r, _ in runs))
        for key in order:
            if short(key).split("/")[-1] not in wanted:
                continue
            meds = [p[key]["stats"]["median"] for _, p in runs]
            mid = statistics.median(meds)
            print(f"  {short(key):45s} " + " ".join(f"{(x / mid - 1) * 100:+6.1f}" for x in meds))
        print()


if __name__ == "__main__":
    main()
