#!/usr/bin/env python3
"""Tables of issue 29's proof from `warpwatch-worker run` files of the interconnect families.

  python3 bench/interconnect_summary.py peer_copy.json peer_read.json nccl.json

Prints, per file it recognises: the links NVML reported (RunEnvironment.gpu_links), the peer copy
bandwidth matrix (64 MiB, GB/s) and latency matrix (4 B, us) for peer_access and staged_host,
the peer read bandwidth matrix with each GPU's local read, and the NCCL curve (size, time, algbw,
busbw per collective, nccl-tests' definitions). Points that were not OK are listed with their
status and reason (a 'not applicable' answer is a SKIPPED point). Standard library only.
"""
import json
import sys
from collections import defaultdict


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: unreadable ({e})")
        return None


def params(m):
    return {k: int(v) for k, v in m["case"].get("params", {}).items()}


def median(m):
    return float(m.get("stats", {}).get("median", 0) or 0)


def matrix(title, cells, n, fmt):
    print(f"\n{title}")
    print("src\\dst " + "".join(f"{d:>10}" for d in range(n)))
    for s in range(n):
        row = "".join(f"{fmt(cells[(s, d)]) if (s, d) in cells else '-':>10}" for d in range(n))
        print(f"{s:>7} " + row)


def links(doc):
    env = doc.get("environment", {})
    gl = env.get("gpu_links", [])
    print(f"\nGPU links (NVML) of {env.get('hostname', '?')}, driver {env.get('driver_version', '?')}:")
    if env.get("topology_note"):
        print(f"  note: {env['topology_note']}")
    for l in gl:
        print(f"  GPU{l.get('src', 0)}-GPU{l.get('dst', 0)}: {l.get('path', '') or '?':6} "
              f"nvlinks {l.get('nvlinks', 0)} v{l.get('nvlink_version', 0)} "
              f"{'via NVSwitch ' if l.get('through_nvswitch') else ''}"
              f"nominal {float(l.get('nvlink_gbps_per_direction', 0)):.0f} GB/s per direction, "
              f"PCIe {l.get('pcie_path', '') or '?'}")


def not_ok(doc):
    bad = [m for m in doc.get("measurements", []) if m.get("status") != "POINT_STATUS_OK"]
    skipped_na = [m for m in bad if "not applicable" in m.get("error", "")]
    others = [m for m in bad if m not in skipped_na]
    if skipped_na:
        print(f"\n{len(skipped_na)} points not applicable on this node (e.g. "
              f"{skipped_na[0]['case']['canonical']}: {skipped_na[0]['error']})")
    for m in others:
        print(f"  {m['case']['canonical']}: {m.get('status')} {m.get('error', '')}")


def peer_copy(doc):
    ms = [m for m in doc["measurements"] if m.get("status") == "POINT_STATUS_OK"]
    n = 1 + max([max(params(m)["src"], params(m)["dst"]) for m in ms], default=0)
    for variant in ("peer_access", "staged_host"):
        bw, lat = {}, {}
        sizes = sorted({params(m)["bytes"] for m in ms if m["case"]["variant"] == variant})
        for m in ms:
            if m["case"]["variant"] != variant:
                continue
            p = params(m)
            if p["bytes"] == sizes[-1]:
                bw[(p["src"], p["dst"])] = float(m.get("gbps", 0))
            if p["bytes"] == sizes[0]:
                lat[(p["src"], p["dst"])] = median(m) * 1e6
        if sizes:
            matrix(f"peer_copy/{variant}: bandwidth at {sizes[-1]} B, GB/s", bw, n,
                   lambda v: f"{v:.1f}")
            matrix(f"peer_copy/{variant}: latency at {sizes[0]} B, us", lat, n,
                   lambda v: f"{v:.2f}")


def peer_read(doc):
    ms = [m for m in doc["measurements"] if m.get("status") == "POINT_STATUS_OK"]
    cells = {}
    n = 0
    for m in ms:
        p = params(m)
        src = p.get("src", p["dst"])
        cells[(src, p["dst"])] = float(m.get("gbps", 0))
        n = max(n, src + 1, p["dst"] + 1)
    matrix("peer_read: kernel on dst reading src's memory, GB/s (diagonal: local read)", cells, n,
           lambda v: f"{v:.1f}")


def nccl(doc):
    ms = [m for m in doc["measurements"] if m.get("status") == "POINT_STATUS_OK"]
    by = defaultdict(list)
    for m in ms:
        by[m["case"]["variant"]].append(m)
    for variant, rows in by.items():
        print(f"\nnccl/{variant} (out of place, float, NVLS off)")
        print(f"{'size B':>12} {'actual B':>12} {'time us':>10} {'algbw GB/s':>11} {'busbw GB/s':>11}")
        for m in sorted(rows, key=lambda m: params(m)["bytes"]):
            print(f"{params(m)['bytes']:>12} {float(m.get('bytes', 0)):>12.0f} "
                  f"{median(m) * 1e6:>10.2f} {float(m.get('gbps', 0)):>11.2f} "
                  f"{float(m.get('bus_gbps', 0)):>11.2f}")


def main(paths):
    shown_links = False
    for path in paths:
        doc = load(path)
        if doc is None:
            continue
        fams = {m["case"]["family"] for m in doc.get("measurements", [])}
        print(f"=== {path}: {doc.get('command', '')}")
        if not shown_links:
            links(doc)
            shown_links = True
        if "interconnect.peer_copy" in fams:
            peer_copy(doc)
        if "interconnect.peer_read" in fams:
            peer_read(doc)
        if "interconnect.nccl" in fams:
            nccl(doc)
        not_ok(doc)
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1:])
