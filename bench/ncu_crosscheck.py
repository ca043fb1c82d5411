#!/usr/bin/env python3
"""Cross-check of warpwatch's numbers against Nsight Compute, on a GPU host with ncu.

For one case per implemented family and variant (the first nightly point of each, taken from a
`warpwatch-worker run --counters --out FILE` of the same binary), runs Nsight Compute on that same
binary and case:

  ncu --cache-control all --clock-control none --target-processes all --kernel-name-base mangled
      -k regex:^(<the point's kernel symbols>)$ --launch-skip <kernels> --launch-count <3 x kernels>
      --metrics gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,
                dram__throughput.avg.pct_of_peak_sustained_elapsed
      warpwatch-worker run --family F --variant V --axis F:A=v ... --min-time 0 --max-samples 3

and writes a Markdown table (and JSON): engine event median, engine CUPTI kernel median, ncu
gpu__time_duration (summed over the point's kernels, median per kernel over its profiled
launches), their differences, achieved occupancy and DRAM throughput side by side, and whether the
goals hold (cases over 20 us within 2 %, 5-20 us within 5 %, achieved occupancy within 3 points).

Families whose timed region is more than its kernels (transfers, allocation, managed memory,
streams, device-side launches: NOT_ONE_KERNEL below) are profiled and listed, but kept out of the
time goal: their event time covers copies, allocations or launch latency that ncu does not time.

The whole suite takes longer than one device call allows, so the work can be split: --time-limit
stops starting new cases after that many seconds, and --resume ROWS.json (an earlier --out-json)
skips the cases it already holds; the table is written from all rows either way.

Usage: bench/ncu_crosscheck.py --worker build/bin/warpwatch-worker --engine-json run.json
                               --out-md docs/results/h100_crosscheck.md [--out-json X] [--ncu PATH]
                               [--resume X] [--time-limit S]
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

METRICS = [
    "gpu__time_duration.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
]
OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
PROFILED_SAMPLES = 3
# What each family's event time holds besides its kernels (catalog: "what their time covers").
NOT_ONE_KERNEL = {
    "transfer.host_device": "the timed region is host-device copies",
    "concurrency.streams": "the timed region holds copies and several streams' kernels",
    "memory.allocation_churn": "the timed region holds allocations and frees",
    "memory.managed": "the timed region holds page migration",
    "dynamic_parallelism": "the timed region holds device-side launches",
}


def first_point_per_variant(run):
    seen, points = set(), []
    for m in run["measurements"]:
        if m.get("status") != "POINT_STATUS_OK":
            continue
        key = (m["case"]["family"], m["case"]["variant"])
        if key in seen:
            continue
        seen.add(key)
        points.append(m)
    return points


def goal(seconds, diff):
    if seconds > 20e-6:
        return abs(diff) <= 0.02, "2 %"
    if seconds >= 5e-6:
        return abs(diff) <= 0.05, "5 %"
    return None, "-"


def run_ncu(ncu, worker, m, workdir):
    kernels = [k for k in m.get("kernels", []) if k.get("mangled")]
    if not kernels:
        return None, "no kernel of its own (nothing for ncu to profile)"
    case = m["case"]
    symbols = sorted({k["mangled"] for k in kernels})
    launches = sum(max(1, int(k.get("launches", 1))) for k in kernels)
    log = os.path.join(workdir, "ncu.csv")
    cmd = [ncu, "--cache-control", "all", "--clock-control", "none", "--target-processes", "all",
           "--kernel-name-base", "mangled", "-k", "regex:^(" + "|".join(symbols) + ")$",
           "--launch-skip", str(launches), "--launch-count", str(PROFILED_SAMPLES * launches),
           "--metrics", ",".join(METRICS), "--csv", "--page", "raw", "--print-units", "base",
           "--log-file", log,
           worker, "run", "--family", case["family"], "--variant", case["variant"],
           "--min-time", "0", "--min-samples", str(PROFILED_SAMPLES),
           "--max-samples", str(PROFILED_SAMPLES)]
    for axis, value in sorted(case.get("params", {}).items()):
        cmd += ["--axis", "%s:%s=%s" % (case["family"], axis, value)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    if not os.path.exists(log):
        return None, "ncu wrote nothing (exit %d): %s" % (proc.returncode, proc.stdout[-500:])
    text = open(log).read()
    start = text.find('"ID"')
    if start < 0:
        return None, "no kernel profiled (exit %d): %s" % (proc.returncode, text[-500:])
    rows = list(csv.DictReader(io.StringIO(text[start:])))
    rows = [r for r in rows if r.get("ID", "").strip().isdigit()]  # drop the units row
    # ncu prints names in its own form, so rows are matched to the point's kernels by position:
    # the profiled launches cycle through the Run's kernels in launch order.
    order = []
    for k in kernels:
        order += [k["mangled"]] * max(1, int(k.get("launches", 1)))
    by_kernel = {}
    for i, r in enumerate(rows):
        by_kernel.setdefault(order[i % len(order)], []).append(r)
    out = {"kernels": {}, "command": " ".join(cmd), "raw": text[start:start + 1500]}
    for name, rs in by_kernel.items():
        def med(metric):
            vals = []
            for r in rs:
                v = r.get(metric, "").replace(",", "").strip()
                try:
                    vals.append(float(v))
                except ValueError:
                    pass
            return statistics.median(vals) if vals else None
        out["kernels"][name] = {"launches": len(rs), "ns": med(METRICS[0]), "occ": med(OCC),
                                "dram": med(DRAM), "ncu_name": rs[0].get("Kernel Name", "")}
    return out, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", required=True)
    ap.add_argument("--engine-json", required=True)
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json")
    ap.add_argument("--ncu", default="/usr/local/cuda/bin/ncu")
    ap.add_argument("--resume", help="rows of an earlier call (its --out-json): skip those cases")
    ap.add_argument("--time-limit", type=float, default=0,
                    help="start no new case after this many seconds (0: no limit)")
    args = ap.parse_args()
    started = time.monotonic()
    run = json.load(open(args.engine_json))
    device = run.get("environment", {}).get("device", {}).get("name", "?")
    rows = json.load(open(args.resume)) if args.resume else []
    done = {r["case"] for r in rows}
    points = first_point_per_variant(run)
    with tempfile.TemporaryDirectory() as workdir:
        for m in points:
            if m["case"]["canonical"] in done:
                continue
            if args.time_limit and time.monotonic() - started > args.time_limit:
                break
            result, why = run_ncu(args.ncu, args.worker, m, workdir)
            if os.path.exists(os.path.join(workdir, "ncu.csv")):
                os.remove(os.path.join(workdir, "ncu.csv"))
            row = {"case": m["case"]["canonical"], "kernel": m.get("kernel_name", ""),
                   "event": m["stats"]["median"], "cupti": m.get("kernel_median_seconds", 0),
                   "engine_occ": (m.get("counters") or {}).get(OCC),
                   "engine_dram": (m.get("counters") or {}).get(DRAM), "note": why or "",
                   "family": m["case"]["family"]}
            if result:
                ks = [k for k in m["kernels"] if k.get("mangled") in result["kernels"]]
                ncu_ns = sum(result["kernels"][k["mangled"]]["ns"] or 0 for k in ks)
                first = result["kernels"].get(m["kernels"][0].get("mangled"), {})
                row.update({"ncu": ncu_ns * 1e-9, "ncu_occ": first.get("occ"),
                            "ncu_dram": first.get("dram"), "command": result["command"]})
                if len(m["kernels"]) > 1:
                    row["note"] = "%d kernels: ncu sums their durations, the events also hold the gap between them" % len(m["kernels"])
                if m["case"]["family"] in NOT_ONE_KERNEL:
                    row["note"] = NOT_ONE_KERNEL[m["case"]["family"]] + " (not in the goal)"
            rows.append(row)
            print(json.dumps(row), flush=True)
            if result and len(rows) == 1:
                print("first case, ncu output:\n" + result["raw"], flush=True)

    lines = ["# Engine vs Nsight Compute on %s" % device, "",
             "Generated by `bench/ncu_crosscheck.py --worker %s --engine-json %s` (ncu %s; "
             "`--cache-control all --clock-control none`, metric gpu__time_duration.sum, median of "
             "%d profiled launches per kernel). The engine columns come from the same binary's "
             "nightly run in that file; occupancy and DRAM columns are the point's first kernel."
             % (os.path.basename(args.worker), os.path.basename(args.engine_json), args.ncu,
                PROFILED_SAMPLES), "",
             "| case | kernel | engine (events) | engine (CUPTI kernels) | ncu | events vs ncu | goal | "
             "occupancy engine / ncu | DRAM % engine / ncu | note |",
             "|---|---|---:|---:|---:|---:|---|---|---|---|"]
    met = total = occ_ok = occ_total = 0
    for r in rows:
        if "ncu" not in r or not r["ncu"]:
            lines.append("| %s | %s | %.2f us | | | | | | | %s |" % (r["case"], r["kernel"], r["event"] * 1e6, r["note"]))
            continue
        diff = r["event"] / r["ncu"] - 1
        ok, tol = goal(r["ncu"], diff)
        if r.get("family", r["case"].split("/")[0]) in NOT_ONE_KERNEL:
            ok, tol = None, "-"
        if ok is not None:
            total += 1
            met += 1 if ok else 0
        occ = ""
        if r.get("engine_occ") is not None and r.get("ncu_occ") is not None:
            occ_total += 1
            good = abs(r["engine_occ"] - r["ncu_occ"]) <= 3
            occ_ok += 1 if good else 0
            occ = "%.1f / %.1f %s" % (r["engine_occ"], r["ncu_occ"], "" if good else "(off)")
        dram = ""
        if r.get("engine_dram") is not None and r.get("ncu_dram") is not None:
            dram = "%.1f / %.1f" % (r["engine_dram"], r["ncu_dram"])
        lines.append("| %s | %s | %.2f us | %.2f us | %.2f us | %+.2f %% | %s | %s | %s | %s |" % (
            r["case"], r["kernel"], r["event"] * 1e6, (r["cupti"] or 0) * 1e6, r["ncu"] * 1e6,
            diff * 100, ("met" if ok else "MISSED (%s)" % tol) if ok is not None else "-", occ, dram,
            r["note"]))
    lines += ["", "Time goal met in %d of %d kernel-only cases over 5 us; achieved occupancy within 3 "
              "points in %d of %d." % (met, total, occ_ok, occ_total), ""]
    profiled = {r["case"] for r in rows}
    missing = [m["case"]["canonical"] for m in points if m["case"]["canonical"] not in profiled]
    if missing:
        lines += ["Not profiled yet (--time-limit reached; rerun with --resume): %d cases: %s." %
                  (len(missing), ", ".join(missing)), ""]
    with open(args.out_md, "w") as f:
        f.write("\n".join(lines))
    if args.out_json:
        with open(args.out_json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
