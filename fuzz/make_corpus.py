#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seed corpus of the libFuzzer targets (fuzz/corpus/<target>/seed-NN).

The seeds are pseudo-random bytes from a fixed seed, with the leading bytes the targets read
first (frame size, mode, kernel choice) set so that every branch of each target's input parser
is reached from the start: each mode, each kernel, small and large frames. Deterministic:
running it again rewrites the same files.
    fuzz/make_corpus.py [OUTPUT_DIR (fuzz/corpus)]
"""
import os
import random
import struct
import sys


def u16(v):
    return struct.pack('<H', v & 0xFFFF)


def write(out, target, seeds):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):  # regress-* files (inputs that once failed) stay
        if name.startswith('seed-'):
            os.remove(os.path.join(d, name))
    for i, data in enumerate(seeds):
        with open(os.path.join(d, 'seed-%02d' % i), 'wb') as f:
            f.write(data)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), 'corpus')
    rng = random.Random(0x5EED2026)
    noise = lambda n: bytes(rng.getrandbits(8) for _ in range(n))

    # fuzz_vp9_itx_frame: width, height (u16, mod 256 + 1), mode byte (mode & 7: 0..5
    # structured, 6 structured with bad fields, 7 raw), block count, then per-block fields.
    itx = []
    for mode in range(8):
        for w, h in ((64, 64), (199, 37), (256, 256)):
            itx.append(u16(w - 1) + u16(h - 1) + bytes([mode]) + u16(rng.randrange(8, 96)) +
                       noise(rng.choice((256, 1024, 3000))))
    write(out, 'fuzz_vp9_itx_frame', itx)

    # fuzz_vp9_lpf_frame: width, height (u16, mod 320 + 1), sharpness byte, stride byte, grid
    # parameters, seeds, corruptions.
    lpf = []
    for w, h in ((64, 64), (130, 70), (320, 320), (8, 8), (1, 300)):
        for sharp in (0, 3, 7, 250):
            lpf.append(u16(w - 1) + u16(h - 1) + bytes([sharp]) + noise(60))
    write(out, 'fuzz_vp9_lpf_frame', lpf)

    # fuzz_edges: kernel byte (0 VP9 lpf, 1..4 H.264, 5 VP9 itx), target byte, pixel style and
    # base, pixels, then parameters.
    edges = []
    for kernel in range(6):
        for style in (0, 1):
            edges.append(bytes([kernel, rng.getrandbits(8), style, rng.randrange(20, 235)]) +
                         noise(rng.choice((64, 2000, 7000))))
    write(out, 'fuzz_edges', edges)

    # fuzz_h264_deblock_frame: width, height (u16, mod 200 + 1), "bad field" byte (>= 10: all
    # valid), then slices and macroblocks.
    h264 = []
    for w, h in ((16, 16), (48, 32), (200, 120), (17, 9)):
        for bad in (200, 0, 3, 7):
            h264.append(u16(w - 1) + u16(h - 1) + bytes([bad]) + noise(rng.choice((200, 2000))))
    write(out, 'fuzz_h264_deblock_frame', h264)


if __name__ == '__main__':
    main()
