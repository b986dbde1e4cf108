// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/vp9_lpf_inputs.h"

#include <algorithm>
#include <cstdlib>

namespace v3dtest {
namespace vp9 {
namespace {

uint8_t px(int v) { return static_cast<uint8_t>(std::clamp(v, 0, 255)); }
int sign(Rng &rng) { return rng.range(0, 1) ? 1 : -1; }
// Half the time exactly lo (the threshold's boundary), else uniform in lo..lo + spread.
int edge_value(Rng &rng, int lo, int spread) {
  return lo + (rng.range(0, 1) ? 0 : rng.range(0, spread));
}
// Sets x[i] to x[ref] +- d (the sign that stays in 0..255).
void set_off(uint8_t x[16], int i, int ref, int d) {
  x[i] = px(x[ref] + d <= 255 ? x[ref] + d : x[ref] - d);
}
// Moves q0 away from p0 until the edge step 2 |p0-q0| + |p1-q1| / 2 just exceeds E (fail) or is
// the largest one within E (pass).
void edge_boundary(uint8_t x[16], int E, bool fail) {
  const int p0 = x[7], dir = p0 < 128 ? 1 : -1;
  auto step = [&](int q0) { return 2 * std::abs(p0 - q0) + std::abs(x[6] - x[9]) / 2; };
  int q0 = p0;
  while (q0 + dir >= 0 && q0 + dir <= 255 && step(q0 + dir) <= E) q0 += dir;
  if (fail && q0 + dir >= 0 && q0 + dir <= 255) q0 += dir;
  x[8] = px(q0);
}

// p3..q3 flat: every p within 1 of p0 (one direction per side, so that neighbours differ by at
// most 1 too), q0 within 1 of p0. With outer = true, p7..p4 and q4..q7 flat as well.
void flat_line(Rng &rng, bool outer, uint8_t x[16]) {
  const int p0 = rng.range(0, 255), q0 = std::clamp(p0 + rng.range(-1, 1), 0, 255);
  const int sp = sign(rng), sq = sign(rng);
  for (int i = 0; i < 16; i++) {
    const bool p = i < 8;
    x[i] = px((p ? p0 : q0) + (rng.range(0, 1) ? (p ? sp : sq) : 0));
  }
  x[7] = px(p0);
  x[8] = px(q0);
  if (!outer) {
    if (rng.range(0, 1))  // else the outer pixels stay flat but for the one below
      for (int i : {0, 1, 2, 3, 12, 13, 14, 15}) x[i] = px(x[i < 8 ? 7 : 8] + rng.range(-20, 20));
    const int k = rng.range(0, 7), i = k < 4 ? k : k + 8;  // one outer pixel surely off by > 1
    set_off(x, i, i < 8 ? 7 : 8, edge_value(rng, 2, 20));
  }
}

// Mask passing line: edge step within E, inner steps within I, |p1-p0|, |q1-q0| within m.
void smooth_line(Rng &rng, const LpfLimits &lim, int m, uint8_t x[16]) {
  const int I = std::clamp(lim.I, 0, 40), E = std::clamp(lim.E, 0, 255);
  const int p0 = rng.range(16, 239);
  const int step_sign = sign(rng);  // separate statements: the draw order must not vary
  const int q0 = std::clamp(p0 + step_sign * rng.range(0, std::max(0, E / 3)), 0, 255);
  const int p1 = p0 + rng.range(-m, m), q1 = q0 + rng.range(-m, m);
  const int p2 = p1 + rng.range(-I, I), q2 = q1 + rng.range(-I, I);
  const int p3 = p2 + rng.range(-I, I), q3 = q2 + rng.range(-I, I);
  const int v[8] = {p3, p2, p1, p0, q0, q1, q2, q3};
  for (int i = 0; i < 8; i++) x[4 + i] = px(v[i]);
  for (int i = 0; i < 4; i++) {
    x[3 - i] = px(x[4 - i] + rng.range(-8, 8));
    x[12 + i] = px(x[11 + i] + rng.range(-8, 8));
  }
}

}  // namespace

const char *lpf_regime_name(int regime) {
  static const char *const kNames[] = {"off", "normal", "hev", "flat", "flat2", "random"};
  return regime >= 0 && regime < kNumRegimes ? kNames[regime] : "?";
}

const char *lpf_outcome_name(int outcome) {
  static const char *const kNames[] = {"none", "narrow", "narrow+hev", "flat 7-tap",
                                       "flat2 15-tap"};
  return outcome >= 0 && outcome < kNumOutcomes ? kNames[outcome] : "?";
}

LpfLimits lpf_limits(int level, int sharpness) {
  int inside = level >> ((sharpness > 0) + (sharpness > 4));
  if (sharpness > 0 && inside > 9 - sharpness) inside = 9 - sharpness;
  if (inside < 1) inside = 1;
  return {2 * (level + 2) + inside, inside, level >> 4};
}

LpfLimits lpf_pick_limits(Rng &rng, bool wide) {
  const int k = rng.range(0, 7);
  if (wide && k == 0) return {rng.range(-300, 600), rng.range(-300, 600), rng.range(-300, 600)};
  if (k <= 1) return {rng.range(0, 255), rng.range(0, 255), rng.range(0, 255)};
  const int level = rng.range(0, 63);  // (argument evaluation order is unspecified)
  return lpf_limits(level, rng.range(0, 7));
}

void lpf_make_line(Rng &rng, int regime, const LpfLimits &lim, uint8_t x[16]) {
  const int I = std::clamp(lim.I, 0, 255), H = std::clamp(lim.H, 0, 255);
  switch (regime) {
    case kRegimeOff: {
      smooth_line(rng, lim, std::min(I, H), x);
      if (rng.range(0, 1)) {  // one inner step too large
        const int i = rng.range(0, 5), a = i < 3 ? 4 + i : 5 + i, b = a + 1;  // (p3,p2).. (q2,q3)
        set_off(x, b, a, edge_value(rng, I + 1, 10));
      } else if (rng.range(0, 1)) {  // edge step just too large
        edge_boundary(x, std::clamp(lim.E, 0, 255), true);
      } else {  // edge step too large
        set_off(x, 8, 7, std::clamp(lim.E, 0, 255) / 2 + 1 + rng.range(0, 20));
      }
      break;
    }
    case kRegimeNormal:
      if (rng.range(0, 2) == 0) {  // a flat line but for one inner pixel off by 2 or more
        flat_line(rng, rng.range(0, 1), x);
        const int k = rng.range(1, 6), i = k <= 3 ? 7 - k : 7 + k - 3;  // p1..p3 or q1..q3
        set_off(x, i, i < 8 ? 7 : 8, edge_value(rng, 2, 3));
      } else {
        smooth_line(rng, lim, std::min(I, H), x);
        if (rng.range(0, 2) == 0) edge_boundary(x, std::clamp(lim.E, 0, 255), false);
      }
      break;
    case kRegimeHev: {
      smooth_line(rng, lim, std::min(I, H), x);
      const int a = rng.range(0, 1) ? 6 : 9, ref = a == 6 ? 7 : 8;  // p1 or q1
      set_off(x, a, ref, edge_value(rng, H + 1, std::max(0, I - H - 1)));
      break;
    }
    case kRegimeFlat:
      flat_line(rng, false, x);
      break;
    case kRegimeFlat2:
      flat_line(rng, true, x);
      break;
    default:
      for (int i = 0; i < 16; i++) x[i] = static_cast<uint8_t>(rng.u32() >> 24);
      break;
  }
}

int lpf_classify(const uint8_t x[16], int filter_width, const LpfLimits &lim) {
  const int E = std::clamp(lim.E, 0, 255), I = std::clamp(lim.I, 0, 255),
            H = std::clamp(lim.H, 0, 255);
  auto d = [&](int a, int b) { return std::abs(x[a] - x[b]); };
  // Neighbour steps p3-p2, p2-p1, p1-p0 and q0-q1, q1-q2, q2-q3.
  for (int a : {4, 5, 6, 8, 9, 10})
    if (d(a, a + 1) > I) return kOutNone;
  if (2 * d(7, 8) + d(6, 9) / 2 > E) return kOutNone;
  bool flat = filter_width >= 8;
  for (int k = 1; k <= 3 && flat; k++) flat = d(7 - k, 7) <= 1 && d(8 + k, 8) <= 1;
  if (flat) {
    bool flat2 = filter_width == 16;
    for (int k = 4; k <= 7 && flat2; k++) flat2 = d(7 - k, 7) <= 1 && d(8 + k, 8) <= 1;
    return flat2 ? kOutFlat15 : kOutFlat7;
  }
  return d(6, 7) > H || d(9, 8) > H ? kOutNarrowHev : kOutNarrow;
}

void lpf_make_edge(Rng &rng, int regime, int mix_percent, const LpfLimits &lim, uint8_t *dst,
                   ptrdiff_t stride, int dir, int len) {
  const ptrdiff_t across = dir == 0 ? 1 : stride, along = dir == 0 ? stride : 1;
  for (int l = 0; l < len; l++) {
    const int r = rng.range(0, 99) < mix_percent ? rng.range(0, kNumRegimes - 1) : regime;
    uint8_t x[16];
    lpf_make_line(rng, r, lim, x);
    for (int i = 0; i < 16; i++) dst[l * along + (i - 8) * across] = x[i];
  }
}

void lpf_read_line(const uint8_t *dst, ptrdiff_t stride, int dir, int l, uint8_t x[16]) {
  const ptrdiff_t across = dir == 0 ? 1 : stride, along = dir == 0 ? stride : 1;
  for (int i = 0; i < 16; i++) x[i] = dst[l * along + (i - 8) * across];
}

}  // namespace vp9
}  // namespace v3dtest
