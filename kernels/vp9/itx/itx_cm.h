// SPDX-License-Identifier: LGPL-2.1-or-later
// The column-major entries' fallback (ItxDsp::add_exact_eob_cm, itx.h): transpose the block into
// a buffer, then the row-major exact-eob kernel. Target-independent; included by the scalar
// reference and by every SIMD target, whose slots without a column-major load of their own
// take this form of their row-major kernel.
//
// Under the exact-eob promise eob bounds the non-zero coefficients to a top-left square of the
// block (itx_eob_hint.h's kScan<n>FirstOutSquare): only that square is transposed, and the rest
// of the buffer is zeroed, which gives the same buffer as the whole transpose.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "vp9/itx/itx.h"
#include "vp9/itx/itx_eob_hint.h"

namespace v3d {
namespace vp9 {

// The slots' scans for the squares: a transform type's (kDctDct .. kAdstAdst; kWhtWht as
// kDctDct), or kCmAnyScan, whose squares hold under every scan of the size.
constexpr int kCmAnyScan = -1;

// Entry k of itx_eob_hint.h's first-out table of an n x n block of scan `scan` (n = 8, 16 or
// 32; 32x32 has the default scan only). For kCmAnyScan the smallest entry over the size's
// scans: an eob at or below it keeps the square under every scan.
template <size_t kN>
constexpr int FirstOutSquare(int scan, size_t k) {
  if (scan == kCmAnyScan) {
    int m = FirstOutSquare<kN>(0, k);
    for (int s = 1; s < 4; s++) m = FirstOutSquare<kN>(s, k) < m ? FirstOutSquare<kN>(s, k) : m;
    return m;
  }
  if constexpr (kN == 8) return kScan8FirstOutSquare[scan % 4][k];
  else if constexpr (kN == 16) return kScan16FirstOutSquare[scan % 4][k];
  else return kScan32FirstOutSquare[k];
}

// The side of the top-left square (a multiple of 4, or kN) outside which every coefficient of an
// n x n block of scan kScan is zero when the block keeps the exact-eob promise with eob.
template <size_t kN, int kScan>
inline size_t CmSquare(int eob) {
  if constexpr (kN == 8 || kN == 16 || kN == 32) {
    for (size_t k = 0; k + 1 < kN / 4; k++)
      if (eob <= FirstOutSquare<kN>(kScan, k)) return 4 * (k + 1);
  }
  return kN;
}

// t = the transpose of the n x n block c (t[i*n + j] = c[j*n + i]) where c is zero outside its
// top-left s x s square.
template <size_t kN>
inline void TransposeSquare(const int16_t *c, int16_t *t, size_t s = kN) {
  if (s < kN) std::memset(t, 0, kN * kN * sizeof(int16_t));
  for (size_t i = 0; i < s; i++)
    for (size_t j = 0; j < s; j++) t[i * kN + j] = c[j * kN + i];
}

// kFn (a row-major slot of scan kScan that keeps add_exact_eob's contract) on the column-major
// block c. eob 1: only position 0 may be non-zero, which is the same in both layouts, so c goes
// as it is.
template <size_t kN, ItxAddFn kFn, int kScan = kCmAnyScan>
void ColMajorByTranspose(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return kFn(dst, stride, c, eob);
  alignas(64) int16_t t[kN * kN];
  TransposeSquare<kN>(c, t, CmSquare<kN, kScan>(eob));
  kFn(dst, stride, t, eob);
}

}  // namespace vp9
}  // namespace v3d
