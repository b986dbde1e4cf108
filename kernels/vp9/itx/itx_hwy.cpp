// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 inverse transform + add on SIMD (Google Highway, dynamic dispatch): one implementation,
// compiled for every Highway target (SSSE3, SSE4, AVX2, AVX3, AVX3_DL on x86-64; NEON on
// aarch64; the one-lane fallback target keeps the scalar references), chosen once by
// itx_dsp_init_simd() through HWY_DYNAMIC_DISPATCH.
// Files: itx_hwy_1d.h (1-D butterflies), itx_hwy_region.h (the fast paths' region
// classification; itx_eob_hint.h: when the eob hint skips it), simd/transpose_i32.h (tiles),
// itx_hwy_madd.h (x86 pair products; vpdpwssd on AVX3_DL), itx_hwy_16.h (the 16-bit path),
// itx_hwy_4x4.h (x86 4x4 in two registers), itx_hwy_8x8.h
// (x86 AVX2 and up: itx_hwy_8x8_ymm.h, the 8x8 block in four 256-bit registers; AVX3_DL
// DCT_DCT: itx_hwy_8x8_zmm.h, in two 512-bit registers),
// itx_hwy_16x16.h, itx_hwy_16x16_zmm{,_dct,_adst}.h (AVX-512), itx_hwy_32.h (8x8 and 16x16, 32x32
// DCT_DCT, in 16-bit lanes behind per-pass bounds), itx_hwy_sat.h (saturate-and-detect column
// passes), itx_hwy_columns.h (the general path's column passes), itx_cm.h and itx_hwy_cm.h (the
// column-major slots' transposing fallback); itx_neon_4x4.h and itx_neon_dc.h (aarch64 NEON only: the 4x4 slots, and DC-only
// DCT_DCT blocks of every size); itx_hwy_dc.h (DC-only blocks on every target); itx_hwy_wht.h
// (the lossless WHT).
//
// 16-bit path (itx_hwy_16.h, itx_hwy_8x8.h, itx_hwy_16x16.h, itx_hwy_32.h): 4x4 blocks whose
// coefficients are all within the proven bounds of itx_int16_bound.h run in int16 lanes, as
// FFmpeg's and libvpx's SIMD do (x86 4x4 in two registers), and 8x8, 16x16 and 32x32 DCT_DCT
// blocks behind per-pass bounds (each pass's 1-D inputs checked; 8x8 DCT_DCT 2x2/4x4 corners on
// their own paths behind per-corner bounds; 16x16 in Try16x16 below; 32x32 DCT_DCT per square
// in Add32x32Pass16); every other block takes the int32 path below, which is exact for any int16
// input. 16x16 and 32x32 DCT columns run in int16 lanes where the int32 row pass's results are
// within the proven column bound (ColPass16).
//
// Layout: int32 lanes throughout (exact 32-bit wrapping arithmetic, see itx_hwy_1d.h). Lanes
// L = min(n, vector lanes): 4 on SSE4/NEON, 8 on AVX2, 16 on AVX3. Row pass: L rows at once,
// loaded as L x L tiles, transposed so that lane = row; column pass: L columns at once, lane =
// column, after transposing the row results back. When L == n the whole block stays in
// registers; otherwise the row results go through a small aligned stack buffer.
//
// Fast paths, derived from the coefficients only (eob only decides whether to look for them, so
// the result never depends on it): DC only (DCT_DCT: one constant added with saturating 8-bit
// arithmetic), and "all non-zero coefficients inside the top-left T x T square" (rows >= T
// skipped, and the 1-D transforms specialised at compile time for zero inputs >= T).
// Hand-written intrinsics only where Highway 1.0.3 lacks the operation: AVX-512's saturating
// narrow and 128-bit block shuffle, NEON's integer multiply-accumulate.

#include "vp9/itx/itx.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

// Arrays of vectors need sized vector types: no SVE (the NEON code serves those CPUs).
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SVE | HWY_SVE2 | HWY_SVE_256 | HWY_SVE2_128)
#endif

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "vp9/itx/itx_hwy.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "vp9/itx/itx_hwy_1d.h"
#include "vp9/itx/itx_hwy_region.h"
#include "simd/transpose_i32.h"
#include "vp9/itx/itx_hwy_add32.h"
#include "vp9/itx/itx_neon_const.h"
#include "vp9/itx/itx_hwy_madd.h"
#include "vp9/itx/itx_hwy_16.h"
#include "vp9/itx/itx_hwy_4x4.h"
#include "vp9/itx/itx_hwy_sat.h"
#include "vp9/itx/itx_hwy_columns.h"
#include "vp9/itx/itx_hwy_8x8.h"
#include "vp9/itx/itx_hwy_8x8_ymm.h"
#include "vp9/itx/itx_hwy_8x8_zmm.h"
#include "vp9/itx/itx_hwy_16x16.h"
#include "vp9/itx/itx_hwy_16x16_zmm.h"
#include "vp9/itx/itx_hwy_16x16_zmm_dct.h"
#include "vp9/itx/itx_hwy_16x16_zmm_adst.h"
#include "vp9/itx/itx_hwy_32.h"
#include "vp9/itx/itx_neon_dc.h"
#include "vp9/itx/itx_hwy_dc.h"
#include "vp9/itx/itx_neon_4x4.h"
#include "vp9/itx/itx_hwy_wht.h"
#include "vp9/itx/itx_hwy_cm.h"  // and itx_cm.h

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE
// One-lane vectors: nothing to gain over the reference, which stays in the table. Scalable
// vectors (SVE, RVV; normally disabled above) cannot form the arrays of vectors used here.
void InitItxSimd(ItxDsp *) {}
#else

using simd::HWY_NAMESPACE::TransposeTile;

#if V3D_ITX_HAVE_16
// The 32-bit column pass of an 8x8 block from the rows of the 16-bit row pass (v[i] = row i,
// 8 int16 lanes; rows >= kNz zero), for Add8x8PerPass when the row results fail the column
// bound: widened to int32 as the column vectors' columns [c, c + L) need them.
template <class D, class V16>
HWY_INLINE hn::Vec<D> Widen16(D d, V16 v, size_t /* c */, hwy::SizeTag<8>) {
  return hn::PromoteTo(d, v);
}
template <class D, class V16>
HWY_INLINE hn::Vec<D> Widen16(D d, V16 v, size_t c, hwy::SizeTag<4>) {
  const hn::Half<hn::DFromV<V16>> dh;
  return hn::PromoteTo(d, c == 0 ? hn::LowerHalf(dh, v) : hn::UpperHalf(dh, v));
}
template <class Col, int kNz>
struct Col32From16 {
  uint8_t *dst;
  ptrdiff_t stride;
  template <class V16>
  HWY_INLINE void operator()(const V16 *v) const {
    using D = hn::CappedTag<int32_t, 8>;
    auto get = [v](size_t i, size_t c) {
      return Widen16(D(), v[i], c, hwy::SizeTag<hn::MaxLanes(D())>());
    };
    Columns<8, Col, kNz>(D(), dst, stride, get, false);
  }
};
// The 32x32 DCT columns of the exact int16 row results in tmp (kNz rows of 32) by their class
// (Pass32: kCols0, kColsHalves or kColsTracked), class_of(tmp): the one the row pass found, or
// ColsClass32 on tmp here, whose loads of the row results the untracked pass then shares. By
// class: the untracked 16-bit pass (Cols32x16); the pass tracking the odd half's inputs of H;
// else, and for class 2, each column chunk in 16-bit lanes by saturate and detect
// (itx_hwy_sat.h), or, where that detects a possible saturation, in 32-bit lanes from the same
// row results. Only the squares classed by sums of squares (ColsBySquares32,
// ColsBySquaresInRows32: one column chunk) have classes 0 and 1. A function of its own: the
// untracked pass inlined into the full square's row pass (Add32x32x16) ran several times slower
// on some blocks (docs/benchmarks.md).
template <int kNz, class ClassOf>
HWY_NOINLINE void Cols32OfClass(uint8_t *dst, ptrdiff_t stride, const int16_t *tmp,
                                const ClassOf &class_of) {
  using D = hn::CappedTag<int32_t, 32>;
  using DC = hn::CappedTag<int16_t, 32>;
  constexpr size_t Lc = hn::MaxLanes(DC()), L = hn::MaxLanes(D());
#if V3D_ITX_COLS32_BY_SQUARES
  if constexpr (ColsBySquares32<kNz>() || ColsBySquaresInRows32<kNz>()) {
    static_assert(Lc == 32, "one column chunk");
    const Pass32 cls = class_of(tmp);
    if (cls == Pass32::kCols0) return Cols32x16<kNz>(DC(), dst, stride, tmp);
    if (cls == Pass32::kColsHalves && Cols32x16Sat<kNz, true>(DC(), dst, stride, tmp, 0)) return;
  }
#endif
  (void)class_of;
  V3D_NO_UNROLL
  for (size_t c0 = 0; c0 < 32; c0 += Lc) {
    if (Cols32x16Sat<kNz>(DC(), dst, stride, tmp, c0)) continue;
    for (size_t x = c0; x < c0 + Lc; x += L)
      Col32Apart<32, TxDct, kNz>(D(), dst, stride, x, FromBuffer16<32, D>{tmp});
  }
}

// A 32x32 DCT_DCT block non-zero only in the top-left kNz x kNz square through the 16-bit path
// (itx_hwy_32.h); where its columns are left to do, Cols32OfClass by the class the row pass
// found, or, where ColsBySquares32, by ColsClass32. False (nothing written): a coefficient is
// outside the 16-bit path's bound. kCm: c column-major (Add32x32x16).
template <int kNz, bool kCm = false>
HWY_NOINLINE bool Add32x32Pass16(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  HWY_ALIGN int16_t tmp[kNz * 32];
  const Pass32 r = Add32x32x16<kNz, kCm>(dst, stride, c, tmp);
  if (r == Pass32::kNone) return false;
  if (r == Pass32::kDone) return true;
#if V3D_ITX_COLS32_BY_SQUARES
  if constexpr (ColsBySquares32<kNz>()) {
    const auto by_squares = [](const int16_t *t) { return ColsClass32<kNz>(t); };
    Cols32OfClass<kNz>(dst, stride, tmp, by_squares);
    return true;
  }
#endif
  const auto found = [r](const int16_t *) { return r; };
  Cols32OfClass<kNz>(dst, stride, tmp, found);
  return true;
}
#endif

// 2-D transform of an kN x kN block whose non-zero coefficients all lie in rows < kNzR and
// columns < kNzC. Row transform Row, column transform Col (TxDct / TxAdst).
// Row pass: lane = row; column pass: full-width vectors, lane = column. Full blocks that fit one
// vector (kN == L) stay in registers. A corner block of up to 16 x 16 whose non-zero rows fit
// one narrow vector (4, 8 or 16 lanes) transforms and transposes only those rows, and its
// column vectors are put together in registers from the row pass's tiles. Otherwise the row
// results go through a small aligned stack buffer.
// try16: whether to look for the 16-bit column pass (a hint; both passes are exact). kCm:
// coeffs column-major (ItxDsp::add_exact_eob_cm), whose memory rows are the row pass's inputs
// as they lie: no first transpose (RowPass's column loads where the row pass is not in one
// vector).
template <size_t kN, class Row, class Col, int kNzR, int kNzC, bool kCm = false>
HWY_NOINLINE void Add2D(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, bool try16 = true) {
  using D = hn::CappedTag<int32_t, kN>;
  using V = hn::Vec<D>;
  const D d;
  constexpr size_t L = hn::MaxLanes(D());
  constexpr int kShift = kN == 4 ? 4 : kN == 8 ? 5 : 6;
  constexpr size_t kR = static_cast<size_t>(kNzR);
  static_assert(!kCm || kNzR == kNzC, "column-major: a square of non-zero coefficients");
  if constexpr (L == kN && (kR == kN || kN == 4)) {
    const hn::Rebind<int16_t, D> d16;
    V v[kN];
    V3D_UNROLL
    for (size_t i = 0; i < kN; i++)
      v[i] = i < kR ? hn::PromoteTo(d, hn::LoadU(d16, coeffs + i * kN)) : hn::Zero(d);
    if constexpr (!kCm) TransposeTile(d, v);  // v[k] lane i = coefficient (i, k)
    Row::template Run<kN, kNzC>(d, v);
    TransposeTile(d, v);  // v[i] lane k = row i of the intermediate
    Col::template Run<kN, kNzR>(d, v);
    V3D_UNROLL
    for (size_t i = 0; i < kN; i++) {
      AddRow<kShift>(d, dst + static_cast<ptrdiff_t>(i) * stride, v[i]);
    }
    return;
  }
  // Narrow row pass: the fewest of 4, 8, 16 lanes holding the kR rows. Kept in registers when
  // one group of rows does and kN <= 16 (32 vectors of both passes at once would spill). The
  // buffered form uses full-width rows: loads wider than the stores that wrote them would miss
  // store-to-load forwarding.
  constexpr size_t kWant = kR <= 4 ? 4 : kR <= 8 ? 8 : 16;
  constexpr size_t kNarrow = kWant < L ? kWant : L;
  constexpr bool kInRegs = kR <= kNarrow && kN <= 16;
  using DR = hn::CappedTag<int32_t, (kInRegs ? kNarrow : L)>;
  using VR = hn::Vec<DR>;
  const DR dr;
  constexpr size_t Lr = hn::MaxLanes(DR());
  constexpr size_t kRows = (kR + Lr - 1) / Lr * Lr;  // rows the row pass computes
  if constexpr (kInRegs) {
    VR v[kN];
    RowPass<kN, Row, kNzR, kNzC, kCm>(dr, coeffs, 0, v);
    Columns<kN, Col, kNzR>(d, dst, stride, FromTiles<D, DR>{v}, try16);
  } else {
    HWY_ALIGN int32_t tmp[kRows * kN];
    V3D_NO_UNROLL
    for (size_t g = 0; g < kRows; g += Lr) {
      VR v[kN];
      RowPass<kN, Row, kNzR, kNzC, kCm>(dr, coeffs, g, v);
      V3D_UNROLL
      for (size_t j = 0; j < kN; j++) hn::Store(v[j], dr, tmp + (g + j % Lr) * kN + j / Lr * Lr);
    }
    Columns<kN, Col, kNzR>(d, dst, stride, FromBuffer<kN, D>{tmp}, try16);
  }
}

#if V3D_ITX_HAVE_16
// The end of a 16-bit 16x16 attempt that returned r: done or rejected as r says, or, when its
// columns failed their check, the 32-bit columns of the exact row results in rows.
template <class Col, int kNz>
HWY_INLINE bool Finish16x16(Int16Result r, uint8_t *dst, ptrdiff_t stride, const int16_t *rows) {
  if (r != Int16Result::kColumnsFailed) return r == Int16Result::kDone;
  using D = hn::CappedTag<int32_t, 16>;
  Columns<16, Col, kNz>(D(), dst, stride, FromBuffer16<16, D>{rows}, false);
  return true;
}

// The 16-bit row pass of a 16x16 block whose non-zero coefficients lie in the top-left kNz x
// kNz square, where the rows pass its per-pass bound (else false, nothing written); the
// columns in 16-bit lanes, else in 32-bit lanes. Not inlined: its row buffer would otherwise
// enlarge the frame of every call of ItxAdd, DC-only ones included.
template <class Row, class Col, int kNz>
HWY_NOINLINE bool Add16x16Rows16(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  constexpr bool kRowAdst = std::is_same<Row, TxAdst>::value;
  constexpr bool kColAdst = std::is_same<Col, TxAdst>::value;
  HWY_ALIGN int16_t rows[16 * 16];
  return Finish16x16<Col, kNz>(Add16x16Int16<kRowAdst, kColAdst, kNz>(dst, stride, c, rows),
                               dst, stride, rows);
}

#if V3D_ITX_HAVE_ZMM16
// DCT_DCT 16x16 blocks whose non-zero square is larger than this take the zmm path; the 2x2
// and 4x4 corners are faster on their own path (TryCorner16x16: in zmm they are slower).
constexpr size_t kZmmFrom16x16 = 4;

// As Add16x16Rows16, in zmm registers (itx_hwy_16x16_zmm.h, itx_hwy_16x16_zmm_adst.h).
template <class Row, class Col, int kNz>
HWY_NOINLINE bool Add16x16Zmm(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  HWY_ALIGN int16_t rows[16 * 16];
  return Finish16x16<Col, kNz>(Add16x16Zmm16<Row, Col, kNz>(dst, stride, c, rows), dst, stride,
                               rows);
}
#endif

// 16x16 blocks whose rows pass the row transform's per-pass L1 bound (kInt16BoundL1; the 4x4
// and 8x8 corners skip their zero inputs) take the 16-bit row pass; returns false, having
// written nothing, for the others, for DC only (left to the caller) and, on AVX-512, for the
// full block. region: the side of the block's non-zero top-left square (16 when not looked for).
template <class Row, class Col>
HWY_INLINE bool Try16x16(uint8_t *dst, ptrdiff_t stride, const int16_t *c, size_t region) {
  constexpr bool kDctDct = std::is_same<Row, TxDct>::value && std::is_same<Col, TxDct>::value;
  // Where one int32 vector holds a whole row (AVX-512) the full block's 32-bit path is as fast
  // as the 16-bit one in 256-bit vectors: only the corners take it there.
  constexpr bool kFull32 = hn::MaxLanes(hn::ScalableTag<int32_t>()) >= 16;
  if (region <= 1) return false;
#if V3D_ITX_HAVE_ZMM16
  // AVX-512: the zmm paths, DCT_DCT from the 8x8 corner on, the ADST types for the full block.
  if (region > (kDctDct ? kZmmFrom16x16 : 8)) {
    return region <= 8 ? Add16x16Zmm<Row, Col, 8>(dst, stride, c)
                       : Add16x16Zmm<Row, Col, 16>(dst, stride, c);
  }
#endif
  if (region <= 4) {
    if constexpr (kDctDct) {
      if (TryCorner16x16(dst, stride, c)) return true;
    }
    return Add16x16Rows16<Row, Col, 4>(dst, stride, c);
  }
  if (region <= 8) return Add16x16Rows16<Row, Col, 8>(dst, stride, c);
  if constexpr (!kFull32) return Add16x16Rows16<Row, Col, 16>(dst, stride, c);
  return false;
}
#endif

// A block whose non-zero coefficients all lie in the top-left region x region square (a class
// of itx_hwy_region.h; kN when not looked for), on the fastest path exact for it: the 16-bit
// paths behind their checks, else the 32-bit path of that square. dense: the square was not
// looked for; the full block's 32-bit path then skips its 16-bit column check, since such
// blocks' row results are the most likely to exceed the column bound. (16x16 and 32x32 still
// try their own 16-bit paths, whose checks come first and are cheap against the saving.)
// kCm: c column-major, 32x32 DCT_DCT on AVX-512 (Add32x32x16, Add2D).
template <size_t kN, class Row, class Col, bool kCm = false>
HWY_INLINE void AddSquare(uint8_t *dst, ptrdiff_t stride, const int16_t *c, size_t region,
                          bool dense) {
  constexpr bool kDctDct = std::is_same<Row, TxDct>::value && std::is_same<Col, TxDct>::value;
  static_assert(!kCm || (kN == 32 && kDctDct), "column-major: 32x32 DCT_DCT");
#if V3D_ITX_HAVE_16
  // 16x16 with every coefficient within the row transform's 1-D bound: both passes in 16-bit
  // lanes (itx_hwy_16x16.h), or, where a row result exceeds the column bound, the 32-bit
  // column pass from the 16-bit row results.
  if constexpr (kN == 16) {
    if (Try16x16<Row, Col>(dst, stride, c, region)) return;
  }
  // 32x32 DCT_DCT within the per-pass bounds of its square: both passes in 16-bit lanes.
  if constexpr (kN == 32 && kDctDct) {
    if (region > 1 && region <= 8 && Add32x32Pass16<8, kCm>(dst, stride, c)) return;
    if (region > 8 && region <= kSquare32x12 && Add32x32Pass16<12, kCm>(dst, stride, c)) return;
    if (region > kSquare32x12 && region <= 16 && Add32x32Pass16<16, kCm>(dst, stride, c)) return;
    // 20: the exact-eob entry's square (itx_hwy_32.h, kSquare32x20), 24 where there is none.
    if (region > 16 && region <= kSquare32x20 && Add32x32Pass16<kSquare32x20, kCm>(dst, stride, c))
      return;
    if (region > kSquare32x20 && region <= kSquare32x24 && Add32x32Pass16<24, kCm>(dst, stride, c))
      return;
    if (region > kSquare32x24 && Add32x32Pass16<32, kCm>(dst, stride, c)) return;
  }
#endif
  switch (region) {
    case 1:
      if constexpr (kDctDct) return AddDc<kN>(dst, stride, c[0]);
      else return Add2D<kN, Row, Col, 1, 1>(dst, stride, c);
    case 4:
#if V3D_ITX_HAVE_16
      if constexpr (kN == 16 && kDctDct) {
        if (TryCorner16x16(dst, stride, c)) return;
      }
#endif
      if constexpr (kN == 8 || kN == 16) return Add2D<kN, Row, Col, 4, 4>(dst, stride, c);
      break;
    case 8:
      if constexpr (kN == 16 || kN == 32) return Add2D<kN, Row, Col, 8, 8, kCm>(dst, stride, c);
      break;
    case 16:
      if constexpr (kN == 32) return Add2D<kN, Row, Col, 16, 16, kCm>(dst, stride, c);
      break;
    default:
      break;
  }
  Add2D<kN, Row, Col, static_cast<int>(kN), static_cast<int>(kN), kCm>(dst, stride, c, !dense);
}

// Every block but the DC-only ones of ItxAdd (below). Not inlined: the stack frame and saved
// registers that its paths need would otherwise be set up on ItxAdd's DC-only path too.
template <size_t kN, class Row, class Col>
HWY_NOINLINE void ItxAddBlock(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  constexpr bool kDctDct = std::is_same<Row, TxDct>::value && std::is_same<Col, TxDct>::value;
  [[maybe_unused]] constexpr int kN2 = static_cast<int>(kN * kN);
#if V3D_ITX_HAVE_16
  constexpr bool kRowAdst = std::is_same<Row, TxAdst>::value;
  constexpr bool kColAdst = std::is_same<Col, TxAdst>::value;
  if constexpr (kN == 4) {
    // ADST_DCT (1) is ADST on columns; DCT_ADST (2) on rows.
    constexpr int kBound = kInt16Bound[0][(kColAdst ? 1 : 0) + (kRowAdst ? 2 : 0)];
#if HWY_ARCH_X86
    // The two-register path, with its own bound check.
    // The 2x2-corner form is looked for when the hint leaves room for it (eob <= 8 of 16).
    if (Add4x4x86<kRowAdst, kColAdst, kBound>(dst, stride, c, eob <= kN2 / 2)) return;
#else
    if (InBound16<kN>(c, kBound)) return Add2D16<kN, kRowAdst, kColAdst>(dst, stride, c);
#endif
  }
  // Where the 32-bit path has 8 lanes (AVX2, AVX-512), ADST_ADST in 128-bit vectors of int16
  // does not beat it: it stays on the 32-bit path there.
  // (With the four-register form of AVX2 and up, its 8x8 blocks beyond the 4x4 corner do.)
  constexpr bool kPays8 = hn::MaxLanes(hn::ScalableTag<int32_t>()) < 8 || !(kRowAdst && kColAdst);
  if constexpr (kN == 8 && (kPays8 || V3D_ITX_HAVE_8X8_YMM)) {
    // 16-bit lanes: behind the 2-D bound (one cheap check, which the small coefficients of most
    // real blocks pass), else behind the per-pass bounds (itx_hwy_8x8.h), else the 32-bit path
    // of the same non-zero square. Blocks dense by the hint skip the 2-D check on x86, as they
    // mostly fail it; on NEON, where the per-pass checks cost more (two-micro-op Q-form abs and
    // saturating adds), it stays first.
    constexpr int kBound = kInt16Bound[1][(kColAdst ? 1 : 0) + (kRowAdst ? 2 : 0)];
#if HWY_ARCH_X86
    constexpr bool kDense2d = false;
#else
    constexpr bool kDense2d = true;
#endif
    if (eob <= kN2 / 2) {
      // DCT_DCT with every non-zero coefficient in the 2x2 or 4x4 corner, within that corner's
      // bound: the corner path.
      if constexpr (kDctDct && !V3D_ITX_HAVE_8X8_YMM) {  // else AddSparse8x8 looked first
        const int corner = Corner8x8(c);
        if (corner == 2) return AddCorner8x8<2>(dst, stride, c);
        if (corner == 4) return AddCorner8x8<4>(dst, stride, c);
      }
      const size_t region = NonZeroRegion<kN>(c);
      if (region == 1 && kDctDct) return AddDc<kN>(dst, stride, c[0]);
      if constexpr (!kPays8) {  // the 32-bit path's own corners
        if (region == 1) return Add2D<kN, Row, Col, 1, 1>(dst, stride, c);
        if (region <= 4) return Add2D<kN, Row, Col, 4, 4>(dst, stride, c);
      }
      if (region <= 4) {
        if (InBound16<kN>(c, kBound)) return Add2D16<kN, kRowAdst, kColAdst, 4>(dst, stride, c);
        if (Add8x8PerPass<kRowAdst, kColAdst, 4>(dst, stride, c, Col32From16<Col, 4>{dst, stride}))
          return;
        return Add2D<kN, Row, Col, 4, 4>(dst, stride, c);
      }
    }
#if V3D_ITX_HAVE_8X8_YMM
    // AVX2 and up: the same checks, the block in four 256-bit registers (itx_hwy_8x8_ymm.h).
    {
      const Col32From16<Col, 8> col32{dst, stride};
      if (eob <= kN2 / 2 && InBound16<kN>(c, kBound)) {
        Add8x8Y<kRowAdst, kColAdst, false>(dst, stride, c, col32);
        return;
      }
#if V3D_ITX_HAVE_8X8_ZMM
      // AVX3_DL: the block in two 512-bit registers (itx_hwy_8x8_zmm.h).
      if (Add8x8Zmm<kRowAdst, kColAdst>(dst, stride, c, col32)) return;
      return Add2D<kN, Row, Col, 8, 8>(dst, stride, c, false);
#endif
      if (Add8x8Y<kRowAdst, kColAdst, true>(dst, stride, c, col32)) return;
      return Add2D<kN, Row, Col, 8, 8>(dst, stride, c, false);
    }
#endif
    if ((kDense2d || eob <= kN2 / 2) && InBound16<kN>(c, kBound))
      return Add2D16<kN, kRowAdst, kColAdst>(dst, stride, c);
    if (Add8x8PerPass<kRowAdst, kColAdst, 8>(dst, stride, c, Col32From16<Col, 8>{dst, stride}))
      return;
    return Add2D<kN, Row, Col, 8, 8>(dst, stride, c, false);
  }
#endif
  // Dense blocks (by the hint) are not classified (their non-zero square is the whole block).
  const bool dense = kN > 4 && DenseByEob<kN, kDctDct>(eob);
  AddSquare<kN, Row, Col>(dst, stride, c, dense ? kN : RegionByEob<kN>(c, eob), dense);
}

// eob is only a hint: eob == 1 makes the DC-only check the first (and, when it holds, the only)
// look at the coefficients; DenseByEob (itx_hwy_32.h) skips the classification pass for blocks
// that are almost certainly dense. Every path is chosen from the coefficients themselves or is the
// full path, which is exact for any block, so the result does not depend on eob.
template <size_t kN, class Row, class Col>
void ItxAdd(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  constexpr bool kDctDct = std::is_same<Row, TxDct>::value && std::is_same<Col, TxDct>::value;
#if V3D_ITX_NEON_DC
  if constexpr (kDctDct) {
    if (eob == 1 && neondc::TryDc<kN>(dst, stride, c)) return;  // itx_neon_dc.h
    return ItxAddBlock<kN, Row, Col>(dst, stride, c, eob);
  }
#endif
  if (eob == 1 && OnlyDc<kN>(c)) {
    if constexpr (kDctDct) return AddDc<kN>(dst, stride, c[0]);
    else return Add2D<kN, Row, Col, 1, 1>(dst, stride, c);
  }
  if constexpr (kN == 8 && kDctDct && V3D_ITX_HAVE_8X8_YMM) {  // itx_hwy_8x8_ymm.h
    if (eob <= 32) return AddSparse8x8<&ItxAddBlock<8, TxDct, TxDct>>(dst, stride, c, eob);
  }
  return ItxAddBlock<kN, Row, Col>(dst, stride, c, eob);
}

#if V3D_ITX_HAVE_ZMM16
// AddSquare's 16-bit paths for a 16x16 ADST-type block given column-major whose non-zero
// square is kNz x kNz, each loading the block as it lies: 4 (not ADST_ADST): Add16x16Int16;
// 8 and 16: the zmm kernel. False, nothing written, where the rows fail their check. The row
// results left for the 32-bit columns (rows) are row-major as ever.
template <class Row, class Col, int kNz>
HWY_NOINLINE bool Add16x16Cm(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  constexpr bool kRowAdst = std::is_same<Row, TxAdst>::value;
  constexpr bool kColAdst = std::is_same<Col, TxAdst>::value;
  HWY_ALIGN int16_t rows[16 * 16];
  Int16Result r;
  if constexpr (kNz >= 8) r = Add16x16AdstZmm<kRowAdst, kColAdst, kNz, true>(dst, stride, c, rows);
  else r = Add16x16Int16<kRowAdst, kColAdst, kNz, true>(dst, stride, c, rows);
  return Finish16x16<Col, kNz>(r, dst, stride, rows);
}
// The add_exact_eob_cm slot of a 16x16 ADST type: ItxAdd<16, Row, Col>'s choices on the
// column-major block (DC only and the 1x1 square read c[0], the same in both layouts; the
// squares of NonZeroRegion are their own transposes), but the 8x8 square, and ADST_ADST's 4x4,
// in zmm (kCorner). Blocks whose rows fail their check (beyond valid streams) take the
// transposing fallback.
template <class Row, class Col>
void ItxAddCm16(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  constexpr int kCorner = std::is_same<Row, TxAdst>::value && std::is_same<Col, TxAdst>::value
                              ? 8 : 4;
  if (eob == 1 && OnlyDc<16>(c)) return Add2D<16, Row, Col, 1, 1>(dst, stride, c);
  const size_t region = DenseByEob<16, false>(eob) ? 16 : NonZeroRegion<16>(c);
  if (region == 1) return Add2D<16, Row, Col, 1, 1>(dst, stride, c);
  const bool done = region <= 4   ? Add16x16Cm<Row, Col, kCorner>(dst, stride, c)
                    : region <= 8 ? Add16x16Cm<Row, Col, 8>(dst, stride, c)
                                  : Add16x16Cm<Row, Col, 16>(dst, stride, c);
  if (!done) ColMajorByTranspose<16, &ItxAdd<16, Row, Col>>(dst, stride, c, eob);
}
#endif

// The DCT_DCT add_exact_eob slots from 8x8 on (itx.h): every coefficient at a scan position >= eob
// is zero, so eob alone places the non-zero ones (itx_eob_hint.h): eob 1 is DC only; else the
// block takes the path ItxAddBlock gives a block in the scan's square; values are still checked.
// kCm: the column-major slot (add_exact_eob_cm; eob 1's c[0] is the same), 32x32 on AVX-512.
template <size_t kN, bool kCm = false>
HWY_NOINLINE void AddSquareByExactEob(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  const size_t square = SquareByExactEob<kN>(eob);
  AddSquare<kN, TxDct, TxDct, kCm>(dst, stride, c, square, square == kN);
}
template <size_t kN, bool kCm = false>
void ItxAddExactEob(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return AddDc<kN>(dst, stride, c[0]);
  if constexpr (kN == 8) {
#if V3D_ITX_HAVE_8X8_YMM
    if (eob <= kScan8First2Out && CornerWithin8x8<2>(c)) return AddCorner8x8Y2(dst, stride, c);
    if (eob <= kScan8First4Out && CornerWithin8x8<4>(c)) return AddCorner8x8Y(dst, stride, c);
#elif V3D_ITX_HAVE_16
    if (eob <= kScan8First2Out && CornerWithin8x8<2>(c)) return AddCorner8x8<2>(dst, stride, c);
    if (eob <= kScan8First4Out && CornerWithin8x8<4>(c)) return AddCorner8x8<4>(dst, stride, c);
#endif
    return ItxAddBlock<8, TxDct, TxDct>(dst, stride, c, eob);
  } else {
    if (kN == 16 && TryCorner16x16ByExactEob(dst, stride, c, eob)) return;  // itx_hwy_16x16.h
    return AddSquareByExactEob<kN, kCm>(dst, stride, c, eob);
  }
}

#if V3D_ITX_HAVE_ZMM16
// The 16x16 DCT_DCT add_exact_eob_cm slot (column-major coefficients): ItxAddExactEob<16>'s
// paths with column-major loads. The 4x4 corners failing their bound take the 8x8 square's
// kernel (exact for any block inside it); rows failing their check, the full block's 32-bit
// path (exact for any block); failing columns, the 32-bit columns of the row-major row results.
template <int kNz>
HWY_NOINLINE void AddDctZmmCm16(uint8_t *dst, ptrdiff_t stride, const int16_t *c) {
  HWY_ALIGN int16_t rows[16 * 16];
  const Int16Result r = Add16x16DctZmm<kNz, true>(dst, stride, c, rows);
  if (r == Int16Result::kRowsFailed)
    return Add2D<16, TxDct, TxDct, 16, 16, true>(dst, stride, c, false);
  Finish16x16<TxDct, kNz>(r, dst, stride, rows);
}
void ItxAddExactEobCm16(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return AddDc<16>(dst, stride, c[0]);
  if (TryCorner16x16ByExactEob<true>(dst, stride, c, eob)) return;
  if (eob <= kScan16First8Out) return AddDctZmmCm16<8>(dst, stride, c);
  AddDctZmmCm16<16>(dst, stride, c);
}
#endif

#if !V3D_ITX_NEON_4X4
// The 4x4 DCT_DCT add_exact_eob slot: eob 1 is DC only, without looking at the other
// coefficients; every other block as the add slot takes it.
void ItxAddExactEob4x4(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (eob == 1) return AddDc<4>(dst, stride, c[0]);
  return ItxAddBlock<4, TxDct, TxDct>(dst, stride, c, eob);
}
#endif

#if V3D_ITX_NEON_4X4
// NEON 4x4 (itx_neon_4x4.h), and the 32-bit path for the blocks outside its bound.
template <class Row, class Col>
void ItxAdd4x4Neon(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  constexpr bool kRowAdst = std::is_same<Row, TxAdst>::value;
  constexpr bool kColAdst = std::is_same<Col, TxAdst>::value;
  if (neon4::Add<kRowAdst, kColAdst>(dst, stride, c, eob)) return;
  Add2D<4, Row, Col, 4, 4>(dst, stride, c);
}
void WhtAdd4x4Neon(uint8_t *dst, ptrdiff_t stride, const int16_t *c, int eob) {
  if (neon4::AddWht(dst, stride, c)) return;
  WhtAdd4x4(dst, stride, c, eob);
}
#endif

template <size_t kN>
void FillSize(ItxDsp *dsp, int tx_size) {
  dsp->add[tx_size][kDctDct] = &ItxAdd<kN, TxDct, TxDct>;
  if constexpr (kN <= 16) {
    // ADST_DCT: ADST on columns (vertical), DCT on rows.
    dsp->add[tx_size][kAdstDct] = &ItxAdd<kN, TxDct, TxAdst>;
    dsp->add[tx_size][kDctAdst] = &ItxAdd<kN, TxAdst, TxDct>;
    dsp->add[tx_size][kAdstAdst] = &ItxAdd<kN, TxAdst, TxAdst>;
  }
}

// The column-major slots (itx.h) of one size: the row-major exact-eob kernels after a transpose
// (itx_cm.h), not native; kernels with a column-major load of their own replace them after this.
template <size_t kN, ItxAddFn kDct>
void FillColMajor(ItxDsp *dsp, int tx_size) {
  ItxAddFn *cm = dsp->add_exact_eob_cm[tx_size];
  cm[kDctDct] = &ColMajorByTranspose<kN, kDct, kDctDct>;
  if constexpr (kN <= 16) {
    cm[kAdstDct] = &ColMajorByTranspose<kN, &ItxAdd<kN, TxDct, TxAdst>, kAdstDct>;
    cm[kDctAdst] = &ColMajorByTranspose<kN, &ItxAdd<kN, TxAdst, TxDct>, kDctAdst>;
    cm[kAdstAdst] = &ColMajorByTranspose<kN, &ItxAdd<kN, TxAdst, TxAdst>, kAdstAdst>;
  }
}

void InitItxSimd(ItxDsp *dsp) {
  FillSize<4>(dsp, kTx4x4);
  FillSize<8>(dsp, kTx8x8);
  FillSize<16>(dsp, kTx16x16);
  FillSize<32>(dsp, kTx32x32);
#if V3D_ITX_HAVE_WHT16
  dsp->add[kTx4x4][kWhtWht] = &WhtAdd4x4x86;  // itx_hwy_wht.h
#else
  dsp->add[kTx4x4][kWhtWht] = &WhtAdd4x4;
#endif
#if V3D_ITX_NEON_4X4
  dsp->add[kTx4x4][kDctDct] = &ItxAdd4x4Neon<TxDct, TxDct>;
  dsp->add[kTx4x4][kAdstDct] = &ItxAdd4x4Neon<TxDct, TxAdst>;
  dsp->add[kTx4x4][kDctAdst] = &ItxAdd4x4Neon<TxAdst, TxDct>;
  dsp->add[kTx4x4][kAdstAdst] = &ItxAdd4x4Neon<TxAdst, TxAdst>;
  dsp->add[kTx4x4][kWhtWht] = &WhtAdd4x4Neon;
#endif
  // The add slots are right for an exact eob too; DCT_DCT from 8x8 on has its own.
  std::memcpy(dsp->add_exact_eob, dsp->add, sizeof dsp->add);
#if !V3D_ITX_NEON_4X4
  dsp->add_exact_eob[kTx4x4][kDctDct] = &ItxAddExactEob4x4;
#endif
  dsp->add_exact_eob[kTx8x8][kDctDct] = &ItxAddExactEob<8>;
  dsp->add_exact_eob[kTx16x16][kDctDct] = &ItxAddExactEob<16>;
  dsp->add_exact_eob[kTx32x32][kDctDct] = &ItxAddExactEob<32>;
  // Column-major: every slot as add_exact_eob's after a transpose, unless replaced below.
#if V3D_ITX_NEON_4X4
  FillColMajor<4, &ItxAdd4x4Neon<TxDct, TxDct>>(dsp, kTx4x4);
  dsp->add_exact_eob_cm[kTx4x4][kAdstDct] = &ColMajorByTranspose<4, &ItxAdd4x4Neon<TxDct, TxAdst>>;
  dsp->add_exact_eob_cm[kTx4x4][kDctAdst] = &ColMajorByTranspose<4, &ItxAdd4x4Neon<TxAdst, TxDct>>;
  dsp->add_exact_eob_cm[kTx4x4][kAdstAdst] =
      &ColMajorByTranspose<4, &ItxAdd4x4Neon<TxAdst, TxAdst>>;
  dsp->add_exact_eob_cm[kTx4x4][kWhtWht] = &ColMajorByTranspose<4, &WhtAdd4x4Neon>;
#else
  FillColMajor<4, &ItxAddExactEob4x4>(dsp, kTx4x4);
#if V3D_ITX_HAVE_WHT16
  dsp->add_exact_eob_cm[kTx4x4][kWhtWht] = &ColMajorByTranspose<4, &WhtAdd4x4x86>;
#else
  dsp->add_exact_eob_cm[kTx4x4][kWhtWht] = &ColMajorByTranspose<4, &WhtAdd4x4>;
#endif
#endif
  FillColMajor<8, &ItxAddExactEob<8>>(dsp, kTx8x8);
  FillColMajor<16, &ItxAddExactEob<16>>(dsp, kTx16x16);
  FillColMajor<32, &ItxAddExactEob<32>>(dsp, kTx32x32);
  for (auto &row : dsp->cm_native)
    for (auto &native : row) native = false;
#if V3D_ITX_HAVE_16 && HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  dsp->add_exact_eob_cm[kTx32x32][kDctDct] = &ItxAddExactEob<32, true>;  // itx_hwy_32.h
  dsp->cm_native[kTx32x32][kDctDct] = true;
#endif
#if V3D_ITX_HAVE_ZMM16
  dsp->add_exact_eob_cm[kTx16x16][kDctDct] = &ItxAddExactEobCm16;
  // 16x16 ADST types: their own column-major loads (ItxAddCm16).
  dsp->add_exact_eob_cm[kTx16x16][kAdstDct] = &ItxAddCm16<TxDct, TxAdst>;
  dsp->add_exact_eob_cm[kTx16x16][kDctAdst] = &ItxAddCm16<TxAdst, TxDct>;
  dsp->add_exact_eob_cm[kTx16x16][kAdstAdst] = &ItxAddCm16<TxAdst, TxAdst>;
  for (int t : {kDctDct, kAdstDct, kDctAdst, kAdstAdst}) dsp->cm_native[kTx16x16][t] = true;
#endif
}
#endif  // HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE

}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace v3d {
namespace vp9 {

HWY_EXPORT(InitItxSimd);

void itx_dsp_init_simd(ItxDsp *dsp) { HWY_DYNAMIC_DISPATCH(InitItxSimd)(dsp); }

}  // namespace vp9
}  // namespace v3d
#endif  // HWY_ONCE
