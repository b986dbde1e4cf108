// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 1-D inverse transforms (DCT 4/8/16/32, ADST 4/8/16, WHT 4) on int32 values in the wrapping
// arithmetic of the project's contract (see the comment at the top of itx_ref.cpp), header-only so
// that the scalar reference, the frame code and the tests share one definition.
//
// Every function reads in[0..n) and writes out[0..n) (in and out must not overlap). Values are
// int32; add, sub and mul wrap modulo 2^32 (computed in uint32_t); the only non-linear steps
// are the arithmetic right shifts: rnd14 (the spec's Round2(x, 14), libvpx's
// dct_const_round_shift) and, in the WHT, >> 1 and the input shift.
#pragma once

#include <cstdint>

namespace v3d {
namespace vp9 {
namespace ref {

// cos64(k) = round(16384 * cos(k * pi / 64)) for k = 0..32: the constants of the VP9
// specification's inverse DCT/ADST processes (its cos64() table; libvpx's cospi_k_64).
// sin64(k) = cos64(32 - k).
constexpr int32_t kCos64[33] = {
    16384, 16364, 16305, 16207, 16069, 15893, 15679, 15426, 15137, 14811, 14449,
    14053, 13623, 13160, 12665, 12140, 11585, 11003, 10394, 9760,  9102,  8423,
    7723,  7005,  6270,  5520,  4756,  3981,  3196,  2404,  1606,  804,   0};
// SINPI_k_9 of the VP9 specification (inverse ADST4 process), k = 1..4:
// round(16384 * sqrt(2) * 2/3 * sin(k * pi / 9)). Index 0 unused.
constexpr int32_t kSinPi9[5] = {0, 5283, 9929, 13377, 15212};

// Wrapping int32 operations (two's complement, modulo 2^32).
inline int32_t wadd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wsub(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) - static_cast<uint32_t>(b));
}
inline int32_t wneg(int32_t a) { return wsub(0, a); }
inline int32_t wmul(int32_t a, int32_t c) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(c));
}
// Round2(x, 14) in int32: (x + 2^13) wrapping, then arithmetic shift right by 14.
inline int32_t rnd14(int32_t x) { return wadd(x, 1 << 13) >> 14; }

// The transforms below are templates on the value type V: int32_t for the reference (with the
// operations above); a test may instantiate them with its own type (found by argument-dependent
// lookup) to observe intermediate values, e.g. to check the int16 range of conformant streams.

// a * ca + b * cb (wrapping), not rounded.
template <typename V>
inline V mac(V a, int32_t ca, V b, int32_t cb) {
  return wadd(wmul(a, ca), wmul(b, cb));
}
// rnd14(a * ca + b * cb).
template <typename V>
inline V rmac(V a, int32_t ca, V b, int32_t cb) {
  return rnd14(mac(a, ca, b, cb));
}

constexpr int32_t C(int k) { return kCos64[k]; }

// ---------------------------------------------------------------------------------------------
// DCT. An N-point inverse DCT is the N/2-point inverse DCT of the even inputs (E) combined with
// an "odd half" O computed from the odd inputs: out[k] = E[k] + O[k], out[N-1-k] = E[k] - O[k].

template <typename V>
inline void idct4(const V *in, V *out) {
  const V e0 = rnd14(wmul(wadd(in[0], in[2]), C(16)));
  const V e1 = rnd14(wmul(wsub(in[0], in[2]), C(16)));
  const V o1 = rmac(in[1], C(24), in[3], -C(8));   // in1 cos(3pi/8) - in3 cos(pi/8)
  const V o0 = rmac(in[1], C(8), in[3], C(24));    // in1 cos(pi/8) + in3 cos(3pi/8)
  out[0] = wadd(e0, o0);
  out[1] = wadd(e1, o1);
  out[2] = wsub(e1, o1);
  out[3] = wsub(e0, o0);
}

// Pattern shared by the odd halves: (a, b, c, d) -> (a + b, a - b, d - c, c + d).
template <typename V>
inline void bfly4(V *t) {
  const V a = t[0], b = t[1], c = t[2], d = t[3];
  t[0] = wadd(a, b);
  t[1] = wsub(a, b);
  t[2] = wsub(d, c);
  t[3] = wadd(c, d);
}
// Pattern on 8 values: (t0+t3, t1+t2, t1-t2, t0-t3, t7-t4, t6-t5, t5+t6, t4+t7).
template <typename V>
inline void bfly8(V *t) {
  const V a[8] = {t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]};
  t[0] = wadd(a[0], a[3]);
  t[1] = wadd(a[1], a[2]);
  t[2] = wsub(a[1], a[2]);
  t[3] = wsub(a[0], a[3]);
  t[4] = wsub(a[7], a[4]);
  t[5] = wsub(a[6], a[5]);
  t[6] = wadd(a[5], a[6]);
  t[7] = wadd(a[4], a[7]);
}
// Rotation on a pair (x, y) -> (rnd14(y cb - x ca), rnd14(x cb + y ca)).
template <typename V>
inline void rot(V &x, V &y, int32_t ca, int32_t cb) {
  const V nx = rmac(y, cb, x, -ca);
  const V ny = rmac(x, cb, y, ca);
  x = nx;
  y = ny;
}
// (x, y) -> (rnd14((y - x) c16), rnd14((x + y) c16)).
template <typename V>
inline void rot16(V &x, V &y) {
  const V nx = rnd14(wmul(wsub(y, x), C(16)));
  const V ny = rnd14(wmul(wadd(x, y), C(16)));
  x = nx;
  y = ny;
}

// First stage of an odd half, on x = in[a], y = in[N-a] (a odd), with ka = s a, kb = s (N-a),
// s = 32 / N: lo = rnd14(x cos64(kb) - y cos64(ka)), hi = rnd14(x cos64(ka) + y cos64(kb)).
template <typename V>
inline void odd_in(V x, V y, int ka, int kb, V &lo, V &hi) {
  lo = rmac(x, C(kb), y, -C(ka));
  hi = rmac(x, C(ka), y, C(kb));
}

template <typename V>
inline void idct8(const V *in, V *out) {
  const V ev[4] = {in[0], in[2], in[4], in[6]};
  V e[4];
  idct4(ev, e);
  V t[4];  // odd half, indices 4..7 of the 8-point butterfly
  odd_in(in[1], in[7], 4, 28, t[0], t[3]);
  odd_in(in[5], in[3], 20, 12, t[1], t[2]);
  bfly4(t);
  rot16(t[1], t[2]);
  for (int k = 0; k < 4; k++) {
    out[k] = wadd(e[k], t[3 - k]);
    out[7 - k] = wsub(e[k], t[3 - k]);
  }
}

template <typename V>
inline void idct16(const V *in, V *out) {
  V ev[8], e[8];
  for (int k = 0; k < 8; k++) ev[k] = in[2 * k];
  idct8(ev, e);
  V t[8];  // odd half, indices 8..15 of the 16-point butterfly
  odd_in(in[1], in[15], 2, 30, t[0], t[7]);
  odd_in(in[9], in[7], 18, 14, t[1], t[6]);
  odd_in(in[5], in[11], 10, 22, t[2], t[5]);
  odd_in(in[13], in[3], 26, 6, t[3], t[4]);
  bfly4(t);
  bfly4(t + 4);
  rot(t[1], t[6], C(8), C(24));
  rot(t[2], t[5], C(24), -C(8));
  bfly8(t);
  rot16(t[2], t[5]);
  rot16(t[3], t[4]);
  for (int k = 0; k < 8; k++) {
    out[k] = wadd(e[k], t[7 - k]);
    out[15 - k] = wsub(e[k], t[7 - k]);
  }
}

template <typename V>
inline void idct32(const V *in, V *out) {
  V ev[16], e[16];
  for (int k = 0; k < 16; k++) ev[k] = in[2 * k];
  idct16(ev, e);
  V t[16];  // odd half, indices 16..31 of the 32-point butterfly
  odd_in(in[1], in[31], 1, 31, t[0], t[15]);
  odd_in(in[17], in[15], 17, 15, t[1], t[14]);
  odd_in(in[9], in[23], 9, 23, t[2], t[13]);
  odd_in(in[25], in[7], 25, 7, t[3], t[12]);
  odd_in(in[5], in[27], 5, 27, t[4], t[11]);
  odd_in(in[21], in[11], 21, 11, t[5], t[10]);
  odd_in(in[13], in[19], 13, 19, t[6], t[9]);
  odd_in(in[29], in[3], 29, 3, t[7], t[8]);
  for (int g = 0; g < 16; g += 4) bfly4(t + g);
  rot(t[1], t[14], C(4), C(28));
  rot(t[2], t[13], C(28), -C(4));
  rot(t[5], t[10], C(20), C(12));
  rot(t[6], t[9], C(12), -C(20));
  bfly8(t);
  bfly8(t + 8);
  rot(t[2], t[13], C(8), C(24));
  rot(t[3], t[12], C(8), C(24));
  rot(t[4], t[11], C(24), -C(8));
  rot(t[5], t[10], C(24), -C(8));
  {  // (t0+t7, t1+t6, t2+t5, t3+t4, t3-t4, t2-t5, t1-t6, t0-t7, then mirrored on 8..15)
    V a[16];
    for (int k = 0; k < 16; k++) a[k] = t[k];
    for (int k = 0; k < 4; k++) {
      t[k] = wadd(a[k], a[7 - k]);
      t[7 - k] = wsub(a[k], a[7 - k]);
      t[8 + k] = wsub(a[15 - k], a[8 + k]);
      t[15 - k] = wadd(a[8 + k], a[15 - k]);
    }
  }
  rot16(t[4], t[11]);
  rot16(t[5], t[10]);
  rot16(t[6], t[9]);
  rot16(t[7], t[8]);
  for (int k = 0; k < 16; k++) {
    out[k] = wadd(e[k], t[15 - k]);
    out[31 - k] = wsub(e[k], t[15 - k]);
  }
}

// ---------------------------------------------------------------------------------------------
// ADST.

template <typename V>
inline void iadst4(const V *in, V *out) {
  const int32_t *S = kSinPi9;
  // Unrounded sums (wrapping); rounding only at the end.
  const V s0 = wadd(wadd(wmul(in[0], S[1]), wmul(in[2], S[4])), wmul(in[3], S[2]));
  const V s1 = wsub(wsub(wmul(in[0], S[2]), wmul(in[2], S[1])), wmul(in[3], S[4]));
  const V s2 = wmul(in[1], S[3]);
  const V s3 = wmul(wadd(wsub(in[0], in[2]), in[3]), S[3]);
  out[0] = rnd14(wadd(s0, s2));
  out[1] = rnd14(wadd(s1, s2));
  out[2] = rnd14(s3);
  out[3] = rnd14(wsub(wadd(s0, s1), s2));
}

// Unrounded rotation used by the ADST stages: (x, y) -> (x ca + y cb, x cb - y ca).
template <typename V>
inline void arot(V x, V y, int32_t ca, int32_t cb, V &p, V &q) {
  p = mac(x, ca, y, cb);
  q = mac(x, cb, y, -ca);
}

// A stage shared by the 8- and 16-point ADST, on 8 values u[0..7]: butterflies on u0..u3,
// (c8, c24) rotations on u4..u7 summed before rounding. The final cos64(16) stage differs.
template <typename V>
inline void adst_tail8(V *u) {
  V p4, q4, p6, q6;
  arot(u[4], u[5], C(8), C(24), p4, q4);
  arot(u[7], u[6], C(24), C(8), q6, p6);  // p6 = u7 c8 - u6 c24, q6 = u6 c8 + u7 c24
  const V a0 = wadd(u[0], u[2]), a1 = wadd(u[1], u[3]);
  const V a2 = wsub(u[0], u[2]), a3 = wsub(u[1], u[3]);
  const V a4 = rnd14(wadd(p4, p6)), a5 = rnd14(wadd(q4, q6));
  const V a6 = rnd14(wsub(p4, p6)), a7 = rnd14(wsub(q4, q6));
  u[0] = a0;
  u[1] = a1;
  u[2] = a2;
  u[3] = a3;
  u[4] = a4;
  u[5] = a5;
  u[6] = a6;
  u[7] = a7;
}

template <typename V>
inline void iadst8(const V *in, V *out) {
  // Input order: x[2k] = in[7-2k], x[2k+1] = in[2k].
  V s[8];
  for (int k = 0; k < 4; k++)
    arot(in[7 - 2 * k], in[2 * k], C(2 + 8 * k), C(30 - 8 * k), s[2 * k], s[2 * k + 1]);
  V u[8];
  for (int k = 0; k < 4; k++) {
    u[k] = rnd14(wadd(s[k], s[k + 4]));
    u[k + 4] = rnd14(wsub(s[k], s[k + 4]));
  }
  adst_tail8(u);
  const V x2 = rnd14(wmul(wadd(u[2], u[3]), C(16)));
  const V x3 = rnd14(wmul(wsub(u[2], u[3]), C(16)));
  const V x6 = rnd14(wmul(wadd(u[6], u[7]), C(16)));
  const V x7 = rnd14(wmul(wsub(u[6], u[7]), C(16)));
  out[0] = u[0];
  out[1] = wneg(u[4]);
  out[2] = x6;
  out[3] = wneg(x2);
  out[4] = x3;
  out[5] = wneg(x7);
  out[6] = u[5];
  out[7] = wneg(u[1]);
}

template <typename V>
inline void iadst16(const V *in, V *out) {
  // Input order: x[2k] = in[15-2k], x[2k+1] = in[2k].
  V s[16];
  for (int k = 0; k < 8; k++)
    arot(in[15 - 2 * k], in[2 * k], C(1 + 4 * k), C(31 - 4 * k), s[2 * k], s[2 * k + 1]);
  V x[16];
  for (int k = 0; k < 8; k++) {
    x[k] = rnd14(wadd(s[k], s[k + 8]));
    x[k + 8] = rnd14(wsub(s[k], s[k + 8]));
  }
  // Second stage: x0..x7 plain butterflies; x8..x15 rotated by (c4, c28) and (c20, c12).
  V u[8], v[8];
  for (int k = 0; k < 4; k++) {
    u[k] = wadd(x[k], x[k + 4]);
    u[k + 4] = wsub(x[k], x[k + 4]);
  }
  V p8, q8, p10, q10, p12, q12, p14, q14;
  arot(x[8], x[9], C(4), C(28), p8, q8);
  arot(x[10], x[11], C(20), C(12), p10, q10);
  arot(x[13], x[12], C(28), C(4), q12, p12);  // p12 = x13 c4 - x12 c28, q12 = x12 c4 + x13 c28
  arot(x[15], x[14], C(12), C(20), q14, p14);  // p14 = x15 c20 - x14 c12, q14 = x14 c20 + x15 c12
  v[0] = rnd14(wadd(p8, p12));
  v[1] = rnd14(wadd(q8, q12));
  v[2] = rnd14(wadd(p10, p14));
  v[3] = rnd14(wadd(q10, q14));
  v[4] = rnd14(wsub(p8, p12));
  v[5] = rnd14(wsub(q8, q12));
  v[6] = rnd14(wsub(p10, p14));
  v[7] = rnd14(wsub(q10, q14));
  adst_tail8(u);
  adst_tail8(v);
  // Final cos64(16) stage.
  const int32_t c = C(16);
  const V x2 = rnd14(wmul(wadd(u[2], u[3]), -c));
  const V x3 = rnd14(wmul(wsub(u[2], u[3]), c));
  const V x6 = rnd14(wmul(wadd(u[6], u[7]), c));
  const V x7 = rnd14(wmul(wsub(u[7], u[6]), c));
  const V x10 = rnd14(wmul(wadd(v[2], v[3]), c));
  const V x11 = rnd14(wmul(wsub(v[3], v[2]), c));
  const V x14 = rnd14(wmul(wadd(v[6], v[7]), -c));
  const V x15 = rnd14(wmul(wsub(v[6], v[7]), c));
  out[0] = u[0];
  out[1] = wneg(v[0]);
  out[2] = v[4];
  out[3] = wneg(u[4]);
  out[4] = x6;
  out[5] = x14;
  out[6] = x10;
  out[7] = x2;
  out[8] = x3;
  out[9] = x11;
  out[10] = x15;
  out[11] = x7;
  out[12] = u[5];
  out[13] = wneg(v[5]);
  out[14] = v[1];
  out[15] = wneg(u[1]);
}

// ---------------------------------------------------------------------------------------------
// WHT (lossless). in_shift: 2 for the row pass (the spec's shift of the lossless coefficients,
// libvpx's UNIT_QUANT_SHIFT), 0 for the column pass.
inline void iwht4(const int32_t *in, int32_t *out, int in_shift) {
  int32_t a = in[0] >> in_shift;
  int32_t c = in[1] >> in_shift;
  int32_t d = in[2] >> in_shift;
  int32_t b = in[3] >> in_shift;
  a = wadd(a, c);
  d = wsub(d, b);
  const int32_t e = wsub(a, d) >> 1;
  b = wsub(e, b);
  c = wsub(e, c);
  a = wsub(a, b);
  d = wadd(d, c);
  out[0] = a;
  out[1] = b;
  out[2] = c;
  out[3] = d;
}

}  // namespace ref
}  // namespace vp9
}  // namespace v3d
