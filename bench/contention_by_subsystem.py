#!/usr/bin/env python3
"""How the worker's test-only contention moved each GPU-health subsystem on one GPU.

Usage: bench/contention_by_subsystem.py RUN_FILE... [--top N]

RUN_FILEs: one GPU's runs as record_nights.sh writes them (run_LEASE_NN_gG_KIND.json, plain or
.gz), KIND clean or contention, at least 2 clean. Per case: the median of the contention runs'
medians / the median of the clean runs' medians - 1, and the clean runs' relative sd. Per
subsystem (server/gpu_health/subsystem_map.cc, read from the source so the table lives once):
how many cases, the median, min and max change, how many moved by 3 % or more (the fleet view's
minimum change), the clean sd's median. Then the N largest moves. Tells which fingerprint the
load would give a GPU against clean peers, before a multi-GPU host is spent on it.
"""
import argparse
import gzip
import json
import os
import re
import statistics

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def subsystems():
    src = open(os.path.join(ROOT, 'server/gpu_health/subsystem_map.cc')).read()
    return {m.group(1): m.group(2) for m in re.finditer(r'\{"([a-z0-9_.]+)", k(\w+),', src)}


def medians(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        run = json.load(f)
    return {m['case']['canonical']: m['stats']['median'] for m in run['measurements']
            if m['status'] == 'POINT_STATUS_OK'}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('runs', nargs='+')
    parser.add_argument('--top', type=int, default=20)
    args = parser.parse_args()
    runs = {'clean': [], 'contention': []}
    for path in sorted(args.runs):
        kind = 'contention' if '_contention.json' in path else 'clean'
        runs[kind].append(medians(path))
    if len(runs['clean']) < 2 or not runs['contention']:
        parser.error('need at least 2 clean runs and 1 contention run')
    print('runs: %d clean, %d contention' % (len(runs['clean']), len(runs['contention'])))
    family_subsystem = subsystems()
    rows = []
    for case in sorted(runs['clean'][0]):
        clean = [r[case] for r in runs['clean'] if case in r]
        loaded = [r[case] for r in runs['contention'] if case in r]
        if len(clean) < 2 or not loaded:
            continue
        level = statistics.median(clean)
        rows.append((family_subsystem.get(case.split('/')[0], '?'), case,
                     statistics.median(loaded) / level - 1, statistics.stdev(clean) / level))
    print('%-8s %5s %9s %8s %8s %6s %9s' % ('subsys', 'cases', 'median', 'min', 'max', '>=3%',
                                            'clean sd'))
    for s in sorted(set(r[0] for r in rows)):
        change = [r[2] for r in rows if r[0] == s]
        sd = [r[3] for r in rows if r[0] == s]
        print('%-8s %5d %8.2f%% %7.2f%% %7.2f%% %6d %8.3f%%' % (
            s, len(change), 100 * statistics.median(change), 100 * min(change),
            100 * max(change), sum(1 for c in change if c >= 0.03), 100 * statistics.median(sd)))
    print()
    for s, case, change, sd in sorted(rows, key=lambda r: -r[2])[:args.top]:
        print('%-8s %+8.2f%%  (clean sd %.2f%%)  %s' % (s, 100 * change, 100 * sd, case))


if __name__ == '__main__':
    main()
