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

// The side of the top-left square (a multiple of 4, or kN) outside which every coefficient of an
// n x n block of scan kScan is zero when the block keeps the exact-eob promise with eob.
template <size_t kN, int kScan>
inline size_t CmSquare(int eob) {
  const int16_t *first_out;
  if constexpr (kN == 8) {
    first_out = kScan8FirstOutSquare[kScan == kCmAnyScan ? kDctAdst : kScan % 4];
  } else if constexpr (kN == 16) {
    first_out = kScan16FirstOutSquare[kScan == kCmAnyScan ? kDctAdst : kScan % 4];
  } else if constexpr (kN == 32) {
    first_out = kScan32FirstOutSquare;  // 32x32: the default scan only
  } else {
    return kN;
  }
  for (size_t k = 0; k + 1 < kN / 4; k++)
    if (eob <= first_out[k]) return 4 * (k + 1);
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
