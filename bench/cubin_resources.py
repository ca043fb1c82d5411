#!/usr/bin/env python3
"""Registers and stack frame per kernel, read from the cubins inside objects or binaries.

For machines without cuobjdump (the build host has nvcc but not the toolkit's binary utilities):
every CUDA ELF image (EM_CUDA) found in a file (a .cubin, or an object or executable whose fatbin
holds its cubins uncompressed, as nvcc's default sm_XX objects do) is parsed, and the global
.nv.info section's EIATTR_REGCOUNT (0x2f) and EIATTR_FRAME_SIZE (0x11) records give each kernel's
registers per thread and stack frame bytes (what `cuobjdump -res-usage` prints as REG and STACK).
Checked against ptxas's own `--resource-usage` lines for registers_kernels.cu (CUDA 13.0, sm_90).

Usage:
  bench/cubin_resources.py FILE [--kernel REGEX]
  bench/cubin_resources.py --compare DIR_A DIR_B
The second form compares every *.cu.o under two build trees' kernels/ folders (same relative
paths): per object, whether every kernel's machine code (its .text section), registers and frame
are the same (whole images differ between any two compilations: they embed per-compilation ids),
and for an object that differs, the kernels that do. Exit status 1 when nothing could be read.
"""
import argparse
import hashlib
import os
import re
import struct
import sys

EM_CUDA = 190
EIFMT_SVAL = 4
EIATTR = {0x2F: "regs", 0x11: "frame_bytes"}


def cuda_images(data):
    """(offset, bytes) of each CUDA ELF image in data."""
    for m in re.finditer(b"\x7fELF\x02\x01\x01", data):
        base = m.start()
        if struct.unpack_from("<H", data, base + 18)[0] != EM_CUDA:
            continue
        shoff = struct.unpack_from("<Q", data, base + 40)[0]
        shentsize, shnum = struct.unpack_from("<HH", data, base + 58)
        yield base, data[base : base + shoff + shentsize * shnum]


def kernel_resources(image):
    """{kernel symbol: {"regs": n, "frame_bytes": n, "code": sha256 of its .text section}} from
    one CUDA ELF image."""
    shoff = struct.unpack_from("<Q", image, 40)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", image, 58)
    sections = [struct.unpack_from("<IIQQQQIIQQ", image, shoff + i * shentsize) for i in range(shnum)]

    def cstr(table, off):
        start = table[4] + off
        return image[start : image.index(b"\0", start)].decode()

    names = sections[shstrndx]
    symtab = next(s for s in sections if s[1] == 2)  # SHT_SYMTAB
    symstr = sections[symtab[6]]

    def symbol(index):
        return cstr(symstr, struct.unpack_from("<I", image, symtab[4] + index * 24)[0])

    out = {}
    for s in sections:
        name = cstr(names, s[0])
        if name.startswith(".text."):
            code = hashlib.sha256(image[s[4] : s[4] + s[5]]).hexdigest()[:16]
            out.setdefault(name[len(".text.") :], {})["code"] = code
        if name != ".nv.info":
            continue
        p, end = s[4], s[4] + s[5]
        while p + 4 <= end:
            fmt, attr = image[p], image[p + 1]
            if fmt != EIFMT_SVAL:  # NVAL 2 bytes, BVAL and HVAL 4
                p += 2 if fmt == 1 else 4
                continue
            size = struct.unpack_from("<H", image, p + 2)[0]
            if attr in EIATTR and size == 8:
                index, value = struct.unpack_from("<II", image, p + 4)
                out.setdefault(symbol(index), {})[EIATTR[attr]] = value
            p += 4 + size
    return out


def resources(path):
    merged = {}
    for _, image in cuda_images(open(path, "rb").read()):
        merged.update(kernel_resources(image))
    return merged


def show(path, pattern):
    found = resources(path)
    for name, r in sorted(found.items()):
        if pattern and not re.search(pattern, name):
            continue
        print("regs %4s  frame %5s B  %s" % (r.get("regs", "?"), r.get("frame_bytes", "?"), name))
    return bool(found)


def compare(dir_a, dir_b):
    root_a, root_b = os.path.join(dir_a, "kernels"), os.path.join(dir_b, "kernels")
    objects = sorted(
        os.path.relpath(os.path.join(d, f), root_a)
        for d, _, files in os.walk(root_a)
        for f in files
        if f.endswith(".cu.o")
    )
    read = False
    for rel in objects:
        other = os.path.join(root_b, rel)
        if not os.path.exists(other):
            print("only in %s: %s" % (dir_a, rel))
            continue
        ra, rb = resources(os.path.join(root_a, rel)), resources(other)
        read = read or bool(ra)
        if ra == rb:
            print("same code  %3d kernels  %s" % (len(ra), rel))
            continue
        print("DIFFERENT            %s" % rel)
        for name in sorted(set(ra) | set(rb)):
            a, b = ra.get(name, {}), rb.get(name, {})
            if a != b:
                print("    regs %s -> %s, frame %s -> %s B, code %s  %s" % (
                    a.get("regs"), b.get("regs"), a.get("frame_bytes"), b.get("frame_bytes"),
                    "same" if a.get("code") == b.get("code") else "differs", name))
    return read


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--kernel", help="only kernels whose symbol matches this regex")
    ap.add_argument("--compare", nargs=2, metavar=("DIR_A", "DIR_B"))
    a = ap.parse_args()
    if a.compare:
        ok = compare(*a.compare)
    elif a.file:
        ok = show(a.file, a.kernel)
    else:
        ap.error("give FILE or --compare DIR_A DIR_B")
    if not ok:
        print("no CUDA ELF images read (a compressed fatbin?)", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
