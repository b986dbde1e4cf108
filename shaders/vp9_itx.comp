// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transform + reconstruction of a list of n x n blocks (n = 1 << V3D_ITX_LOG2N, one
// SPIR-V module per size). Lane map: lane l of a workgroup works on block l / n of the group; in
// the first pass it transforms row (l % n) of the coefficients, then, after a shared-memory
// transpose, column (l % n) of the intermediate, and adds that column to the pixels (one byte per
// lane per row: neighbouring lanes write neighbouring bytes). Nothing depends on the subgroup
// size. Build defines: V3D_ITX_LOG2N (2..5); V3D_ITX_COEF16 (1: coefficients through
// int16_t storage, needs storageBuffer16BitAccess; 0: int16 pairs read from a uint array).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require
#if V3D_ITX_COEF16
#extension GL_EXT_shader_16bit_storage : require
#endif

#include "vp9_itx_layout.h"
#include "vp9_itx_1d.glsl"

#define N (1 << V3D_ITX_LOG2N)
#define INVOCATIONS V3D_ITX_INVOCATIONS(V3D_ITX_LOG2N)
#define BLOCKS_PER_GROUP V3D_ITX_BLOCKS_PER_GROUP(V3D_ITX_LOG2N)

layout(local_size_x = INVOCATIONS) in;

layout(std430, set = 0, binding = V3D_ITX_BINDING_PLANE0) buffer Plane0 { uint8_t px[]; } plane0;
layout(std430, set = 0, binding = V3D_ITX_BINDING_PLANE1) buffer Plane1 { uint8_t px[]; } plane1;
layout(std430, set = 0, binding = V3D_ITX_BINDING_PLANE2) buffer Plane2 { uint8_t px[]; } plane2;
#if V3D_ITX_COEF16
layout(std430, set = 0, binding = V3D_ITX_BINDING_COEFFS) readonly buffer Coeffs { int16_t c[]; } coeffs;
int coef(uint i) { return int(coeffs.c[i]); }
#else
layout(std430, set = 0, binding = V3D_ITX_BINDING_COEFFS) readonly buffer Coeffs { uint c[]; } coeffs;
int coef(uint i) {
  int w = int(coeffs.c[i >> 1]);
  return (i & 1u) != 0u ? w >> 16 : (w << 16) >> 16;  // little-endian int16 pairs
}
#endif
layout(std430, set = 0, binding = V3D_ITX_BINDING_BLOCKS) readonly buffer Blocks { uvec4 rec[]; } blocks;

// The first pass's output, n x n int32 per block; element (r, c) of a block lies at r * n + (c ^ r)
// (the XOR spreads one pass's accesses over the banks).
shared int tmp[BLOCKS_PER_GROUP * N * N];

uint load_px(uint plane, uint i) {
  if (plane == 0u) return uint(plane0.px[i]);
  if (plane == 1u) return uint(plane1.px[i]);
  return uint(plane2.px[i]);
}
void store_px(uint plane, uint i, uint v) {
  if (plane == 0u) plane0.px[i] = uint8_t(v);
  else if (plane == 1u) plane1.px[i] = uint8_t(v);
  else plane2.px[i] = uint8_t(v);
}

// tx_type: 0 DCT_DCT, 1 ADST_DCT (ADST on columns), 2 DCT_ADST (ADST on rows), 3 ADST_ADST,
// 4 WHT_WHT (4x4 only).
void transform(inout int x[N], uint type, bool rows) {
  bool adst = (type & (rows ? 2u : 1u)) != 0u;
#if V3D_ITX_LOG2N == 2
  if (type == 4u) iwht4(x, rows ? 2 : 0);
  else if (adst) iadst4(x);
  else idct4(x);
#elif V3D_ITX_LOG2N == 3
  if (adst) iadst8(x); else idct8(x);
#elif V3D_ITX_LOG2N == 4
  if (adst) iadst16(x); else idct16(x);
#else
  idct32(x);
#endif
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint lane = lid & uint(N - 1);
  const uint slot = lid >> V3D_ITX_LOG2N;
  const uint index = gl_WorkGroupID.x * uint(BLOCKS_PER_GROUP) + slot;
  // Lanes past the end keep going (no early return before barrier()) but touch no memory.
  const bool in_range = index < pc.block_count;
  uvec4 rec = in_range ? blocks.rec[pc.block_first + index] : uvec4(0u);
  const uint type = V3D_ITX_REC_TYPE(rec.z);
  const uint base = slot * uint(N * N);
  int x[N];

  // Pass 1: row `lane` of the coefficients.
  if (in_range) {
    const uint c0 = rec.x + lane * uint(N);
    for (int k = 0; k < N; k++) x[k] = coef(c0 + uint(k));
    transform(x, type, true);
    for (int k = 0; k < N; k++) tmp[base + lane * uint(N) + (uint(k) ^ lane)] = x[k];
  }
  barrier();
  if (!in_range) return;  // no barrier follows

  // Pass 2: column `lane`, rounded and added to the pixels of the clipped block.
  for (int k = 0; k < N; k++) x[k] = tmp[base + uint(k) * uint(N) + (lane ^ uint(k))];
  transform(x, type, false);
  const uint plane = V3D_ITX_REC_PLANE(rec.z);
  const uint w = V3D_ITX_REC_WIDTH(rec.z), h = V3D_ITX_REC_HEIGHT(rec.z);
  if (lane >= w) return;
  // Final Round2 by 4, 5, 6, 6 for n = 4..32 (the WHT has none).
  const int shift = V3D_ITX_LOG2N == 2 ? (type == 4u ? 0 : 4) : min(V3D_ITX_LOG2N + 2, 6);
  const int bias = shift > 0 ? 1 << (shift - 1) : 0;
  uint p = rec.y + lane;
  for (int k = 0; k < N; k++) {
    if (uint(k) >= h) break;
    int v = int(load_px(plane, p)) + ((x[k] + bias) >> shift);
    store_px(plane, p, uint(clamp(v, 0, 255)));
    p += rec.w;
  }
}
