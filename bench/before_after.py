#!/usr/bin/env python3
"""Per-case medians of two worker builds measured on the same GPUs, against the between-run noise.

Usage: bench/before_after.py AFTER_GLOB BEFORE_GLOB [--top N] [--sd-of after|both]

Both globs name run files as record_nights.sh writes them (run_LEASE_NN_gG_KIND.json, plain or
.gz); only KIND clean is read. Per case and GPU: before/after - 1 of the medians of that GPU's
runs of each build, then the median over the GPUs; the after build's between-run relative sd per
GPU (it needs at least 2 after runs of a GPU), median over the GPUs. Printed: kernel-only and
host-side cases (the families whose timed region is more than kernels) separately, with how many
cases moved by more than 3 of their sds, then the largest moves. With --sd-of both, a case's sd is
the larger of the after and the before runs' (each needs 2 runs): with 3 runs a build, a kernel
whose runs all read the same event-timer tick has an after sd of 0, and any one-tick move then
counts as beyond it.
"""
import argparse
import collections
import glob
import gzip
import json
import os
import statistics

HOST_SIDE = ('transfer.', 'memory.managed', 'concurrency.streams', 'dynamic_parallelism',
             'memory.allocation_churn')


def load(pattern):
    """case -> gpu -> [run medians] of the clean runs matching `pattern`."""
    out = collections.defaultdict(dict)
    for path in sorted(glob.glob(pattern)):
        name = os.path.basename(path).split('.')[0]
        _, _, _, gpu, kind = name.split('_')
        if kind != 'clean':
            continue
        opener = gzip.open if path.endswith('.gz') else open
        with opener(path, 'rt') as f:
            run = json.load(f)
        for m in run['measurements']:
            if m.get('status') != 'POINT_STATUS_OK':
                continue
            out[m['case']['canonical']].setdefault(int(gpu[1:]), []).append(m['stats']['median'])
    return out


def quantile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(p * len(sorted_values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('after')
    parser.add_argument('before')
    parser.add_argument('--top', type=int, default=25)
    parser.add_argument('--sd-of', choices=('after', 'both'), default='after')
    args = parser.parse_args()
    after, before = load(args.after), load(args.before)
    rows = []
    for case in sorted(after):
        ratios, sds = [], []
        for gpu, a in after[case].items():
            b = before.get(case, {}).get(gpu, [])
            if len(a) < 2 or not b:
                continue
            ratios.append(statistics.median(b) / statistics.median(a) - 1)
            sd = statistics.stdev(a) / statistics.mean(a)
            if args.sd_of == 'both' and len(b) >= 2:
                sd = max(sd, statistics.stdev(b) / statistics.mean(b))
            sds.append(sd)
        if ratios:
            rows.append((case, statistics.median(ratios), statistics.median(sds),
                         case.startswith(HOST_SIDE)))
    sd_name = 'after runs' if args.sd_of == 'after' else 'after or before runs (the larger)'
    print(f'cases compared: {len(rows)} (before: {len(before)} cases, after: {len(after)})')
    for host_side in (False, True):
        sel = [r for r in rows if r[3] == host_side]
        if not sel:
            continue
        moves = sorted(abs(r[1]) for r in sel)
        beyond = sum(1 for r in sel if r[2] == 0 or abs(r[1]) > 3 * r[2])
        print(f"{'host-side' if host_side else 'kernel-only'}: {len(sel)} cases; "
              f'|before/after - 1| median {100 * statistics.median(moves):.3f} %, '
              f'p90 {100 * quantile(moves, 0.9):.3f} %, max {100 * moves[-1]:.3f} %; '
              f'between-run sd of the {sd_name}, median {100 * statistics.median(r[2] for r in sel):.3f} %; '
              f'cases moved by more than 3 sd: {beyond}')
    print()
    print(f'largest |before/after - 1| (median over the GPUs), with the between-run sd of the {sd_name}:')
    for case, move, sd, host_side in sorted(rows, key=lambda r: -abs(r[1]))[:args.top]:
        print(f"  {case[:86]:86s} {100 * move:+7.2f} %  sd {100 * sd:6.2f} %"
              f"{'  host-side' if host_side else ''}")


if __name__ == '__main__':
    main()
