#!/usr/bin/env python3
"""Do the host-side cases move with the host itself? Tables for docs/noise.md (issue 24 item 4).

Reads the q arm of tests/fixtures/h200_host_side/record.sh: each run `run_TAG_NN_q.json` between
two windows of the host probe (bench/bench_host_memory.cc: `probe_TAG_NN_before.jsonl`,
`probe_TAG_NN_after.jsonl`, one line per window: memcpy_gbps, fault_us, cpu_ns) and, if given,
an idle probe (`--idle probe_idle.jsonl`). Prints, as markdown:
  1. the probe's own spread: per metric, the median, the spread between 1 s blocks and between
     runs (the mean of a run's before and after windows);
  2. per run: the probe's host memcpy bandwidth and fault cost around it, and each point's median
     relative to the points' median over the runs;
  3. per point: the spread of its run medians and the Spearman rank correlation of its run
     medians with the host's memcpy time per byte and its fault cost around the run (with n runs,
     |rho| above about 0.7 at n = 9 is unlikely by chance: p < 0.05).

Usage: bench/host_probe_summary.py DIR [--probe-dir DIR] [--idle FILE] [--points pageable,...]
"""
import argparse
import glob
import json
import os
import re
import statistics


def load_probe(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(xs, ys):
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
    return num / den if den else 0.0


def rel_sd(xs):
    return statistics.stdev(xs) / statistics.mean(xs) if len(xs) > 1 else 0.0


def block_medians(windows, key):
    blocks = {}
    for w in windows:
        blocks.setdefault(int(w["t"]), []).append(w[key])
    return [statistics.median(v) for _, v in sorted(blocks.items())]


def short(canonical):
    family, rest = canonical.split("/", 1)
    return rest.split("?")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--probe-dir", help="where the probe_*.jsonl files are (default: DIR)")
    ap.add_argument("--idle")
    ap.add_argument("--points", default="pageable,pinned,write_combining,small_copies,managed,"
                    "managed_advise,managed_prefetch,malloc_free,preallocated,nested_2,"
                    "streamed_pipeline,mapped")
    a = ap.parse_args()
    wanted = a.points.split(",")
    runs = []
    for path in sorted(glob.glob(os.path.join(a.dir, "run_*_q.json"))):
        m = re.search(r"run_(\w+?)_(\d+)_q\.json$", path)
        tag, n = m.group(1), m.group(2)
        probe = []
        for side in ("before", "after"):
            p = os.path.join(a.probe_dir or a.dir, f"probe_{tag}_{n}_{side}.jsonl")
            if not os.path.exists(p):
                raise SystemExit(f"{p}: missing (each q run has a probe before and after)")
            probe += load_probe(p)
        points = {}
        for meas in json.load(open(path))["measurements"]:
            if meas["status"] != "POINT_STATUS_OK" or not meas.get("verified"):
                raise SystemExit(f"{path}: {meas['case']['canonical']} {meas['status']}")
            points[short(meas["case"]["canonical"])] = meas["stats"]["median"]
        runs.append({"name": f"{tag}_{n}", "probe": probe, "points": points})
    if len(runs) < 3:
        raise SystemExit(f"{a.dir}: {len(runs)} q runs, need at least 3")
    metrics = [("memcpy_gbps", "host memcpy GB/s"), ("fault_us", "first-touch fault us"),
               ("cpu_ns", "cpu chain ns/step")]

    print("### The host probe alone (no GPU work in its windows)\n")
    print("| metric | median | 1 s blocks: RSD | 1 s blocks: (max-min)/median | between runs: RSD |"
          + (" idle 1 s blocks: RSD | idle (max-min)/median |" if a.idle else ""))
    print("|---|---:|---:|---:|---:|" + ("---:|---:|" if a.idle else ""))
    idle = load_probe(a.idle) if a.idle else None
    for key, label in metrics:
        blocks = [b for r in runs for b in block_medians(r["probe"], key)]
        per_run = [statistics.mean(w[key] for w in r["probe"]) for r in runs]
        med = statistics.median(blocks)
        row = (f"| {label} | {med:.3f} | {100 * rel_sd(blocks):.2f} % | "
               f"{100 * (max(blocks) - min(blocks)) / med:.1f} % | {100 * rel_sd(per_run):.2f} % |")
        if idle:
            ib = block_medians(idle, key)
            row += (f" {100 * rel_sd(ib):.2f} % |"
                    f" {100 * (max(ib) - min(ib)) / statistics.median(ib):.1f} % |")
        print(row)

    present = [p for p in wanted if all(p in r["points"] for r in runs)]
    medians = {p: statistics.median(r["points"][p] for r in runs) for p in present}
    print("\n### Each run: the host around it, each point against its median over the runs\n")
    print("| run | memcpy GB/s | fault us | " + " | ".join(present) + " |")
    print("|---|---:|---:|" + "---:|" * len(present))
    host_copy = []   # seconds per GB of the host's memcpy around each run
    host_fault = []
    for r in runs:
        gbps = statistics.mean(w["memcpy_gbps"] for w in r["probe"])
        fault = statistics.mean(w["fault_us"] for w in r["probe"])
        host_copy.append(1 / gbps)
        host_fault.append(fault)
        cells = " | ".join(f"{100 * (r['points'][p] / medians[p] - 1):+.1f} %" for p in present)
        print(f"| {r['name']} | {gbps:.2f} | {fault:.3f} | {cells} |")

    print(f"\n### Per point: between-run spread and rank correlation with the host ({len(runs)}"
          " runs)\n")
    print("| point | median us | between runs: RSD | rho with host memcpy time | rho with fault"
          " cost |")
    print("|---|---:|---:|---:|---:|")
    for p in present:
        xs = [r["points"][p] for r in runs]
        print(f"| {p} | {1e6 * medians[p]:.2f} | {100 * rel_sd(xs):.2f} % | "
              f"{spearman(xs, host_copy):+.2f} | {spearman(xs, host_fault):+.2f} |")


if __name__ == "__main__":
    main()
