#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Model estimate (llvm-mca, not a measurement) of the project's aarch64 NEON kernels beside a
peer's (FFmpeg's hand-written libavcodec/aarch64 NEON), cycles per call, one row per case of
v3d-bench's peers section: VP9 inverse transforms (every size/type, WHT, DCT_DCT subN rows),
VP9 loop-filter edges, H.264 edges.

  tools/bench/neon_mca.py --build build-aarch64 [--peer /path/to/ffmpeg-source]
                          [--before OTHER-BUILD] [--rows REGEX] [--dump DIR]
                          [--mcpu cortex-a76] [--iterations 10] [--keep DIR]

--before adds a column for a second aarch64 build tree (e.g. the parent commit's), traced the
same way; --rows keeps the rows whose name matches a regular expression (e.g. 'loop_filter');
--dump writes each stream studied, as assembly text, to DIR/<row>.<side>.s.

How: tools/bench/neon_trace_harness.cpp is compiled for aarch64 against the build tree's
libv3dkernels.so (and, with --peer, against FFmpeg's vp9itxfm_neon.S, vp9lpf_neon.S and
h264dsp_neon.S, assembled here with aarch64-linux-gnu-gcc in a scratch folder) and run under
qemu-aarch64 with one instruction per translation block and execution logging, which gives the
exact dynamic instruction stream of one call on the case's data: every branch as taken, loops
unrolled as run, called helpers included. The project's stream starts at the kernel its public
function dispatches to (its first indirect call; the dispatch itself is counted apart, in the
"disp" column); the peer's at its exported function. The streams' instruction words are
disassembled with llvm-mc and given to llvm-mca, which reports the cycles of N back-to-back
copies (--iterations); cycles per call = total / N.

The model: llvm-mca schedules for the CPU given. In LLVM 16, -mcpu=cortex-a76 (and neoverse-n1)
use LLVM's Cortex-A57 scheduling model (its resources are A57UnitB/I/L/M/S/W/X, and its figures
are identical to -mcpu=cortex-a57): 3-wide, two FP/ASIMD pipes on which most 128-bit (Q) forms
cost twice their 64-bit (D) forms. A real Cortex-A76 is 4-wide with two 128-bit ASIMD pipes, so
the figures are pessimistic for it, most for Q-register code. Caches, branch prediction and
memory disambiguation are not modelled (loads are assumed not to depend on earlier stores).
These are model estimates for comparing two instruction streams, not timings.
Needs: aarch64-linux-gnu-g++/-gcc, qemu-aarch64 (with -singlestep), llvm-mc-16, llvm-mca-16.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MC, MCA = "llvm-mc-16", "llvm-mca-16"
CXX, CC = "aarch64-linux-gnu-g++", "aarch64-linux-gnu-gcc"
# The multiarch arm64 runtime (libhwy-dev:arm64 brings it), as in .ci/aarch64-linux-gnu.ini: no
# "-L /usr/aarch64-linux-gnu" for qemu, whose old ld.so does not pair with the newer libc.
MULTIARCH_LIB = "/usr/lib/aarch64-linux-gnu"
PEER_SOURCES = ["vp9itxfm_neon.S", "vp9lpf_neon.S", "h264dsp_neon.S"]
# Feature set for decoding: the baseline the harness and both sides are built for, and more.
MATTR = "+v8.2a,+neon,+fullfp16,+dotprod,+rcpc,+crc,+aes,+sha2"


def is_bl(w):
    return (w & 0xFC000000) == 0x94000000


def is_blr(w):
    return (w & 0xFFFFFC1F) == 0xD63F0000


def is_br(w):
    return (w & 0xFFFFFC1F) == 0xD61F0000


def is_ret(w):
    return (w & 0xFFFFFC1F) == 0xD65F0000


def assemble_peer(peer, tmp):
    """Assembles the peer's NEON sources with a minimal config.h (ELF, PIC, no SVE/SME)."""
    with open(os.path.join(tmp, "config.h"), "w") as f:
        f.write("#define HAVE_AS_FUNC 0\n#define CONFIG_PIC 1\n#define HAVE_SECTION_DATA_REL_RO 1\n"
                "#define HAVE_SME 0\n#define HAVE_SVE 0\n#define HAVE_SVE2 0\n#define HAVE_DOTPROD 0\n"
                "#define HAVE_I8MM 0\n#define HAVE_AS_ARCH_DIRECTIVE 0\n#define HAVE_AS_ARCHEXT_DOTPROD_DIRECTIVE 0\n"
                "#define HAVE_AS_ARCHEXT_I8MM_DIRECTIVE 0\n#define HAVE_AS_ARCHEXT_SVE_DIRECTIVE 0\n"
                "#define HAVE_AS_ARCHEXT_SVE2_DIRECTIVE 0\n#define HAVE_AS_ARCHEXT_SME_DIRECTIVE 0\n"
                "#define EXTERN_ASM\n")
    with open(os.path.join(tmp, "config_components.h"), "w") as f:
        f.write("\n")
    objs = []
    for name in PEER_SOURCES:
        src = os.path.join(peer, "libavcodec", "aarch64", name)
        obj = os.path.join(tmp, name + ".o")
        subprocess.run([CC, "-c", "-x", "assembler-with-cpp", "-I", tmp, "-I", peer,
                        "-I", os.path.dirname(src), src, "-o", obj], check=True)
        objs.append(obj)
    return objs


def build_harness(build, peer_objs, tmp):
    lib_dir = os.path.abspath(os.path.join(build, "kernels"))
    if not os.path.exists(os.path.join(lib_dir, "libv3dkernels.so")):
        sys.exit("no libv3dkernels.so in %s (build the aarch64 tree first)" % lib_dir)
    exe = os.path.join(tmp, "harness")
    subprocess.run([CXX, "-O2", "-std=c++17", "-rdynamic",
                    "-I", os.path.join(ROOT, "kernels"), "-I", os.path.join(ROOT, "kernels", "include"),
                    os.path.join(HERE, "neon_trace_harness.cpp"),
                    os.path.join(ROOT, "kernels", "vp9", "dec", "tile_scan_tables.cpp")] + peer_objs +
                   ["-L", lib_dir, "-Wl,--no-as-needed", "-lv3dkernels", "-Wl,--as-needed", "-ldl", "-Wl,-rpath," + lib_dir,
                    "-Wl,-rpath-link," + MULTIARCH_LIB, "-o", exe], check=True)
    return exe


def run_traced(exe, tmp):
    """Runs the harness under qemu; returns (cases, mark address, log path)."""
    log = os.path.join(tmp, "trace.log")
    out = subprocess.run(["qemu-aarch64", "-singlestep", "-d", "in_asm,exec,nochain",
                          "-D", log, exe], check=True, capture_output=True, text=True).stdout
    cases, mark = [], None
    for line in out.splitlines():
        f = line.split()
        if f[0] == "MARK":
            mark = int(f[1], 16)
        elif f[0] == "CASE":
            cases.append({"id": int(f[1]), "side": f[2], "row": f[3], "sym": f[4],
                          "entry": int(f[5], 16)})
    return cases, mark, log


INSN = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8})\s")
TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def windows(log, cases, mark):
    """One pass over the trace: for the case after each mark, the words of one whole call to its
    entry (depth-tracked through bl/blr and ret), and for the project's cases the index where the
    kernel (the first indirect call or jump at depth 0) starts and ends."""
    words, k, cur, out = {}, -1, None, {}
    with open(log, errors="replace") as f:
        for line in f:
            m = INSN.match(line)
            if m:
                words[int(m.group(1), 16)] = int(m.group(2), 16)
                continue
            m = TRACE.match(line)
            if not m:
                continue
            pc = int(m.group(1), 16)
            if cur is None:
                if pc == mark:
                    k += 1
                    continue
                if 0 <= k < len(cases) and k not in out and pc == cases[k]["entry"]:
                    cur = {"seq": [], "depth": 0, "kstart": None, "kend": None, "kdepth": None}
                else:
                    continue
            w = words.get(pc)
            if w is None:
                sys.exit("trace: no instruction word for pc %x" % pc)
            seq = cur["seq"]
            seq.append(w)
            if is_bl(w) or is_blr(w):
                if is_blr(w) and cur["depth"] == 0 and cur["kstart"] is None:
                    cur["kstart"], cur["kdepth"] = len(seq), 1
                cur["depth"] += 1
            elif is_br(w) and cur["depth"] == 0 and cur["kstart"] is None:
                cur["kstart"], cur["kdepth"] = len(seq), 0  # a tail call: the kernel returns for both
            elif is_ret(w):
                cur["depth"] -= 1
                if cur["kstart"] is not None and cur["kend"] is None and cur["depth"] == cur["kdepth"] - 1:
                    cur["kend"] = len(seq)
                if cur["depth"] < 0:
                    out[k] = cur
                    cur = None
    return out


def disassemble(unique_words, tmp):
    src = os.path.join(tmp, "words.txt")
    order = sorted(unique_words)
    with open(src, "w") as f:
        for w in order:
            f.write(" ".join("0x%02x" % ((w >> (8 * i)) & 0xFF) for i in range(4)) + "\n")
    res = subprocess.run([MC, "--disassemble", "-triple=aarch64", "-mattr=" + MATTR, src],
                         capture_output=True, text=True)
    lines = [l.strip() for l in res.stdout.splitlines()
             if l.strip() and not l.strip().startswith(".")]
    if len(lines) != len(order):
        sys.exit("llvm-mc decoded %d of %d words:\n%s" % (len(lines), len(order), res.stderr[-2000:]))
    return dict(zip(order, [l.split("//")[0].strip() for l in lines]))


def mca_cycles(text_lines, mcpu, iterations, tmp):
    src = os.path.join(tmp, "stream.s")
    with open(src, "w") as f:
        f.write("\n".join(text_lines) + "\n")
    out = subprocess.run([MCA, "-mtriple=aarch64", "-mcpu=" + mcpu, "-mattr=" + MATTR,
                          "-iterations=%d" % iterations, "-noalias", src],
                         check=True, capture_output=True, text=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1)) / iterations


def trace_build(build, peer_objs, tmp):
    """Builds and traces the harness against one build tree (and the peer's objects); returns
    {case id: (case, instruction words of the studied stream, dispatch instructions)}."""
    os.makedirs(tmp, exist_ok=True)
    exe = build_harness(build, peer_objs, tmp)
    cases, mark, log = run_traced(exe, tmp)
    wins = windows(log, cases, mark)
    out = {}
    for c in cases:
        w = wins.get(c["id"])
        if w is None:
            continue
        seq, disp = w["seq"], 0
        if c["side"].startswith("project") and w["kstart"] is not None:
            end = w["kend"] if w["kend"] is not None else len(seq)
            disp = len(seq) - (end - w["kstart"])
            seq = seq[w["kstart"]:end]
        out[c["id"]] = (c, seq, disp)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="aarch64 build tree (meson, cross)")
    ap.add_argument("--peer", help="FFmpeg source folder (libavcodec/aarch64/*.S)")
    ap.add_argument("--before", help="a second aarch64 build tree, shown as the 'before' column")
    ap.add_argument("--rows", help="only rows whose name matches this regular expression")
    ap.add_argument("--dump", help="folder for each studied stream as assembly text")
    ap.add_argument("--mcpu", default="cortex-a76")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--keep", help="scratch folder to keep (harness, trace, streams)")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="v3d-neon-mca-")
    os.makedirs(tmp, exist_ok=True)
    if a.dump:
        os.makedirs(a.dump, exist_ok=True)
    keep = re.compile(a.rows) if a.rows else None
    try:
        peer_objs = assemble_peer(a.peer, tmp) if a.peer else []
        runs = [("", trace_build(a.build, peer_objs, os.path.join(tmp, "build")))]
        if a.before:
            runs.append(("before", trace_build(a.before, [], os.path.join(tmp, "before"))))
        uniq = set()
        for _, res in runs:
            for c, seq, _ in res.values():
                if keep is None or keep.search(c["row"]):
                    uniq.update(seq)
        text = disassemble(uniq, tmp)
        rows, order = {}, []
        for tag, res in runs:
            for c, seq, disp in res.values():
                if keep is not None and not keep.search(c["row"]):
                    continue
                side = c["side"] if not tag else tag + c["side"][len("project"):]
                lines = [text[x] for x in seq]
                if a.dump:
                    with open(os.path.join(a.dump, "%s.%s.s" % (c["row"], side)), "w") as f:
                        f.write("\n".join(lines) + "\n")
                cyc = mca_cycles(lines, a.mcpu, a.iterations, tmp)
                if c["row"] not in rows:
                    order.append(c["row"])
                rows.setdefault(c["row"], {})[side] = (cyc, len(seq), disp)
        print("llvm-mca model estimate (%s -mcpu=%s, which is LLVM 16's Cortex-A57 scheduling model), "
              "cycles per call, %d back-to-back calls; not a measurement" % (MCA, a.mcpu, a.iterations))
        print("project: kernel only (small: |c| <= 48, large: |c| <= 2047; one column where the "
              "data class does not apply); disp: instructions of the public function around it; "
              "exact: v3d_vp9_itxfm_add_exact_eob, small")
        before = " %8s" % "before" if a.before else ""
        print("%-30s %8s %8s%s %8s %6s %6s %6s %6s %5s %8s %6s" % (
            "row", "project", "large", before, "peer", "ratio", "lratio", "insns", "peer", "disp",
            "exact", "eratio"))
        for r in order:
            d = rows[r]
            p = d.get("project-small") or d.get("project")
            l, q, e = d.get("project-large"), d.get("peer"), d.get("project-exact")
            b = d.get("before-small") or d.get("before")
            cyc = lambda v: "%8.1f" % v[0] if v else "%8s" % "-"
            ratio = lambda v: "%6.2f" % (v[0] / q[0]) if v and q else "%6s" % "-"
            print("%-30s %s %s%s %s %s %s %6s %6s %5s %s %s" % (
                r, cyc(p), cyc(l), " " + cyc(b) if a.before else "", cyc(q), ratio(p), ratio(l),
                p[1] if p else "-", q[1] if q else "-", p[2] if p else "-", cyc(e), ratio(e)))
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
