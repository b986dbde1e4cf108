// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter of a list of 64x64 superblocks (one workgroup each), all three planes: first
// every vertical edge of the superblock (invocation = one pixel row, edges left to right), then,
// after a barrier, every horizontal edge (invocation = one pixel column, edges top to bottom).
// That is libvpx's order for every pixel: a vertical edge mixes pixels of one row only, a
// horizontal edge pixels of one column only. The host dispatches the superblocks of one wavefront
// step (c + 2r, docs/architecture.md) at a time, with a barrier between steps, so superblocks
// that share pixels run in their sequential order. Each invocation loads its line's 72 (chroma
// 40) pixels across the superblock and its 8-pixel halo into registers with independent byte
// loads (one memory round trip instead of one per edge), filters every edge there, and stores
// back the bytes it changed (8-bit storage, one invocation per line: no two invocations write
// one word). Which edges, with which width and level, comes decided from the CPU
// (vp9_lpf_layout.h). The per-line filter is the VP9 specification's (section 8.8.2;
// kernels/vp9/lpf_ref.cpp is the C++ reference).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_control_flow_attributes : require

#include "vp9_lpf_layout.h"

layout(local_size_x = V3D_LPF_INVOCATIONS) in;

// `coherent`: the horizontal pass reads what other invocations of the workgroup wrote in the
// vertical pass (memoryBarrierBuffer + barrier between them).
#if V3D_LPF_ARRAY
// The windows as one descriptor array (binding 0, 6 elements), indexed by a value uniform in
// the workgroup (needs shaderStorageBufferArrayDynamicIndexing).
layout(std430, set = 0, binding = 0) coherent buffer W { uint8_t px[]; } w[V3D_LPF_NUM_WINDOWS];
#else
layout(std430, set = 0, binding = 0) coherent buffer W0 { uint8_t px[]; } w0;
layout(std430, set = 0, binding = 1) coherent buffer W1 { uint8_t px[]; } w1;
layout(std430, set = 0, binding = 2) coherent buffer W2 { uint8_t px[]; } w2;
layout(std430, set = 0, binding = 3) coherent buffer W3 { uint8_t px[]; } w3;
layout(std430, set = 0, binding = 4) coherent buffer W4 { uint8_t px[]; } w4;
layout(std430, set = 0, binding = 5) coherent buffer W5 { uint8_t px[]; } w5;
#endif
layout(std430, set = 0, binding = V3D_LPF_BINDING_RECORDS) readonly buffer Rec { uint r[]; } rec;

// The window is the same for every invocation of a workgroup (one frame): no divergence here.
// Built three times: V3D_LPF_ARRAY 1 (the windows as a descriptor array, where the device can
// index one); else V3D_LPF_ONE_WINDOW 1 for dispatches whose frames all lie in one buffer (a frame in
// one shared allocation, or staged), where every access goes to window 0 directly (lavapipe pays
// for each branch of the chain below on every access, ~6x); 0 for the general case.
#if V3D_LPF_ARRAY
int ld(uint win, uint i) { return int(w[win].px[i]); }
void st(uint win, uint i, int v) { w[win].px[i] = uint8_t(v); }
#elif V3D_LPF_ONE_WINDOW
int ld(uint win, uint i) { return int(w0.px[i]); }
void st(uint win, uint i, int v) { w0.px[i] = uint8_t(v); }
#else
int ld(uint win, uint i) {
  if (win == 0u) return int(w0.px[i]);
  if (win == 1u) return int(w1.px[i]);
  if (win == 2u) return int(w2.px[i]);
  if (win == 3u) return int(w3.px[i]);
  if (win == 4u) return int(w4.px[i]);
  return int(w5.px[i]);
}
void st(uint win, uint i, int v) {
  if (win == 0u) w0.px[i] = uint8_t(v);
  else if (win == 1u) w1.px[i] = uint8_t(v);
  else if (win == 2u) w2.px[i] = uint8_t(v);
  else if (win == 3u) w3.px[i] = uint8_t(v);
  else if (win == 4u) w4.px[i] = uint8_t(v);
  else w5.px[i] = uint8_t(v);
}
#endif

int c8(int v) { return clamp(v, -128, 127); }

// A line segment across the edges of one superblock line, in registers: pixel k (0..71; 0 =
// 8 pixels before the superblock, the filters' reach) in byte k & 3 of word k >> 2. Every index
// below is a constant once the cell loops are unrolled and filt() inlined, so seg[], x[] and
// dirty[] live in registers. dirty: pixels written (stored back at the end).
#define SEG_WORDS 18
#define GET(k) int((seg[(k) >> 2] >> uint(((k) & 3) * 8)) & 255u)
#define PUT(k, v)                                                                    \
  {                                                                                  \
    seg[(k) >> 2] = bitfieldInsert(seg[(k) >> 2], uint(v), ((k) & 3) * 8, 8);        \
    dirty[(k) >> 5] |= 1u << uint((k) & 31);                                         \
  }

// Filters one line across an edge whose q0 is segment pixel q0; code 1, 2, 3 = filter width 4,
// 8, 16. Reads p3..q3 (p7..q7 for 16); writes only when the filter mask passes, at most p2..q2
// (p6..q6).
void filt(inout uint seg[SEG_WORDS], inout uint dirty[3], int q0, uint code, int level, int sharp) {
  int I = level >> ((sharp > 0 ? 1 : 0) + (sharp > 4 ? 1 : 0));
  if (sharp > 0) I = min(I, 9 - sharp);
  I = max(I, 1);
  const int E = 2 * (level + 2) + I, H = level >> 4;
  int x[16];  // p7..p0 = x[0..7], q0..q7 = x[8..15]
  [[unroll]] for (int k = 4; k < 12; k++) x[k] = GET(q0 + k - 8);
  if (abs(x[4] - x[5]) > I || abs(x[5] - x[6]) > I || abs(x[6] - x[7]) > I ||
      abs(x[9] - x[8]) > I || abs(x[10] - x[9]) > I || abs(x[11] - x[10]) > I ||
      abs(x[7] - x[8]) * 2 + abs(x[6] - x[9]) / 2 > E)
    return;
  bool is_flat = code >= 2u;
  [[unroll]] for (int k = 4; k < 7; k++)
    is_flat = is_flat && abs(x[k] - x[7]) <= 1 && abs(x[15 - k] - x[8]) <= 1;
  bool is_flat2 = false;
  if (is_flat && code == 3u) {
    [[unroll]] for (int k = 0; k < 4; k++) {
      x[k] = GET(q0 + k - 8);
      x[15 - k] = GET(q0 + 7 - k);
    }
    is_flat2 = true;
    [[unroll]] for (int k = 0; k < 4; k++)
      is_flat2 = is_flat2 && abs(x[k] - x[7]) <= 1 && abs(x[15 - k] - x[8]) <= 1;
  }
  if (is_flat2) {
    // 15 taps: out[j] = Round2(x[j] + sum of x[clamp(t, 0, 15)] for |t - j| <= 7, 4),
    // j = 1..14, as a running sum of the window (x[] keeps the inputs).
    int s = 7 * x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7] + x[8];  // window of j = 1
    [[unroll]] for (int j = 1; j < 15; j++) {
      if (j > 1) s += x[min(j + 7, 15)] - x[max(j - 8, 0)];
      PUT(q0 + j - 8, (s + x[j] + 8) >> 4);
    }
  } else if (is_flat) {
    // 7 taps over p3..q3: out[j] = Round2(x[j] + sum of x[clamp(t, 4, 11)] for |t - j| <= 3, 3).
    int s = 3 * x[4] + x[5] + x[6] + x[7] + x[8];  // window of j = 5 (p2)
    [[unroll]] for (int j = 5; j < 11; j++) {
      if (j > 5) s += x[min(j + 3, 11)] - x[max(j - 4, 4)];
      PUT(q0 + j - 8, (s + x[j] + 4) >> 3);
    }
  } else {
    const bool hev = abs(x[6] - x[7]) > H || abs(x[9] - x[8]) > H;
    const int ps1 = x[6] - 128, ps0 = x[7] - 128, qs0 = x[8] - 128, qs1 = x[9] - 128;
    int f = c8((hev ? c8(ps1 - qs1) : 0) + 3 * (qs0 - ps0));
    const int f1 = c8(f + 4) >> 3, f2 = c8(f + 3) >> 3;
    PUT(q0, c8(qs0 - f1) + 128);
    PUT(q0 - 1, c8(ps0 + f2) + 128);
    if (!hev) {
      const int a = (f1 + 1) >> 1;
      PUT(q0 + 1, c8(qs1 - a) + 128);
      PUT(q0 - 2, c8(ps1 + a) + 128);
    }
  }
}

// The edges of cell c (0..n-1) along the segment: its block edge then its internal 4x4 edge.
// vert: the cell's left/internal vertical edges (bits 0-7, 22), else its top/internal
// horizontal edges (bits 8-15, 23).
void cell_edges(inout uint seg[SEG_WORDS], inout uint dirty[3], uint w, bool vert, int c,
                int sharp) {
  const uint e = vert ? w & 0xffu : (w >> 8) & 0xffu;
  if ((e & 3u) != 0u) filt(seg, dirty, 8 + 8 * c, e & 3u, int(e >> 2), sharp);
  if ((w & (vert ? 1u << 22 : 1u << 23)) != 0u)
    filt(seg, dirty, 12 + 8 * c, 1u, int((w >> 16) & 63u), sharp);
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint sb = pc.sb_first + gl_WorkGroupID.x * uint(V3D_LPF_SB_WORDS);
  const uint frame = rec.r[sb];
  const uint pos = rec.r[sb + 1u];
  const uint plane = lid < 64u ? 0u : lid < 96u ? 1u : 2u;
  const uint line = plane == 0u ? lid : (lid - 64u) & 31u;
  const uint n = plane == 0u ? 8u : 4u;  // cells per superblock row
  const uint ft = frame * uint(V3D_LPF_FRAME_WORDS);
  const uint win = rec.r[ft + 4u * plane];
  const uint base = rec.r[ft + 4u * plane + 1u];
  const uint stride = rec.r[ft + 4u * plane + 2u];
  const uint wh = rec.r[ft + 4u * plane + 3u];
  const uint pw = wh & 0xffffu, ph = wh >> 16;
  const bool enabled = ((rec.r[ft + uint(V3D_LPF_FT_PLANE_MASK)] >> plane) & 1u) != 0u;
  const int sharp = int(rec.r[ft + uint(V3D_LPF_FT_SHARPNESS)]);
  const uint x0 = (pos & 0xffffu) * 8u * n, y0 = (pos >> 16) * 8u * n;
  const uint cells = sb + uint(V3D_LPF_SB_HEADER) + (plane == 0u ? 0u : 64u);

  // Pass 0: the vertical edges of pixel row y0 + line; pass 1: the horizontal edges of pixel
  // column x0 + line. The segment: the 8n + 8 pixels across from 8 before the superblock.
  for (uint pass = 0u; pass < 2u; pass++) {
    const bool vert = pass == 0u;
    const uint at = vert ? y0 + line : x0 + line;
    const int start = int(vert ? x0 : y0) - 8;
    const uint lim = vert ? pw : ph, step = vert ? 1u : stride;
    const uint first = vert ? base + at * stride : base + at;  // pixel 0 across
    if (enabled && at < (vert ? ph : pw)) {
      uint seg[SEG_WORDS];
      uint dirty[3] = uint[3](0u, 0u, 0u);
      const int len = int(8u * n) + 8;
      [[unroll]] for (int k = 0; k < 4 * SEG_WORDS; k++) {
        if ((k & 3) == 0) seg[k >> 2] = 0u;
        const int p = start + k;
        if (k < len && p >= 0 && uint(p) < lim)
          seg[k >> 2] |= uint(ld(win, first + uint(p) * step)) << uint((k & 3) * 8);
      }
      const uint cell_line = line >> 3;
      if (n == 8u) {
        [[unroll]] for (int c = 0; c < 8; c++)
          cell_edges(seg, dirty, rec.r[cells + (vert ? cell_line * 8u + uint(c) : uint(c) * 8u + cell_line)],
                     vert, c, sharp);
      } else {
        [[unroll]] for (int c = 0; c < 4; c++)
          cell_edges(seg, dirty, rec.r[cells + (vert ? cell_line * 4u + uint(c) : uint(c) * 4u + cell_line)],
                     vert, c, sharp);
      }
      [[unroll]] for (int k = 0; k < 4 * SEG_WORDS; k++)
        if ((dirty[k >> 5] & (1u << uint(k & 31))) != 0u) st(win, first + uint(start + k) * step, GET(k));
    }
    if (pass == 0u) {
      memoryBarrierBuffer();
      barrier();
    }
  }
}
