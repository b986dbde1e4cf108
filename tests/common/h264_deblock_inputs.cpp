// SPDX-License-Identifier: LGPL-2.1-or-later
#include "common/h264_deblock_inputs.h"

#include <algorithm>

namespace v3dtest {
namespace h264 {

// ITU-T H.264 Table 8-16: alpha' and beta' by indexA / indexB.
const uint8_t kAlpha[52] = {
    0,  0,  0,  0,  0,  0,  0,  0,  0,   0,   0,   0,   0,   0,   0,   0,   4,   4,
    5,  6,  7,  8,  9,  10, 12, 13, 15,  17,  20,  22,  25,  28,  32,  36,  40,  45,
    50, 56, 63, 71, 80, 90, 101, 113, 127, 144, 162, 182, 203, 226, 255, 255};
const uint8_t kBeta[52] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  0,  0,  0,  2,  2,  2,  3,  3,  3,  3,  4,  4,  4,
    6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18};
// ITU-T H.264 Table 8-17: tC0 by indexA (rows) and bS = 1, 2, 3 (columns).
const uint8_t kTc0[52][3] = {
    {0, 0, 0},   {0, 0, 0},   {0, 0, 0},   {0, 0, 0},   {0, 0, 0},    {0, 0, 0},    {0, 0, 0},
    {0, 0, 0},   {0, 0, 0},   {0, 0, 0},   {0, 0, 0},   {0, 0, 0},    {0, 0, 0},    {0, 0, 0},
    {0, 0, 0},   {0, 0, 0},   {0, 0, 0},   {0, 0, 1},   {0, 0, 1},    {0, 0, 1},    {0, 0, 1},
    {0, 1, 1},   {0, 1, 1},   {1, 1, 1},   {1, 1, 1},   {1, 1, 1},    {1, 1, 1},    {1, 1, 2},
    {1, 1, 2},   {1, 1, 2},   {1, 1, 2},   {1, 2, 3},   {1, 2, 3},    {2, 2, 3},    {2, 2, 4},
    {2, 3, 4},   {2, 3, 4},   {3, 3, 5},   {3, 4, 6},   {3, 4, 6},    {4, 5, 7},    {4, 5, 8},
    {4, 6, 9},   {5, 7, 10},  {6, 8, 11},  {6, 8, 13},  {7, 10, 14},  {8, 11, 16},  {9, 12, 18},
    {10, 13, 20}, {11, 15, 23}, {13, 17, 25}};

const char *class_name(int c) {
  static const char *const n[kNumClasses] = {"smooth", "ap/aq", "boundary", "random"};
  return c >= 0 && c < kNumClasses ? n[c] : "?";
}

namespace {

uint8_t px(int v) { return static_cast<uint8_t>(std::clamp(v, 0, 255)); }

// A signed offset with |offset| < lim (or 0 when lim <= 1), random sign.
int below(Rng &rng, int lim) { return lim <= 1 ? 0 : rng.range(-(lim - 1), lim - 1); }
// A signed offset of magnitude exactly m, random sign.
int exactly(Rng &rng, int m) { return rng.range(0, 1) ? m : -m; }
// Either below lim or at/above it (up to lim + 8), chosen at random.
int either(Rng &rng, int lim) {
  if (rng.range(0, 1)) return below(rng, lim);
  return exactly(rng, lim + rng.range(0, 8));
}

}  // namespace

void make_line(Rng &rng, int cls, int alpha, int beta, uint8_t v[8]) {
  if (cls == kClassRandom) {
    for (int i = 0; i < 8; i++) v[i] = static_cast<uint8_t>(rng.u32() >> 24);
    return;
  }
  const int a = std::clamp(alpha, 0, 255), b = std::clamp(beta, 0, 255);
  int step, d1p, d1q, d2p, d2q;
  if (cls == kClassBoundary) {
    // Each threshold at lim - 1 (passes) or lim (fails), one of them picked per line to vary.
    auto edge = [&](int lim) { return exactly(rng, std::max(0, lim - rng.range(0, 1))); };
    step = rng.range(0, 2) ? edge(a) : exactly(rng, std::max(0, (a >> 2) + 2 - rng.range(0, 1)));
    d1p = rng.range(0, 3) ? below(rng, b) : edge(b);
    d1q = rng.range(0, 3) ? below(rng, b) : edge(b);
    d2p = edge(b);
    d2q = edge(b);
  } else {
    // Step across the edge below alpha: small ones (strong filter) and large ones.
    const int strong = (a >> 2) + 2;
    step = cls == kClassApAq && rng.range(0, 1) ? below(rng, std::min(a, strong)) : below(rng, a);
    d1p = below(rng, b);
    d1q = below(rng, b);
    d2p = cls == kClassApAq ? either(rng, b) : below(rng, b + rng.range(0, 2));
    d2q = cls == kClassApAq ? either(rng, b) : below(rng, b + rng.range(0, 2));
  }
  const int p0 = rng.range(0, 255);
  const int q0 = p0 + step;
  v[3] = px(p0);
  v[4] = px(q0);
  v[2] = px(p0 + d1p);
  v[5] = px(q0 + d1q);
  v[1] = px(p0 + d2p);
  v[6] = px(q0 + d2q);
  v[0] = px(v[1] + below(rng, b + 4));
  v[7] = px(v[6] + below(rng, b + 4));
}

}  // namespace h264
}  // namespace v3dtest
