// SPDX-License-Identifier: LGPL-2.1-or-later
// The column-major entries' fallback (ItxDsp::add_exact_eob_cm, itx.h): transpose the block into
// a buffer, then the row-major exact-eob kernel. Target-independent; included by the scalar
// reference and by every SIMD target, whose slots without a column-major load of their own
// take this form of their row-major kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vp9/itx/itx.h"

namespace v3d {
namespace vp9 {

// t = the transpose of the n x n block c (t[i*n + j] = c[j*n + i]).
template <size_t kN>
inline void TransposeSquare(const int16_t *c, int16_t *t) {
  for (size_t i = 0; i < kN; i++)
    for (size_t j = 0; j < kN; j++) t[i * kN + j] = c[j * kN + i];
}

// kFn (a row-major slot that keeps add_exact_eob's contract) on the column-major block c. eob 1:
// only position 0 may be non-zero, which is the same in both layouts, so c goes as it is.
template <size_t kN, ItxAddFn kFn>
void ColMajorByTranspose(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return kFn(dst, stride, c, eob);
  alignas(64) int16_t t[kN * kN];
  TransposeSquare<kN>(c, t);
  kFn(dst, stride, t, eob);
}

}  // namespace vp9
}  // namespace v3d
