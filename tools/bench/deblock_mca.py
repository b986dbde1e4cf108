#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Model estimate (llvm-mca, not a measurement) of the H.264 deblocking edge kernels' NEON code
on a Cortex-A76-class core: the project's kernels from an aarch64 build tree, optionally those of
a second build tree (--before, e.g. the previous commit), and optionally a peer's hand-written
NEON (FFmpeg's libavcodec/aarch64/h264dsp_neon.S) from a source folder.

  tools/bench/deblock_mca.py --build build-aarch64 [--before OTHER-BUILD] [--peer FFMPEG-SRC]

Each row is the longest straight-line path through one kernel (every edge line filtered: the
early returns for "nothing to filter" not taken), from its entry to its return; the public
entry points' argument checks and table dispatch are not included. Method, model and caveats
as in itx_mca.py (same llvm-mca call: 100 back-to-back iterations, printed per iteration).
FFmpeg's chroma kernels take tC0 + 1 from their caller; the work per edge is the same.
Needs: aarch64-linux-gnu-objdump, aarch64-linux-gnu-gcc (for --peer), llvm-mca-16.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from itx_mca import MCA, disassemble, mca  # noqa: E402

# (row, the project's function in namespace N_NEON, the peer's function)
ROWS = [
    ("luma, horizontal edge", "LumaH(", "ff_h264_v_loop_filter_luma_neon"),
    ("luma, vertical edge", "LumaV(", "ff_h264_h_loop_filter_luma_neon"),
    ("luma intra, horizontal", "LumaIntraH(", "ff_h264_v_loop_filter_luma_intra_neon"),
    ("luma intra, vertical", "LumaIntraV(", "ff_h264_h_loop_filter_luma_intra_neon"),
    ("chroma, horizontal", "ChromaH(", "ff_h264_v_loop_filter_chroma_neon"),
    ("chroma, vertical", "ChromaV(", "ff_h264_h_loop_filter_chroma_neon"),
    ("chroma intra, horizontal", "ChromaIntraH(", "ff_h264_v_loop_filter_chroma_intra_neon"),
    ("chroma intra, vertical", "ChromaIntraV(", "ff_h264_h_loop_filter_chroma_intra_neon"),
]

COND = ("cbz", "cbnz", "tbz", "tbnz")


def longest_path(insns, start=0):
    """The longest branch-free instruction list from insns[start] to a return, over both
    directions of every conditional branch; None if a path calls out or loops."""
    by_addr = {a: i for i, (a, _) in enumerate(insns)}
    memo = {}

    def walk(i, stack):
        if i in memo:
            return memo[i]
        if i in stack:
            return None
        stack.add(i)
        path, res = [], None
        while i < len(insns):
            text = insns[i][1]
            op = text.split()[0]
            if op == "ret":
                res = path
                break
            if op in ("bl", "blr", "br"):
                break
            m = re.search(r"\b([0-9a-f]+)\s*$", text)
            target = by_addr.get(int(m.group(1), 16)) if m else None
            if op == "b":
                if target is None:
                    res = path  # tail call out of the function
                    break
                tail = walk(target, stack)
                res = None if tail is None else path + tail
                break
            if op.startswith("b.") or op in COND:
                options = [walk(i + 1, stack)] + ([walk(target, stack)] if target is not None else [])
                options = [o for o in options if o is not None]
                res = path + max(options, key=len) if options else None
                break
            path.append(text)
            i += 1
        stack.discard(i)
        return res

    return walk(start, set())


def project_funcs(build):
    objs = glob.glob(os.path.join(build, "kernels", "*.p", "h264_deblock_deblock_hwy.cpp.o"))
    if not objs:
        sys.exit("no h264_deblock_deblock_hwy.cpp.o under %s/kernels" % build)
    return disassemble(objs[0], True)


def find(funcs, pat):
    names = [n for n in funcs if "N_NEON::" + pat in n]
    return funcs[min(names, key=len)] if names else None


def peer_funcs(peer, tmp):
    """Assembles the peer's h264dsp_neon.S with a minimal config.h (ELF, PIC, plain .func)."""
    src = os.path.join(peer, "libavcodec", "aarch64", "h264dsp_neon.S")
    with open(os.path.join(tmp, "config.h"), "w") as f:
        f.write("#define HAVE_AS_FUNC 0\n#define CONFIG_PIC 1\n#define HAVE_SECTION_DATA_REL_RO 1\n"
                "#define HAVE_SME 0\n#define HAVE_AS_ARCH_DIRECTIVE 0\n#define EXTERN_ASM\n")
    with open(os.path.join(tmp, "config_components.h"), "w") as f:
        f.write("\n")
    obj = os.path.join(tmp, "peer.o")
    subprocess.run(["aarch64-linux-gnu-gcc", "-c", "-x", "assembler-with-cpp", "-I", tmp,
                    "-I", peer, "-I", os.path.join(peer, "libavcodec", "aarch64"), src, "-o", obj],
                   check=True)
    # One instruction list for the whole object: a function may run on into a local label that
    # objdump prints as a symbol of its own (the vertical chroma edges do).
    funcs = disassemble(obj, False)
    flat = sorted(i for body in funcs.values() for i in body)
    index = {a: k for k, (a, _) in enumerate(flat)}
    return {name: (flat, index[body[0][0]]) for name, body in funcs.items() if body}


def cell(insns, mcpu, start=0):
    path = longest_path(insns, start) if insns else None
    if path is None:
        return "n/a"
    cyc, _ = mca(path, mcpu)
    return "%.1f (%d)" % (cyc, len(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="aarch64 build tree (meson, cross)")
    ap.add_argument("--before", help="a second aarch64 build tree to compare with")
    ap.add_argument("--peer", help="source folder holding libavcodec/aarch64/h264dsp_neon.S")
    ap.add_argument("--mcpu", default="cortex-a76")
    a = ap.parse_args()
    cols = [("project", project_funcs(a.build), 1)]
    if a.before:
        cols.append(("before", project_funcs(a.before), 1))
    tmp = tempfile.TemporaryDirectory() if a.peer else None
    if a.peer:
        cols.append(("peer", peer_funcs(a.peer, tmp.name), 2))
    print("llvm-mca model estimate (%s, %s), cycles per edge (instructions on the path), "
          "100 iterations; not a measurement" % (MCA, a.mcpu))
    print("%-26s" % "row" + "".join(" %14s" % c[0] for c in cols))
    for row in ROWS:
        cells = []
        for _, funcs, k in cols:
            if k == 1:
                cells.append(cell(find(funcs, row[k]), a.mcpu))
            else:
                insns, start = funcs.get(row[k], (None, 0))
                cells.append(cell(insns, a.mcpu, start))
        print("%-26s" % row[0] + "".join(" %14s" % c for c in cells))
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    main()
