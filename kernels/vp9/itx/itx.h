// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transform + reconstruction: the kernel table (one prototype, one table, filled with
// the scalar references first, then overridden slot by slot by the SIMD target chosen at init).
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

enum TxSize { kTx4x4 = 0, kTx8x8 = 1, kTx16x16 = 2, kTx32x32 = 3, kNumTxSizes = 4 };
enum TxType { kDctDct = 0, kAdstDct = 1, kDctAdst = 2, kAdstAdst = 3, kWhtWht = 4, kNumTxTypes = 5 };

// n = 4 << tx_size. Adds the inverse transform of coeffs (n*n int16, raster order: coeffs[i*n+j],
// i = row) into dst (n rows of n pixels, stride bytes apart), clamped to 0..255.
// Contract: eob >= 1 (callers skip eob == 0); the result must not depend on eob (it is a hint:
// implementations may derive fast paths from it only where the coefficients it excludes are
// checked to be zero, or from the coefficients themselves). No alignment promise on dst, stride
// or coeffs. Reads coeffs[0..n*n), reads and writes exactly the n x n pixels of dst.
// Arithmetic: every butterfly step in 32-bit two's-complement wrapping arithmetic, identical
// to the scalar reference for every int16 input.
using ItxAddFn = void (*)(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int eob);

struct ItxDsp {
  // [tx_size][tx_type]; nullptr for invalid pairs (WHT_WHT only at [kTx4x4][kWhtWht];
  // only DCT_DCT at kTx32x32).
  ItxAddFn add[kNumTxSizes][kNumTxTypes];
  // The same transforms for callers whose eob is exact, as a decoder's is: every coefficient at
  // a scan position >= eob is zero (the VP9 specification's scan for the size and type:
  // vp9/dec/tile_tables.h's scan_for). They may skip looking for the non-zero coefficients and
  // find them from eob alone (DC only for eob 1); every other contract of add holds, and for
  // blocks keeping that promise the result is add's. A block breaking it gets unspecified
  // pixels (still only its n x n, from coeffs[0..n*n) alone).
  ItxAddFn add_exact_eob[kNumTxSizes][kNumTxTypes];
  // add_exact_eob's transforms on coefficients in column-major order: coeffs[j*n + i] is the
  // coefficient of row i, column j (the layout FFmpeg's VP9 decoder writes), under the same
  // promise for that block read row-major. A kernel that loads this layout itself can skip the
  // transpose its row pass needs after a row-major load; every other slot transposes the block
  // into a buffer and calls add_exact_eob's (itx_cm.h). Results are add_exact_eob's on the
  // transposed block, bit for bit.
  ItxAddFn add_exact_eob_cm[kNumTxSizes][kNumTxTypes];
  // Per slot: true where add_exact_eob_cm is a kernel of its own, so a decoder that may write
  // either layout should write column-major for it (vp9/dec); false where it transposes.
  bool cm_native[kNumTxSizes][kNumTxTypes];
};

inline bool valid_tx(int tx_size, int tx_type) {
  if (tx_size < 0 || tx_size >= kNumTxSizes || tx_type < 0 || tx_type >= kNumTxTypes) return false;
  if (tx_type == kWhtWht) return tx_size == kTx4x4;
  if (tx_size == kTx32x32) return tx_type == kDctDct;
  return true;
}

// Fills every valid slot with the scalar reference (itx_ref.cpp).
void itx_dsp_init_ref(ItxDsp *dsp);
// Overrides slots with the SIMD implementation of the Highway target currently chosen by
// hwy::GetChosenTarget() (itx_hwy.cpp). Called by runtime/cpu.cpp, never per call.
void itx_dsp_init_simd(ItxDsp *dsp);

// The table in use now (set up once, or again by v3d_cpu_force_target()).
const ItxDsp &itx_dsp();

}  // namespace vp9
}  // namespace v3d
