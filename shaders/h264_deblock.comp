// SPDX-License-Identifier: LGPL-2.1-or-later
// H.264 deblocking (ITU-T H.264 clause 8.7, 8-bit 4:2:0) of a list of (macroblock, plane)
// records, one workgroup each: first the vertical edges of the macroblock left to right
// (invocation = one line of samples across them), then, after a barrier, its horizontal edges
// top to bottom (invocation = one column). A vertical edge mixes samples of one row only, a
// horizontal edge samples of one column only, so every sample sees its operations in the
// standard's order. The host dispatches the records of one wavefront step (t = c + 2r,
// docs/architecture.md) at a time with a barrier between steps. What is filtered, with which
// alpha, beta, bS and tC0, comes decided from the CPU (h264_deblock_layout.h); this shader only
// runs the sample filters (8.7.2.3, 8.7.2.4; kernels/h264/deblock_ref.cpp is the C++ reference).
// Stores are 8-bit (one invocation per line, no shared words written by two invocations) and no
// subgroup size is assumed.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require

#include "h264_deblock_layout.h"

layout(local_size_x = V3D_H264_INVOCATIONS) in;

// `coherent`: the horizontal pass reads what other invocations wrote in the vertical pass.
layout(std430, set = 0, binding = 0) coherent buffer Px { uint8_t px[]; } s;
layout(std430, set = 0, binding = 1) readonly buffer Rec { uint r[]; } rec;

int ld(uint i) { return int(s.px[i]); }
void st(uint i, int v) { s.px[i] = uint8_t(v); }

// One line across an edge: q0 at sample index q, `across` the step from p0 to q0. bs 1..3 with
// tc0, or 4; chroma: only p0/q0 change (tC = tC0 + 1, 8-465).
void filter_line(uint q, uint across, int alpha, int beta, int bs, int tc0, bool chroma) {
  const int p0 = ld(q - across), p1 = ld(q - 2u * across), q0 = ld(q), q1 = ld(q + across);
  // filterSamplesFlag (8-460)
  if (!(abs(p0 - q0) < alpha && abs(p1 - p0) < beta && abs(q1 - q0) < beta)) return;
  if (chroma) {
    if (bs < 4) {
      const int tc = tc0 + 1;
      const int d = clamp((((q0 - p0) * 4) + (p1 - q1) + 4) >> 3, -tc, tc);
      st(q - across, clamp(p0 + d, 0, 255));
      st(q, clamp(q0 - d, 0, 255));
    } else {  // 8-482, 8-489 (chromaStyleFilteringFlag)
      st(q - across, (2 * p1 + p0 + q1 + 2) >> 2);
      st(q, (2 * q1 + q0 + p1 + 2) >> 2);
    }
    return;
  }
  const int p2 = ld(q - 3u * across), q2 = ld(q + 2u * across);
  const bool ap = abs(p2 - p0) < beta, aq = abs(q2 - q0) < beta;
  if (bs < 4) {
    const int tc = tc0 + (ap ? 1 : 0) + (aq ? 1 : 0);  // 8-464
    const int d = clamp((((q0 - p0) * 4) + (p1 - q1) + 4) >> 3, -tc, tc);  // 8-467
    st(q - across, clamp(p0 + d, 0, 255));
    st(q, clamp(q0 - d, 0, 255));
    if (ap) st(q - 2u * across, p1 + clamp((p2 + ((p0 + q0 + 1) >> 1) - (p1 << 1)) >> 1, -tc0, tc0));
    if (aq) st(q + across, q1 + clamp((q2 + ((p0 + q0 + 1) >> 1) - (q1 << 1)) >> 1, -tc0, tc0));
    return;
  }
  const bool strong = abs(p0 - q0) < ((alpha >> 2) + 2);
  if (ap && strong) {  // 8-479..8-481
    const int p3 = ld(q - 4u * across);
    st(q - across, (p2 + 2 * p1 + 2 * p0 + 2 * q0 + q1 + 4) >> 3);
    st(q - 2u * across, (p2 + p1 + p0 + q0 + 2) >> 2);
    st(q - 3u * across, (2 * p3 + 3 * p2 + p1 + p0 + q0 + 4) >> 3);
  } else {  // 8-482
    st(q - across, (2 * p1 + p0 + q1 + 2) >> 2);
  }
  if (aq && strong) {  // 8-486..8-488
    const int q3 = ld(q + 3u * across);
    st(q, (p1 + 2 * p0 + 2 * q0 + 2 * q1 + q2 + 4) >> 3);
    st(q + across, (p0 + q0 + q1 + q2 + 2) >> 2);
    st(q + 2u * across, (2 * q3 + 3 * q2 + q1 + q0 + p0 + 4) >> 3);
  } else {  // 8-489
    st(q, (2 * q1 + q0 + p1 + 2) >> 2);
  }
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint at = pc.rec_first + gl_WorkGroupID.x * uint(V3D_H264_REC_WORDS);
  const uint pos = rec.r[at], plane = rec.r[at + 1u];
  const bool chroma = plane != 0u;
  const uint pt = plane * uint(V3D_H264_PLANE_WORDS);
  const uint base = rec.r[pt], stride = rec.r[pt + 1u], pw = rec.r[pt + 2u], ph = rec.r[pt + 3u];
  const uint size = chroma ? 8u : 16u, unit = chroma ? 2u : 4u, seg_shift = chroma ? 1u : 2u;
  const uint x0 = (pos & 0xffffu) * size, y0 = (pos >> 16) * size;
  for (uint dir = 0u; dir < 2u; dir++) {
    // dir 0: line = row y0 + lid across the vertical edges; dir 1: column x0 + lid.
    const uint line = (dir == 0u ? y0 : x0) + lid;
    if (lid < size && line < (dir == 0u ? ph : pw)) {
      for (uint e = 0u; e < 4u; e++) {
        const uint a = rec.r[at + uint(V3D_H264_REC_HEADER) + 2u * (dir * 4u + e)];
        if (a == 0u) continue;
        const int bs = int((a >> (16u + 3u * (lid >> seg_shift))) & 7u);
        if (bs == 0) continue;
        const uint b = rec.r[at + uint(V3D_H264_REC_HEADER) + 2u * (dir * 4u + e) + 1u];
        const int tc0 = int((b >> (8u * (lid >> seg_shift))) & 255u);
        const uint q = dir == 0u ? base + line * stride + x0 + e * unit
                                 : base + (y0 + e * unit) * stride + line;
        filter_line(q, dir == 0u ? 1u : stride, int(a & 255u), int((a >> 8) & 255u), bs, tc0,
                    chroma);
      }
    }
    if (dir == 0u) {
      memoryBarrierBuffer();
      barrier();
    }
  }
}
