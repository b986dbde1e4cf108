#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Model estimate (llvm-mca, not a measurement) of the VP9 inverse transforms' NEON code on a
Cortex-A76-class core: the project's kernels from an aarch64 build tree, and optionally a peer's
hand-written NEON (FFmpeg's libavcodec/aarch64/vp9itxfm_neon.S) from a source folder.

  tools/bench/itx_mca.py --build build-aarch64 [--peer /path/to/ffmpeg-source] [--mcpu cortex-a76]

Each row is one straight-line path through one function, from its entry to its return:
the project's kernel bodies (Add2D16 = the 16-bit path, Add2D = the int32 path, AddDc = DC
only; the table dispatch and the coefficient checks in ItxAdd are not included), and the peer's
exported functions with the eob == 1 branch taken or not (its other branches: none on these
rows). Branches and returns are dropped from the instruction stream; llvm-mca then reports the
cycles of 100 back-to-back iterations, printed per iteration. llvm-mca uses LLVM's scheduling
model for the CPU given (-mcpu); for cortex-a76 that is LLVM 16's Cortex-A76 model (inherited
from its Cortex-A57-derived tables where the A76 has no own entries): it models issue width,
latencies and ports, not caches, branch prediction or memory disambiguation.
Needs: aarch64-linux-gnu-objdump, aarch64-linux-gnu-gcc (for --peer), llvm-mca-16.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

OBJDUMP = "aarch64-linux-gnu-objdump"
MCA = "llvm-mca-16"

# (row, demangled-name substring) for the project's NEON target (namespace N_NEON).
PROJECT_ROWS = [
    ("4x4 DCT_DCT, 16-bit", "Add2D16<4ul, false, false>"),
    ("4x4 ADST_ADST, 16-bit", "Add2D16<4ul, true, true>"),
    ("8x8 DCT_DCT, 16-bit", "Add2D16<8ul, false, false>"),
    ("8x8 ADST_ADST, 16-bit", "Add2D16<8ul, true, true>"),
    ("4x4 DCT_DCT, int32", "Add2D<4ul, v3d::vp9::N_NEON::TxDct, v3d::vp9::N_NEON::TxDct, 4, 4>"),
    ("8x8 DCT_DCT, int32", "Add2D<8ul, v3d::vp9::N_NEON::TxDct, v3d::vp9::N_NEON::TxDct, 8, 8>"),
    ("8x8 ADST_ADST, int32",
     "Add2D<8ul, v3d::vp9::N_NEON::TxAdst, v3d::vp9::N_NEON::TxAdst, 8, 8>"),
    ("4x4 DC only", "AddDc<4ul>"),
    ("8x8 DC only", "AddDc<8ul>"),
    ("16x16 DC only", "AddDc<16ul>"),
]
# (row, symbol, take the first conditional branch) for the peer.
PEER_ROWS = [
    ("4x4 DCT_DCT", "ff_vp9_idct_idct_4x4_add_neon", True),
    ("4x4 ADST_ADST", "ff_vp9_iadst_iadst_4x4_add_neon", True),
    ("8x8 DCT_DCT", "ff_vp9_idct_idct_8x8_add_neon", True),
    ("8x8 ADST_ADST", "ff_vp9_iadst_iadst_8x8_add_neon", True),
    ("4x4 DC only", "ff_vp9_idct_idct_4x4_add_neon", False),
    ("8x8 DC only", "ff_vp9_idct_idct_8x8_add_neon", False),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S.*)$")
HEAD = re.compile(r"^([0-9a-f]+) <(.*)>:$")


def disassemble(path, demangle):
    """{symbol: [(address, instruction text)]} of every function in an object or library."""
    args = [OBJDUMP, "-d", "--no-show-raw-insn"] + (["-C"] if demangle else []) + [path]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = HEAD.match(line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = LINE.match(line)
        if m and cur is not None:
            text = m.group(2).split("//")[0].split("<")[0].strip()
            cur.append((int(m.group(1), 16), text))
    return funcs


def trace(insns, take_first_cond):
    """Straight-line path from the entry to the first return: unconditional branches followed,
    the first conditional branch taken or not as asked, later ones not taken. Returns the
    instructions without branches, or None if the path loops (no single straight line)."""
    by_addr = {a: i for i, (a, _) in enumerate(insns)}
    path, i, seen, first = [], 0, set(), True
    while i < len(insns):
        if i in seen:
            return None
        seen.add(i)
        text = insns[i][1]
        op = text.split()[0]
        if op == "ret":
            return path
        target = None
        m = re.search(r"\b([0-9a-f]+)\s*$", text)
        if m and (op in ("b",) or op.startswith("b.") or op in ("cbz", "cbnz", "tbz", "tbnz")):
            target = by_addr.get(int(m.group(1), 16))
        if op == "b":
            if target is None:  # tail call out of the function
                return path
            i = target
            continue
        if op.startswith("b.") or op in ("cbz", "cbnz", "tbz", "tbnz"):
            take = take_first_cond if first else False
            first = False
            i = target if take and target is not None else i + 1
            continue
        if op in ("bl", "blr", "br"):
            return None
        path.append(text)
        i += 1
    return path


def mca(lines, mcpu):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    try:
        out = subprocess.run([MCA, "-mtriple=aarch64", "-mcpu=" + mcpu, "-iterations=100", name],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(name)
    total = int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))
    rthr = float(re.search(r"Block RThroughput:\s+([\d.]+)", out).group(1))
    return total / 100.0, rthr


def peer_object(peer, tmp):
    """Assembles the peer's vp9itxfm_neon.S with a minimal config.h (ELF, PIC, plain .func)."""
    src = os.path.join(peer, "libavcodec", "aarch64", "vp9itxfm_neon.S")
    with open(os.path.join(tmp, "config.h"), "w") as f:
        f.write("#define HAVE_AS_FUNC 0\n#define CONFIG_PIC 1\n#define HAVE_SECTION_DATA_REL_RO 1\n"
                "#define HAVE_SME 0\n#define HAVE_AS_ARCH_DIRECTIVE 0\n#define EXTERN_ASM\n")
    with open(os.path.join(tmp, "config_components.h"), "w") as f:
        f.write("\n")
    obj = os.path.join(tmp, "peer.o")
    subprocess.run(["aarch64-linux-gnu-gcc", "-c", "-x", "assembler-with-cpp", "-I", tmp,
                    "-I", peer, "-I", os.path.join(peer, "libavcodec", "aarch64"), src, "-o", obj],
                   check=True)
    return obj


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="aarch64 build tree (meson, cross)")
    ap.add_argument("--peer", help="source folder holding libavcodec/aarch64/vp9itxfm_neon.S")
    ap.add_argument("--mcpu", default="cortex-a76")
    a = ap.parse_args()
    objs = glob.glob(os.path.join(a.build, "kernels", "*.p", "vp9_itx_itx_hwy.cpp.o"))
    if not objs:
        sys.exit("no vp9_itx_itx_hwy.cpp.o under %s/kernels" % a.build)
    funcs = disassemble(objs[0], True)
    print("llvm-mca model estimate (%s, %s), cycles per call, 100 iterations; not a measurement"
          % (MCA, a.mcpu))
    print("%-24s %-8s %9s %11s %7s" % ("row", "side", "cycles", "RThroughput", "insns"))
    for row, pat in PROJECT_ROWS:
        names = [n for n in funcs if "N_NEON" in n and pat in n]
        if not names:
            print("%-24s %-8s %9s" % (row, "project", "absent"))
            continue
        path = trace(funcs[min(names, key=len)], False)
        if path is None:
            print("%-24s %-8s %9s" % (row, "project", "loops"))
            continue
        cyc, rthr = mca(path, a.mcpu)
        print("%-24s %-8s %9.1f %11.1f %7d" % (row, "project", cyc, rthr, len(path)))
    if a.peer:
        with tempfile.TemporaryDirectory() as tmp:
            pf = disassemble(peer_object(a.peer, tmp), False)
            for row, sym, take in PEER_ROWS:
                path = trace(pf[sym], take) if sym in pf else None
                if path is None:
                    print("%-24s %-8s %9s" % (row, "peer", "n/a"))
                    continue
                cyc, rthr = mca(path, a.mcpu)
                print("%-24s %-8s %9.1f %11.1f %7d" % (row, "peer", cyc, rthr, len(path)))


if __name__ == "__main__":
    main()
