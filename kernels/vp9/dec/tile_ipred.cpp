// SPDX-License-Identifier: LGPL-2.1-or-later
// See tile_ipred.h. Stand-in until the ipred DSP family is merged: the VP9 specification's intra
// prediction formulas (section 8.5.1), scalar.
#include "vp9/dec/tile_ipred.h"

#include <cstring>

namespace v3d {
namespace vp9 {
namespace {

inline uint8_t avg2(int a, int b) { return uint8_t((a + b + 1) >> 1); }
inline uint8_t avg3(int a, int b, int c) { return uint8_t((a + 2 * b + c + 2) >> 2); }
inline uint8_t clip8(int v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }

}  // namespace

void tile_ipred(int tx_size, int slot, uint8_t *dst, ptrdiff_t stride, const uint8_t *a,
                const uint8_t *l) {
  const int n = 4 << tx_size;
  uint8_t p[32][32];
  switch (slot) {
    case 0: case 10: case 11: case 12: {
      int sum = 0, cnt = 0;
      if (slot == 0 || slot == 11) { for (int i = 0; i < n; ++i) sum += a[i]; cnt += n; }
      if (slot == 0 || slot == 10) { for (int i = 0; i < n; ++i) sum += l[i]; cnt += n; }
      const int v = slot == 12 ? 128 : (sum + cnt / 2) / cnt;
      for (int i = 0; i < n; ++i) std::memset(p[i], v, n);
      break;
    }
    case 1: for (int i = 0; i < n; ++i) std::memcpy(p[i], a, n); break;
    case 2: for (int i = 0; i < n; ++i) std::memset(p[i], l[i], n); break;
    case 3:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          p[i][j] = i + j + 2 < 2 * n ? avg3(a[i + j], a[i + j + 1], a[i + j + 2]) : a[2 * n - 1];
      break;
    case 4:
      p[0][0] = avg3(l[0], a[-1], a[0]);
      for (int j = 1; j < n; ++j) p[0][j] = avg3(a[j - 2], a[j - 1], a[j]);
      p[1][0] = avg3(a[-1], l[0], l[1]);
      for (int i = 2; i < n; ++i) p[i][0] = avg3(l[i - 2], l[i - 1], l[i]);
      for (int i = 1; i < n; ++i)
        for (int j = 1; j < n; ++j) p[i][j] = p[i - 1][j - 1];
      break;
    case 5:
      for (int j = 0; j < n; ++j) p[0][j] = avg2(a[j - 1], a[j]);
      p[1][0] = avg3(l[0], a[-1], a[0]);
      for (int j = 1; j < n; ++j) p[1][j] = avg3(a[j - 2], a[j - 1], a[j]);
      p[2][0] = avg3(a[-1], l[0], l[1]);
      for (int i = 3; i < n; ++i) p[i][0] = avg3(l[i - 3], l[i - 2], l[i - 1]);
      for (int i = 2; i < n; ++i)
        for (int j = 1; j < n; ++j) p[i][j] = p[i - 2][j - 1];
      break;
    case 6:
      p[0][0] = avg2(l[0], a[-1]);
      for (int i = 1; i < n; ++i) p[i][0] = avg2(l[i - 1], l[i]);
      p[0][1] = avg3(l[0], a[-1], a[0]);
      p[1][1] = avg3(a[-1], l[0], l[1]);
      for (int i = 2; i < n; ++i) p[i][1] = avg3(l[i - 2], l[i - 1], l[i]);
      for (int j = 2; j < n; ++j) p[0][j] = avg3(a[j - 3], a[j - 2], a[j - 1]);
      for (int i = 1; i < n; ++i)
        for (int j = 2; j < n; ++j) p[i][j] = p[i - 1][j - 2];
      break;
    case 7:
      for (int j = 0; j < n; ++j) p[n - 1][j] = l[n - 1];
      for (int i = 0; i < n - 1; ++i) p[i][0] = avg2(l[i], l[i + 1]);
      for (int i = 0; i < n - 2; ++i) p[i][1] = avg3(l[i], l[i + 1], l[i + 2]);
      p[n - 2][1] = uint8_t((l[n - 2] + 3 * l[n - 1] + 2) >> 2);
      for (int j = 2; j < n; ++j)
        for (int i = n - 2; i >= 0; --i) p[i][j] = p[i + 1][j - 2];
      break;
    case 8:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int i2 = i / 2;
          p[i][j] = (i & 1) ? avg3(a[i2 + j], a[i2 + j + 1], a[i2 + j + 2]) : avg2(a[i2 + j], a[i2 + j + 1]);
        }
      break;
    default:
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) p[i][j] = clip8(l[i] + a[j] - a[-1]);
  }
  for (int i = 0; i < n; ++i) std::memcpy(dst + i * stride, p[i], n);
}

}  // namespace vp9
}  // namespace v3d
