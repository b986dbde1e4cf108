// SPDX-License-Identifier: LGPL-2.1-or-later
// 32x32 DCT_DCT with both passes in 16-bit lanes, behind per-pass 1-D bounds.
// Per-target header: included by itx_hwy.cpp after itx_hwy_16.h (AddAbs, LanesWithin),
// itx_hwy_sat.h (RoundAdd32Rows) and itx_hwy_16x16.h.
//
// Condition (itx_int16_bound.h, kInt16BoundL1[3][0]: the L1 bound B1 of the 32-point DCT, the
// same for 8, 16 or 32 non-zero inputs, and so for 24, proven with every input free): a block
// whose non-zero coefficients lie in the top-left T x T square (T = 8, 16, 24 or 32) runs its
// row pass here iff the |coefficients| of every row sum to at most B1, and its column pass iff
// the |row results| of every column do: the coefficients are the row DCTs' inputs, the row
// results the column DCTs' inputs. The rows are checked group by group before their DCTs:
// outside, nothing is written and the caller takes the 32-bit path,
// which is exact for every input. The row results are checked before anything is written:
// outside, the caller runs the 32-bit column pass from them (they are the reference's, the row
// check having passed). Inside the bounds every value here is one the reference forms (the
// skipped products are products of known zeros), so the result is the reference's.
// On AVX3_DL the rows are checked first by sums of squares of row pairs against the 32-point
// DCT's L2 bound (RowPairsWithinL2; the L1 check where that fails), and the 16x16, 20x20 and
// 24x24 squares leave their columns to the caller, which checks them by sums of squares
// (ColsClass32).
//
// Layout: row pass with lane = row, 8 rows per 128-bit block (8, 16 or 32 rows per vector, up to
// the square's size), loaded as 8x8 int16 tiles and transposed in registers; the row results
// are transposed back and go through the caller's int16 buffer, row-major, stored as wide as the
// column pass loads them; column pass with lane = column, in the widest vectors of up to 32
// lanes.

#if defined(V3D_VP9_ITX_HWY_32_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_ITX_HWY_32_H_
#undef V3D_VP9_ITX_HWY_32_H_
#else
#define V3D_VP9_ITX_HWY_32_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "vp9/itx/itx_eob_hint.h"
#include "vp9/itx/itx_int16_bound.h"

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// AVX3_DL: the 32x32 checks by sums of squares (vpdpwssds, itx_hwy_madd.h) of RowPairsWithinL2
// and ColsClass32.
#undef V3D_ITX_COLS32_BY_SQUARES
#if defined(V3D_ITX_HAVE_VNNI) && V3D_ITX_HAVE_VNNI
#define V3D_ITX_COLS32_BY_SQUARES 1
#else
#define V3D_ITX_COLS32_BY_SQUARES 0
#endif

// Whether ItxAddBlock takes a kN x kN block (kN >= 8) with this eob hint as non-zero beyond
// every candidate square below the full block, skipping the classification: more than half the
// coefficients; for 32x32 the last one outside the 24x24 square; for 16x16 DCT_DCT with the zmm
// paths (whose full block costs little more than the 8x8 corner) outside the 8x8 square
// (itx_eob_hint.h).
template <size_t kN, bool kDctDct>
constexpr bool DenseByEob(int eob) {
  if constexpr (kN == 32) return Eob32PastSquare24(eob);
  if constexpr (kN == 16 && kDctDct && V3D_ITX_HAVE_ZMM16) return Eob16PastSquare8(eob);
  return eob > static_cast<int>(kN * kN / 2);
}

#if !(HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE)
// The 20x20 square of the exact-eob entry (SquareByExactEob; no class of NonZeroRegion): 20
// where its columns are checked by sums of squares (ColsBySquares32), else its blocks run the
// 24x24 square. Its 32-point DCTs see 20 non-zero inputs instead of 24: more of their rotations
// take the one-product form (itx_hwy_1d.h, BZ).
constexpr size_t kSquare32x20 = V3D_ITX_COLS32_BY_SQUARES ? 20 : kSquare32x24;

// True iff every coefficient of the 32x32 block outside its top-left 24x24 square is zero: rows
// 24..31 whole, and of rows 0..23 the one vector chunk (up to 32 lanes) holding columns 24..31,
// its lanes left of column 24 masked. Not inlined: inside ItxAddBlock it changed the code of
// the smaller squares' paths there (NEON's by about 50 instructions), which it is no part of.
HWY_NOINLINE bool ZeroPast24(const int16_t *c) {
  const hn::CappedTag<int16_t, 32> d;
  constexpr size_t W = hn::MaxLanes(d);
  constexpr size_t j0 = 24 / W * W;  // the chunk holding column 24
  auto right = hn::Zero(d), below = hn::Zero(d);
  V3D_UNROLL
  for (size_t r = 0; r < 24; r++) right = hn::Or(right, hn::LoadU(d, c + r * 32 + j0));
  V3D_UNROLL
  for (size_t r = 24; r < 32; r++) {
    V3D_UNROLL
    for (size_t j = 0; j < 32; j += W) below = hn::Or(below, hn::LoadU(d, c + r * 32 + j));
  }
  right = hn::IfThenZeroElse(hn::FirstN(d, 24 - j0), right);
  return hn::AllTrue(d, hn::Eq(hn::Or(right, below), hn::Zero(d)));
}

// NonZeroRegion<kN> (itx_hwy_region.h), or for 32x32 blocks whose eob hint puts their last
// coefficient outside the 16x16 square (itx_eob_hint.h) the 24x24 square or the full block
// alone (ZeroPast24): the classes a valid stream's block can then have. Any hint gives an
// exact result: the 24x24 square holds every non-zero coefficient when it is answered.
template <size_t kN>
HWY_INLINE size_t RegionByEob(const int16_t *c, int eob) {
  if constexpr (kN == 32) {
    if (Eob32PastSquare16(eob)) return ZeroPast24(c) ? kSquare32x24 : 32;
  }
  return NonZeroRegion<kN>(c);
}

// The non-zero square of a DCT_DCT block (kN = 16, 32) from an exact eob: every coefficient at
// a default-scan position >= eob is zero (itx_eob_hint.h), so the smallest square among
// NonZeroRegion's classes holding the scan's first eob positions holds them all.
template <size_t kN>
constexpr size_t SquareByExactEob(int eob) {
  static_assert(kN == 16 || kN == 32, "16x16 or 32x32");
  if constexpr (kN == 16) {
    return eob <= kScan16First4Out ? 4 : eob <= kScan16First8Out ? 8 : 16;
  } else {
    if (eob <= kScan32First8Out) return 8;
    if (kSquare32x12 == 12 && eob <= kScan32First12Out) return 12;
    if (eob <= kScan32First16Out) return 16;
    if (kSquare32x20 == 20 && eob <= kScan32First20Out) return 20;
    return eob <= kScan32First24Out ? kSquare32x24 : 32;
  }
}
#endif

#if V3D_ITX_HAVE_16

// Row i of the tile of 8 columns at c, for each 128-bit block b of D (8, 16 or 32 lanes):
// lane 8b + k = coefficient (g + 8b + i, c + k); rows from kNzR on are zero.
template <int kNzR, class D>
HWY_INLINE hn::Vec<D> LoadTileRows32(D d, const int16_t *coeffs, size_t g, size_t i, size_t c) {
  const hn::Full128<int16_t> d8;
  auto row = [&](size_t r) {
    return r < static_cast<size_t>(kNzR) ? hn::LoadU(d8, coeffs + r * 32 + c) : hn::Zero(d8);
  };
  constexpr size_t L = hn::MaxLanes(D());
  if constexpr (L == 8) {
    return row(g + i);
  } else if constexpr (L == 16) {
    return hn::Combine(d, row(g + 8 + i), row(g + i));
  } else {
    static_assert(L == 32, "8, 16 or 32 lanes");
    const hn::Half<D> dh;
    return hn::Combine(d, hn::Combine(dh, row(g + 24 + i), row(g + 16 + i)),
                       hn::Combine(dh, row(g + 8 + i), row(g + i)));
  }
}

// The inverse: block b of v to row g + 8b + i of tmp (32 per row), columns [c, c + 8).
template <class D>
HWY_INLINE void StoreTileRows32(D d, hn::Vec<D> v, int16_t *tmp, size_t g, size_t i, size_t c) {
  const hn::Full128<int16_t> d8;
  int16_t *p = tmp + (g + i) * 32 + c;
  constexpr size_t L = hn::MaxLanes(D());
  if constexpr (L == 8) {
    hn::Store(v, d8, p);
  } else if constexpr (L == 16) {
    hn::Store(hn::LowerHalf(d8, v), d8, p);
    hn::Store(hn::UpperHalf(d8, v), d8, p + 8 * 32);
  } else {
    const hn::Half<D> dh;
    const auto lo = hn::LowerHalf(dh, v), hi = hn::UpperHalf(dh, v);
    hn::Store(hn::LowerHalf(d8, lo), d8, p);
    hn::Store(hn::UpperHalf(d8, lo), d8, p + 8 * 32);
    hn::Store(hn::LowerHalf(d8, hi), d8, p + 16 * 32);
    hn::Store(hn::UpperHalf(d8, hi), d8, p + 24 * 32);
  }
  (void)d;
}

// Whether the row pass's vectors (D) are as wide as the column pass's (up to 32 lanes). Then the
// row results are transposed tile by tile and the column check sums them in the row pass
// (StoreRows32); else (narrower) they are joined into column-wide vectors first and transposed
// there (JoinStoreRows32), and the column check runs on the column pass's inputs, in fewer
// vectors (ColsWithin32).
template <class D>
constexpr bool RowsAsWide32() {
  return hn::MaxLanes(D()) == hn::MaxLanes(hn::CappedTag<int16_t, 32>());
}

// Whether the column check's sums are taken from whole rows of results (StoreRows32's joined
// rows, lane = column: one absolute value and one addition per row) rather than from the
// transposed tiles (per 128-bit block, folded afterwards): where the rows are 32-lane vectors.
template <class D>
constexpr bool ColSumsInRows32() {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return hn::MaxLanes(D()) == 32;
#else
  return false;
#endif
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// 4x4 transpose of 128-bit blocks: block b of out[j] = block j of in[b]. 8 block shuffles.
HWY_INLINE void TransposeBlocks4x4(const __m512i *in, __m512i *out) {
  const __m512i p = _mm512_shuffle_i64x2(in[0], in[1], _MM_SHUFFLE(1, 0, 1, 0));
  const __m512i q = _mm512_shuffle_i64x2(in[0], in[1], _MM_SHUFFLE(3, 2, 3, 2));
  const __m512i r = _mm512_shuffle_i64x2(in[2], in[3], _MM_SHUFFLE(1, 0, 1, 0));
  const __m512i u = _mm512_shuffle_i64x2(in[2], in[3], _MM_SHUFFLE(3, 2, 3, 2));
  out[0] = _mm512_shuffle_i64x2(p, r, _MM_SHUFFLE(2, 0, 2, 0));
  out[1] = _mm512_shuffle_i64x2(p, r, _MM_SHUFFLE(3, 1, 3, 1));
  out[2] = _mm512_shuffle_i64x2(q, u, _MM_SHUFFLE(2, 0, 2, 0));
  out[3] = _mm512_shuffle_i64x2(q, u, _MM_SHUFFLE(3, 1, 3, 1));
}

// LoadTileRows32's tiles for all 32 rows at once (32-lane vectors): x[8t + i] block b =
// coefficients (8b + i, 8t .. 8t + 8), t < 4. Each row is one 64-byte load and the tiles come
// from 4x4 block transposes of rows i, 8 + i, 16 + i, 24 + i: 64 block shuffles and 32 loads,
// where building each vector from four 128-bit loads takes 96 inserts and 128 loads. Rows from
// kNzR on are zero.
template <int kNzR, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadRowTiles32(D d, const int16_t *coeffs, V *x) {
  static_assert(hn::MaxLanes(D()) == 32, "32-lane vectors");
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) {
    __m512i rows[4], tiles[4];
    V3D_UNROLL
    for (size_t b = 0; b < 4; b++) {
      const size_t r = 8 * b + i;
      rows[b] = r < static_cast<size_t>(kNzR) ? hn::LoadU(d, coeffs + r * 32).raw
                                              : _mm512_setzero_si512();
    }
    TransposeBlocks4x4(rows, tiles);
    V3D_UNROLL
    for (size_t t = 0; t < 4; t++) x[8 * t + i] = V{tiles[t]};
  }
}
#endif

// x[k] lane l = coefficient (g + l, k) of the row-major block coeffs, k < 8 * ceil(kNz / 8):
// tiles of 8 columns loaded (LoadRowTiles32 where one vector holds every row, else
// LoadTileRows32) and transposed; rows from kNz on zero.
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadRows32(D d, const int16_t *coeffs, size_t g, V *x) {
  constexpr size_t kTiles = (static_cast<size_t>(kNz) + 7) / 8;  // column tiles read
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(D()) == 32) {  // g == 0: every row in one group
    LoadRowTiles32<kNz>(d, coeffs, x);      // columns from kNz on: not read below
  } else
#endif
  {
    V3D_UNROLL
    for (size_t t = 0; t < 4; t++) {
      V3D_UNROLL
      for (size_t i = 0; i < 8; i++) {
        x[8 * t + i] = t < kTiles ? LoadTileRows32<kNz>(d, coeffs, g, i, 8 * t) : hn::Zero(d);
      }
    }
  }
  V3D_UNROLL
  for (size_t t = 0; t < kTiles; t++) {
    Transpose16(d, x + 8 * t);  // x[8t + k] lane l = coefficient (g + l, 8t + k)
  }
}

// The column-major form of LoadRows32 (ItxDsp::add_exact_eob_cm:
// memory row k = column k, word r = row r): x[k] lane l = coefficient (l, k) is one load of
// column k, rows from kNz on masked to zero as LoadRowTiles32 leaves them; no shuffle. Every
// row in one vector (kNz <= lanes); columns from kNz on: zero, not read.
template <int kNz, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadCols32(D d, const int16_t *cm, V *x) {
  constexpr size_t L = hn::MaxLanes(D());
  static_assert(static_cast<size_t>(kNz) <= L, "every row in one vector");
  const auto rows = hn::FirstN(d, static_cast<size_t>(kNz));
  V3D_UNROLL
  for (size_t k = 0; k < 32; k++) {
    const int16_t *col = cm + k * 32;
    x[k] = k >= static_cast<size_t>(kNz) ? hn::Zero(d)
           : kNz == L                    ? hn::LoadU(d, col)
                                         : hn::MaskedLoad(rows, d, col);
  }
}

// What the 32x32 row pass sums for the column check (StoreRows32, Rows32x16): nothing, the
// |results| per column (the L1 check), or the squares of each column's even and odd rows
// (ColsClassOfSquares).
constexpr int kSumsNone = 0, kSumsL1 = 1, kSumsSquares = 2;

// The row results of the rows [g, g + L), L as the column vectors' lanes (x[8t + i] block b =
// results (g + 8b + i, 8t .. 8t + 8)), to tmp in stores as wide as the column pass's loads, so
// that each load is forwarded from one store: tiles are joined per row with 128-bit block
// shuffles. Rows from kNzR on (zero results) are not stored: tmp holds kNzR rows. Where the
// vectors have 32 lanes (ColSumsInRows32), with kSums == kSumsL1 col_sum[0] lane k (uint16,
// saturating) also adds the |results| of column k over the stored rows, from the joined rows;
// with kSums == kSumsSquares (kNzR = 32) col_sum[0..3] take ColsClassOfSquares's sums of
// squares of the even and odd rows (their raw vectors as 32-bit lanes); otherwise it is
// untouched.
template <int kNzR, int kSums, class D, class V = hn::Vec<D>>
HWY_INLINE void StoreRows32(D d, const V *x, int16_t *tmp, size_t g,
                            hn::Vec<hn::RebindToUnsigned<D>> *col_sum) {
  static_assert(RowsAsWide32<D>(), "row vectors as wide as the column vectors");
  constexpr size_t Lr = hn::MaxLanes(D());
  V3D_UNROLL
  for (size_t i = 0; i < 8; i++) {
    int16_t *row = tmp + (g + i) * 32;
    auto stored = [&](size_t b) { return g + 8 * b + i < static_cast<size_t>(kNzR); };
    if constexpr (Lr == 16) {
      hn::Store(hn::ConcatLowerLower(d, x[8 + i], x[i]), d, row);
      hn::Store(hn::ConcatLowerLower(d, x[24 + i], x[16 + i]), d, row + 16);
      if (!stored(1)) continue;
      hn::Store(hn::ConcatUpperUpper(d, x[8 + i], x[i]), d, row + 8 * 32);
      hn::Store(hn::ConcatUpperUpper(d, x[24 + i], x[16 + i]), d, row + 8 * 32 + 16);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
    } else if constexpr (Lr == 32) {
      // 4x4 transpose of 128-bit blocks: row g + 8b + i = block b of x[i], x[8+i], x[16+i],
      // x[24+i].
      const __m512i tiles[4] = {x[i].raw, x[8 + i].raw, x[16 + i].raw, x[24 + i].raw};
      __m512i rows[4];
      TransposeBlocks4x4(tiles, rows);
      const hn::RebindToUnsigned<D> du;
      V3D_UNROLL
      for (size_t b = 0; b < 4; b++) {
        if (!stored(b)) continue;
        hn::Store(V{rows[b]}, d, row + b * 8 * 32);
        if constexpr (kSums == kSumsL1) {
          *col_sum = hn::SaturatedAdd(*col_sum, hn::BitCast(du, hn::Abs(V{rows[b]})));
        }
      }
#if V3D_ITX_COLS32_BY_SQUARES
      if constexpr (kSums == kSumsSquares) {
        // Rows i, 8 + i, 16 + i, 24 + i share i's parity: rows[0] with rows[1], rows[2] with
        // rows[3], word by word, one column per 32-bit lane (itx_hwy_madd.h).
        static_assert(kNzR == 32, "every row stored");
        using VU = hn::Vec<hn::RebindToUnsigned<D>>;
        const size_t q = 2 * (i & 1);
        V3D_UNROLL
        for (size_t b = 0; b < 4; b += 2) {
          col_sum[q] =
              VU{AddSquaresSat(col_sum[q].raw, _mm512_unpacklo_epi16(rows[b], rows[b + 1]))};
          col_sum[q + 1] =
              VU{AddSquaresSat(col_sum[q + 1].raw, _mm512_unpackhi_epi16(rows[b], rows[b + 1]))};
        }
      }
#endif
#endif
    } else {
      if (!stored(0)) continue;
      V3D_UNROLL
      for (size_t t = 0; t < 4; t++) StoreTileRows32(d, x[8 * t + i], tmp, g, i, 8 * t);
    }
  }
}

// The untransposed row results of the rows [g, g + L), L narrower than the column vectors (x[k]
// lane l = result (g + l, k)), to tmp: x[k], x[8 + k], x[16 + k], x[24 + k] (the row results of
// columns k, 8 + k, 16 + k, 24 + k) are joined block by block into column-wide vectors w, one
// per 8 rows and column-vector chunk, whose in-block 8x8 transposes give whole row chunks
// (block b of w[k] = column k + 8b of 8 rows; after the transpose, block b of w[i] = columns
// 8b .. 8b + 8 of row i). One transpose of wide vectors instead of one per 8x8 tile. Rows from
// kNzR on (zero results) are not stored.
template <int kNzR, class D, class V = hn::Vec<D>>
HWY_INLINE void JoinStoreRows32(D, const V *x, int16_t *tmp, size_t g) {
  const hn::CappedTag<int16_t, 32> dc;
  using VC = hn::Vec<decltype(dc)>;
  constexpr size_t Lr = hn::MaxLanes(D()), Lc = hn::MaxLanes(dc);
  static_assert(Lr < Lc, "row vectors narrower than the column vectors");
  if constexpr (Lr == 8 && Lc == 16) {
    VC w[16];  // w[k]: columns 0..15, w[8 + k]: columns 16..31
    V3D_UNROLL
    for (size_t k = 0; k < 8; k++) {
      w[k] = hn::Combine(dc, x[8 + k], x[k]);
      w[8 + k] = hn::Combine(dc, x[24 + k], x[16 + k]);
    }
    Transpose16(dc, w);
    Transpose16(dc, w + 8);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      hn::Store(w[i], dc, tmp + (g + i) * 32);
      hn::Store(w[8 + i], dc, tmp + (g + i) * 32 + 16);
    }
  } else if constexpr (Lr == 8) {
    const hn::CappedTag<int16_t, 16> dh;
    VC w[8];
    V3D_UNROLL
    for (size_t k = 0; k < 8; k++)
      w[k] = hn::Combine(dc, hn::Combine(dh, x[24 + k], x[16 + k]),
                         hn::Combine(dh, x[8 + k], x[k]));
    Transpose16(dc, w);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) hn::Store(w[i], dc, tmp + (g + i) * 32);
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  } else if constexpr (Lr == 16) {
    VC lo[8], hi[8];  // rows g .. g + 7, rows g + 8 .. g + 15
    V3D_UNROLL
    for (size_t k = 0; k < 8; k++) {
      const __m512i a = hn::Combine(dc, x[8 + k], x[k]).raw;
      const __m512i b = hn::Combine(dc, x[24 + k], x[16 + k]).raw;
      lo[k] = VC{_mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(2, 0, 2, 0))};
      hi[k] = VC{_mm512_shuffle_i64x2(a, b, _MM_SHUFFLE(3, 1, 3, 1))};
    }
    Transpose16(dc, lo);
    Transpose16(dc, hi);
    V3D_UNROLL
    for (size_t i = 0; i < 8; i++) {
      hn::Store(lo[i], dc, tmp + (g + i) * 32);
      if (g + 8 + i < static_cast<size_t>(kNzR)) hn::Store(hi[i], dc, tmp + (g + 8 + i) * 32);
    }
#endif
  }
}

// Whether rows 2j and 2j + 1 of the vectors x[0..kNz) (lane = row, x[k] = column k) have
// squares summing to at most kInt16BoundL2x32^2 together, for every j: then each row's
// coefficients are within the 32-point DCT's L2 bound, and its row DCT keeps every value inside
// int16 (itx_int16_bound.h). vpdpwssds adds the two rows' squares per 32-bit lane, saturating
// at 2^31 - 1 (above the bound); false (the caller's L1 check) where not AVX3_DL.
template <size_t kNz, class D, class V = hn::Vec<D>>
HWY_INLINE bool RowPairsWithinL2(D, const V *x) {
#if V3D_ITX_COLS32_BY_SQUARES
  const hn::Repartition<uint32_t, D> dw;
  using VW = hn::Vec<decltype(dw)>;
  VW a = hn::Zero(dw), b = hn::Zero(dw);
  V3D_UNROLL
  for (size_t k = 0; k < kNz; k += 2) {
    a = VW{AddSquaresSat(a.raw, x[k].raw)};  // itx_hwy_madd.h
    if (k + 1 < kNz) b = VW{AddSquaresSat(b.raw, x[k + 1].raw)};
  }
  // Each sum below 2^31: their total fits uint32.
  constexpr uint32_t kB2 = static_cast<uint32_t>(kInt16BoundL2x32) * kInt16BoundL2x32;
  return hn::AllFalse(dw, hn::Gt(hn::Add(a, b), hn::Set(dw, kB2)));
#else
  (void)x;
  return false;
#endif
}

// Row DCTs of the rows [g, g + L) (non-zero inputs in columns < kNz, rows >= kNz zero; kCm:
// coeffs column-major, every row in one group, LoadCols32), results to tmp (row-major, 32 per
// row), if every one of those rows' |coefficients| sum to at most kB; else false, nothing
// stored. kSums == kSumsL1: where ColSumsInRows32<D>, sum[0] lane k (uint16, saturating) adds
// the |results| of column k over the rows; else where RowsAsWide32<D>, sum[t] lane 8b + k adds
// the |results| of rows g + 8b + [0, 8) in column 8t + k. kSums == kSumsSquares: StoreRows32's
// sums of squares in sum[0..3]. kSumsNone: sum is untouched.
template <int kNz, int kB, int kSums, bool kCm, class D, class V = hn::Vec<D>>
HWY_INLINE bool Rows32x16(D d, const int16_t *coeffs, size_t g, int16_t *tmp,
                          hn::Vec<hn::RebindToUnsigned<D>> *sum) {
  const hn::RebindToUnsigned<D> du;
  V x[32];
  if constexpr (kCm) {
    LoadCols32<kNz>(d, coeffs, x);  // g == 0
  } else {
    LoadRows32<kNz>(d, coeffs, g, x);
  }
  // Lane l: row g + l's sum (columns from kNz on are zero); on AVX3_DL first by squares.
  if (!RowPairsWithinL2<static_cast<size_t>(kNz)>(d, x) &&
      !LanesWithin<kB>(du, AddAbs<static_cast<size_t>(kNz)>(d, x, hn::Zero(du)))) {
    return false;
  }
  TxDct::template Run<32, kNz>(d, x);  // x[k] lane l = result (g + l, k)
  if constexpr (RowsAsWide32<D>()) {
    V3D_UNROLL
    for (size_t t = 0; t < 4; t++) {
      Transpose16(d, x + 8 * t);  // x[8t + i] block b = results (g + 8b + i, 8t .. 8t + 8)
      if constexpr (kSums == kSumsL1 && !ColSumsInRows32<D>()) {
        sum[t] = AddAbs<8>(d, x + 8 * t, sum[t]);
      }
    }
    StoreRows32<kNz, kSums>(d, x, tmp, g, sum);
  } else {
    JoinStoreRows32<kNz>(d, x, tmp, g);
  }
  return true;
}

// Lane k of the sum (saturating) of the 128-bit blocks of s (uint16, 8, 16 or 32 lanes).
template <class DU>
HWY_INLINE auto FoldBlocks(DU du, hn::Vec<DU> s) {
  if constexpr (hn::MaxLanes(DU()) == 8) {
    return s;
  } else {
    const hn::Half<DU> dh;
    return FoldBlocks(dh, hn::SaturatedAdd(hn::LowerHalf(dh, s), hn::UpperHalf(dh, s)));
  }
}

// Whether every column's |row results| (tmp: kNz rows of 32, 64-byte aligned) sum to at most
// kB: the column pass's inputs, one column per lane of dc (up to 32 lanes), summed saturating in
// uint16 (|-32768| = 32768) as the column DCTs load them, kNz vectors per chunk of columns.
template <int kNz, int kB, class DC>
HWY_INLINE bool ColsWithin32(DC dc, const int16_t *tmp) {
  using V = hn::Vec<DC>;
  const hn::RebindToUnsigned<DC> du;
  constexpr size_t L = hn::MaxLanes(DC());
  const auto b = hn::Set(du, static_cast<uint16_t>(kB));
  auto over = hn::Zero(du);
  V3D_UNROLL
  for (size_t c = 0; c < 32; c += L) {
    V x[kNz];
    V3D_UNROLL
    for (size_t i = 0; i < static_cast<size_t>(kNz); i++) x[i] = hn::Load(dc, tmp + i * 32 + c);
    const auto sum = AddAbs<static_cast<size_t>(kNz)>(dc, x, hn::Zero(du));
    over = hn::Or(over, hn::SaturatedSub(sum, b));
  }
  return hn::AllTrue(du, hn::Eq(over, hn::Zero(du)));
}

// Whether the kNz x kNz square's columns are checked by sums of squares (ColsClass32) instead
// of the per-pass L1 bound: AVX3_DL (vpdpwssds), the 16x16, 20x20 and 24x24 squares, whose
// checkasm-like blocks fail the L1 column check but pass the halves' bounds.
template <int kNz>
constexpr bool ColsBySquares32() {
  return V3D_ITX_COLS32_BY_SQUARES && (kNz == 16 || kNz == 20 || kNz == 24);
}

// Whether the full square's columns are classed as by ColsClass32 from sums of squares that its
// row pass forms from the joined rows in registers (StoreRows32, kSumsSquares), in place of the
// L1 column sums there: AVX3_DL. Classed from tmp afterwards (loads and unpacks of every row)
// its small blocks ran slower than with the L1 sums (docs/benchmarks.md).
template <int kNz>
constexpr bool ColsBySquaresInRows32() {
  return V3D_ITX_COLS32_BY_SQUARES && kNz == 32;
}

// What Add32x32x16 left to do, and ColsClass32's classes: the column pass of class 0 (kCols0),
// 1 (kColsHalves) or 2 (kColsTracked) from the row results in tmp (Cols32OfClass, itx_hwy.cpp);
// the same, the columns not classed yet (kRowsOnly: ColsBySquares32, whose caller classes them
// by ColsClass32); nothing (kDone); the whole block (kNone: a coefficient outside the bound,
// nothing written).
enum class Pass32 { kCols0, kColsHalves, kColsTracked, kRowsOnly, kDone, kNone };

#if V3D_ITX_COLS32_BY_SQUARES
// ColsClass32's class (below) from the sums of squares sq[0..3]: sq[0], sq[1] the even rows'
// (one column per 32-bit lane: those of unpacklo, unpackhi of row pairs), sq[2], sq[3] the odd
// rows' likewise.
HWY_INLINE Pass32 ColsClassOfSquares(const __m512i *sq) {
  constexpr int kB = kInt16BoundL2x32, kBe = kInt16BoundL2x32Halves[0];
  constexpr int kBo = kInt16BoundL2x32Halves[1];
  // S_e + S_o < 2^32: unsigned.
  const __mmask16 over = _mm512_cmpgt_epu32_mask(_mm512_add_epi32(sq[0], sq[2]),
                                                 _mm512_set1_epi32(kB * kB)) |
                         _mm512_cmpgt_epu32_mask(_mm512_add_epi32(sq[1], sq[3]),
                                                 _mm512_set1_epi32(kB * kB));
  if (over == 0) return Pass32::kCols0;
  const __m512i e = _mm512_max_epi32(sq[0], sq[1]), o = _mm512_max_epi32(sq[2], sq[3]);
  const __mmask16 out = _mm512_cmpgt_epi32_mask(e, _mm512_set1_epi32(kBe * kBe)) |
                        _mm512_cmpgt_epi32_mask(o, _mm512_set1_epi32(kBo * kBo));
  return out == 0 ? Pass32::kColsHalves : Pass32::kColsTracked;
}

// Which column pass the 32 columns of row results in tmp (kNz rows of 32, 64-byte aligned, the
// rest zero; kNz a multiple of 4) may take, from each column's sums of squares over its even
// rows (S_e) and its odd rows (S_o), one column per 32-bit lane (words of rows r and r + 2
// interleaved, vpdpwssds saturating at 2^31 - 1, which fails every bound below):
//  0 (kCols0): S_e + S_o <= kInt16BoundL2x32^2 for every column: the untracked 16-bit pass
//     (Cols32x16);
//  1 (kColsHalves): else S_e <= B_e^2 and S_o <= B_o^2 (kInt16BoundL2x32Halves): the 16-bit
//     pass tracking the inputs of its odd half's rounding multiplies by cos64(16) only
//     (Cols32x16Sat<kNz, true>);
//  2 (kColsTracked): neither: the saturate-and-detect pass tracking its full set
//     (Cols32x16Sat<kNz>).
// itx_int16_bound.h and docs/itx_int16_bounds.md have the proofs.
template <int kNz>
HWY_INLINE Pass32 ColsClass32(const int16_t *tmp) {
  static_assert(kNz % 4 == 0, "rows in pairs of each parity");
  const __m512i *rows = reinterpret_cast<const __m512i *>(tmp);
  __m512i sq[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                   _mm512_setzero_si512()};  // even rows: low, high words; odd rows: likewise
  V3D_UNROLL
  for (int r = 0; r < kNz; r += 4) {
    V3D_UNROLL
    for (int p = 0; p < 2; p++) {
      const __m512i a = rows[r + p], b = rows[r + p + 2];
      sq[2 * p] = AddSquaresSat(sq[2 * p], _mm512_unpacklo_epi16(a, b));  // itx_hwy_madd.h
      sq[2 * p + 1] = AddSquaresSat(sq[2 * p + 1], _mm512_unpackhi_epi16(a, b));
    }
  }
  return ColsClassOfSquares(sq);
}
#endif

// Column DCTs of the row results in tmp (rows >= kNz zero), Round2 by 6, added to dst with
// unsigned saturation; dc: the column vectors' tag, up to 32 lanes.
template <int kNz, class DC>
HWY_INLINE void Cols32x16(DC dc, uint8_t *dst, ptrdiff_t stride, const int16_t *tmp) {
  using V = hn::Vec<DC>;
  constexpr size_t L = hn::MaxLanes(DC());
  V3D_NO_UNROLL
  for (size_t c = 0; c < 32; c += L) {
    V x[32];
    V3D_UNROLL
    for (size_t i = 0; i < 32; i++)
      x[i] = i < static_cast<size_t>(kNz) ? hn::Load(dc, tmp + i * 32 + c) : hn::Zero(dc);
    TxDct::template Run<32, kNz>(dc, x);
    RoundAdd32Rows(dc, dst, stride, c, x);
  }
}

// The 32x32 DCT_DCT block whose non-zero coefficients lie in the top-left kNz x kNz square
// (kNz = 8, 12, 16, 20, 24, 32) in 16-bit lanes, within the per-pass L1 bound. tmp: kNz rows of
// 32 (64-byte aligned), the exact row results afterwards unless kNone. kCm: coeffs column-major
// (ItxDsp::add_exact_eob_cm), where one row vector holds every row (LoadCols32).
template <int kNz, bool kCm = false>
HWY_NOINLINE Pass32 Add32x32x16(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                int16_t *tmp) {
  static_assert(kNz % 4 == 0 && kNz >= 8 && kNz <= 32, "square of 8, 12, 16, 20, 24 or 32");
  constexpr int kB = kInt16BoundL1[3][0];
  static_assert(kB > 0, "32-point per-pass bound");
  // Rows in vectors of kNz lanes where the target has them (AVX-512: every row at once); 12, 20
  // or 24 rows as 16 or 32 where the vectors are that wide (the last rows zero, their results not
  // stored), else in groups of 8.
  const hn::CappedTag<int16_t, (kNz > 16 ? 32 : kNz > 8 ? 16 : kNz)> dr;
  const hn::CappedTag<int16_t, 32> dc;
  const hn::RebindToUnsigned<decltype(dr)> du;
  using VU = hn::Vec<decltype(du)>;
  constexpr size_t Lr = hn::MaxLanes(dr);
  // The column check where it takes fewer vectors: on the row pass's transposed results where
  // the row and column vectors are as wide, else on the column pass's inputs (kNz vectors per
  // column chunk, where the row pass would need 32 per group of rows).
  constexpr bool kRowSums = RowsAsWide32<decltype(dr)>();
  constexpr bool kSquares = ColsBySquares32<kNz>();
  constexpr int kSums = kSquares                      ? kSumsNone
                        : ColsBySquaresInRows32<kNz>() ? kSumsSquares
                                                       : kSumsL1;
  VU sum[4] = {hn::Zero(du), hn::Zero(du), hn::Zero(du), hn::Zero(du)};
  V3D_NO_UNROLL
  for (size_t g = 0; g < static_cast<size_t>(kNz); g += Lr) {
    if (!Rows32x16<kNz, kB, kSums, kCm>(dr, coeffs, g, tmp, sum)) return Pass32::kNone;
  }
  if constexpr (kSquares) {
    return Pass32::kRowsOnly;
#if V3D_ITX_COLS32_BY_SQUARES
  } else if constexpr (kSums == kSumsSquares) {
    const __m512i sq[4] = {sum[0].raw, sum[1].raw, sum[2].raw, sum[3].raw};
    return ColsClassOfSquares(sq);
#endif
  } else if constexpr (ColSumsInRows32<decltype(dr)>()) {
    // Column k's sum: lane k of sum[0].
    if (!LanesWithin<kB>(du, sum[0])) return Pass32::kColsTracked;
  } else if constexpr (kRowSums) {
    // Column 8t + k's sum: lane k of sum[t]'s blocks added.
    const hn::Full128<uint16_t> d8;
    const auto b = hn::Set(d8, static_cast<uint16_t>(kB));
    auto over = hn::SaturatedSub(FoldBlocks(du, sum[0]), b);
    V3D_UNROLL
    for (size_t t = 1; t < 4; t++) over = hn::Or(over, hn::SaturatedSub(FoldBlocks(du, sum[t]), b));
    if (!hn::AllTrue(d8, hn::Eq(over, hn::Zero(d8)))) return Pass32::kColsTracked;
  } else if (!ColsWithin32<kNz, kB>(dc, tmp)) {
    return Pass32::kColsTracked;
  }
  // The column pass loads the row results from tmp: left to itself GCC carries them over from
  // the row pass in registers and spill slots instead, a form that ran the AVX3 target's path
  // several times slower (docs/benchmarks.md, code placement); the loads cost little.
#if HWY_ARCH_X86
  asm volatile("" ::: "memory");
#endif
  Cols32x16<kNz>(dc, dst, stride, tmp);
  return Pass32::kDone;
}

#endif  // V3D_ITX_HAVE_16
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_ITX_HWY_32_H_
