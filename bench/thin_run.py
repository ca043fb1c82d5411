#!/usr/bin/env python3
"""Thins a RunResult JSON (`warpwatch-worker run --out`) for use as a committed fixture.

Every per-sample array of each measurement (samples_seconds, sample_sm_clock_mhz,
sample_throttled, sample_group, sample_kernel_seconds) is cut to at most --max-samples entries
taken at evenly spaced positions, the same positions for the arrays that run in step. Summaries
(stats, medians, clocks, counters, kernels) are left as measured on all samples (stats carry no
sample count: the thinning is noted in `command`), so a thinned run
reports the same numbers; only tests that need raw samples (a U-test) see fewer of them.

Usage: bench/thin_run.py IN.json OUT.json [--max-samples 200]
"""
import argparse
import json

STEPPED = ["samples_seconds", "sample_sm_clock_mhz", "sample_throttled", "sample_group"]


def positions(n, k):
    if n <= k:
        return list(range(n))
    return [round(i * (n - 1) / (k - 1)) for i in range(k)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--max-samples", type=int, default=200)
    a = ap.parse_args()
    run = json.load(open(a.inp))
    for m in run.get("measurements", []):
        n = len(m.get("samples_seconds", []))
        keep = positions(n, a.max_samples)
        for key in STEPPED:
            if key in m and len(m[key]) == n:
                m[key] = [m[key][i] for i in keep]
        k = m.get("sample_kernel_seconds")
        if k:
            m["sample_kernel_seconds"] = [k[i] for i in positions(len(k), a.max_samples)]
    # Said in the one free-text field a RunResult has, so proto parsers still accept the file.
    run["command"] = run.get("command", "") + " (per-sample arrays thinned to at most %d by bench/thin_run.py)" % a.max_samples
    json.dump(run, open(a.out, "w"), separators=(",", ":"))


if __name__ == "__main__":
    main()
