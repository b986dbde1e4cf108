// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 loop filter of a list of 64x64 superblocks (one workgroup each), all three planes: first
// every vertical edge of the superblock (invocation = one pixel row, edges left to right), then,
// after a barrier, every horizontal edge (invocation = one pixel column, edges top to bottom).
// That is libvpx's order for every pixel: a vertical edge mixes pixels of one row only, a
// horizontal edge pixels of one column only. The host dispatches the superblocks of one wavefront
// step (c + 2r, docs/architecture.md) at a time, with a barrier between steps, so superblocks
// that share pixels run in their sequential order. Pixels are read and written as bytes (8-bit
// storage), one invocation per line: no two invocations write one word. Which edges, with which
// width and level, comes decided from the CPU (vp9_lpf_layout.h). The per-line filter is the VP9
// specification's (section 8.8.2; kernels/vp9/lpf_ref.cpp is the C++ reference).
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

// Filters one line across an edge. q0 is the byte index of q0 in window win; `across` the step
// from one pixel to the next across the edge (1 for a vertical edge, the stride for a horizontal
// one); code 1, 2, 3 = filter width 4, 8, 16. Reads p3..q3 (p7..q7 for 16), writes only when the
// filter mask passes, at most p2..q2 (p6..q6). x[] is only ever indexed by constants (the loops
// are unrolled), so it lives in registers.
void filter_line(uint win, uint q0, uint across, uint code, int level, int sharp) {
  int I = level >> ((sharp > 0 ? 1 : 0) + (sharp > 4 ? 1 : 0));
  if (sharp > 0) I = min(I, 9 - sharp);
  I = max(I, 1);
  const int E = 2 * (level + 2) + I, H = level >> 4;
  int x[16];  // p7..p0 = x[0..7], q0..q7 = x[8..15]
  [[unroll]] for (int k = 4; k < 12; k++) x[k] = ld(win, q0 + uint(k - 8) * across);
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
      x[k] = ld(win, q0 + uint(k - 8) * across);
      x[15 - k] = ld(win, q0 + uint(7 - k) * across);
    }
    is_flat2 = true;
    [[unroll]] for (int k = 0; k < 4; k++)
      is_flat2 = is_flat2 && abs(x[k] - x[7]) <= 1 && abs(x[15 - k] - x[8]) <= 1;
  }
  if (is_flat2) {
    // 15 taps: out[j] = Round2(x[j] + sum of x[clamp(t, 0, 15)] for |t - j| <= 7, 4),
    // j = 1..14, as a running sum of the window.
    int o[16];
    int s = 7 * x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7] + x[8];  // window of j = 1
    [[unroll]] for (int j = 1; j < 15; j++) {
      if (j > 1) s += x[min(j + 7, 15)] - x[max(j - 8, 0)];
      o[j] = (s + x[j] + 8) >> 4;
    }
    [[unroll]] for (int j = 1; j < 15; j++) st(win, q0 + uint(j - 8) * across, o[j]);
  } else if (is_flat) {
    // 7 taps over p3..q3: out[j] = Round2(x[j] + sum of x[clamp(t, 4, 11)] for |t - j| <= 3, 3).
    int o[16];
    int s = 3 * x[4] + x[5] + x[6] + x[7] + x[8];  // window of j = 5 (p2)
    [[unroll]] for (int j = 5; j < 11; j++) {
      if (j > 5) s += x[min(j + 3, 11)] - x[max(j - 4, 4)];
      o[j] = (s + x[j] + 4) >> 3;
    }
    [[unroll]] for (int j = 5; j < 11; j++) st(win, q0 + uint(j - 8) * across, o[j]);
  } else {
    const bool hev = abs(x[6] - x[7]) > H || abs(x[9] - x[8]) > H;
    const int ps1 = x[6] - 128, ps0 = x[7] - 128, qs0 = x[8] - 128, qs1 = x[9] - 128;
    int f = c8((hev ? c8(ps1 - qs1) : 0) + 3 * (qs0 - ps0));
    const int f1 = c8(f + 4) >> 3, f2 = c8(f + 3) >> 3;
    st(win, q0, c8(qs0 - f1) + 128);
    st(win, q0 - across, c8(ps0 + f2) + 128);
    if (!hev) {
      const int a = (f1 + 1) >> 1;
      st(win, q0 + across, c8(qs1 - a) + 128);
      st(win, q0 - 2u * across, c8(ps1 + a) + 128);
    }
  }
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

  // Vertical edges of pixel row y0 + line, left to right (rows past the plane: none).
  const uint y = y0 + line;
  if (enabled && y < ph) {
    const uint row = base + y * stride;
    for (uint c = 0u; c < n; c++) {
      const uint w = rec.r[cells + (line >> 3) * n + c];
      const uint x = x0 + 8u * c;
      if ((w & 3u) != 0u) filter_line(win, row + x, 1u, w & 3u, int((w >> 2) & 63u), sharp);
      if ((w & (1u << 22)) != 0u) filter_line(win, row + x + 4u, 1u, 1u, int((w >> 16) & 63u), sharp);
    }
  }
  memoryBarrierBuffer();
  barrier();
  // Horizontal edges of pixel column x0 + line, top to bottom (columns past the plane: none).
  const uint x = x0 + line;
  if (enabled && x < pw) {
    for (uint r = 0u; r < n; r++) {
      const uint w = rec.r[cells + r * n + (line >> 3)];
      const uint yy = y0 + 8u * r;
      if ((w & 0x300u) != 0u)
        filter_line(win, base + yy * stride + x, stride, (w >> 8) & 3u, int((w >> 10) & 63u), sharp);
      if ((w & (1u << 23)) != 0u)
        filter_line(win, base + (yy + 4u) * stride + x, stride, 1u, int((w >> 16) & 63u), sharp);
    }
  }
}
