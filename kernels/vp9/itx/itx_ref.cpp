// SPDX-License-Identifier: LGPL-2.1-or-later
// Scalar reference of the VP9 inverse transform + reconstruction (8-bit): the VP9
// specification's 2-D inverse transform process (libvpx's C code gives the same results), and
// the definition every other backend (SIMD, GPU) must reproduce bit for bit.
//
// ARITHMETIC CONTRACT (what "32-bit wrapping" means, precisely)
//  * Every value is an int32. Coefficients are read as int16 and sign-extended.
//  * Additions, subtractions, negations and multiplications by the constants of itx_ref_1d.h wrap
//    modulo 2^32 (two's complement). As these are ring operations, their order and grouping do
//    not matter: any implementation that feeds each shift below the same integer polynomial of
//    its inputs, reduced modulo 2^32, gets the same bits (e.g. (a + b) * c == a * c + b * c).
//  * The only non-linear steps are arithmetic right shifts of an int32, and an implementation
//    must apply exactly these, on exactly these values:
//      - rnd14(x) = (x + 8192, wrapping) >> 14, at each place itx_ref_1d.h calls rnd14/rmac
//        (the spec's Round2(x, 14), libvpx's dct_const_round_shift);
//      - the final rounding of the column pass: (x + (1 << (s - 1)), wrapping) >> s with
//        s = 4, 5, 6, 6 for 4x4, 8x8, 16x16, 32x32;
//      - WHT: coefficient >> 2 at the input of the row pass, (a - d, wrapping) >> 1 inside each
//        1-D WHT, and no final rounding.
//  * Reconstruction: dst = clamp(dst + x, 0, 255) with x the int32 result above (the sum cannot
//    overflow: |x| < 2^28).
//  * Pass order: 1-D transforms on each row (coeffs[i*n + 0..n-1]) first, then on each column of
//    that result; no rounding or clamping between the passes, no intermediate rounding for 32x32
//    (the halving of 32x32 coefficients belongs to dequantization, not to this function).
//  * tx_type 1 (ADST_DCT) = ADST on columns (vertical), DCT on rows; 2 (DCT_ADST) = DCT on
//    columns, ADST on rows; 3 ADST on both (libvpx's TX_TYPE numbering and IHT tables).
// For conformant streams no intermediate value leaves the int16 range, so these results equal
// the specification's (and libvpx's, whose 8-bit build keeps intermediates in int16). For any
// other int16 input they are still defined, and identical on every backend.
// The result never depends on eob (it is a hint to skip provably-zero work); eob <= 0 or an
// invalid (tx_size, tx_type) pair does nothing in v3d_vp9_itxfm_add_ref.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "v3d/v3d.h"
#include "vp9/itx/itx.h"
#include "vp9/itx/itx_cm.h"
#include "runtime/dsp_table.h"
#include "vp9/itx/itx_ref_1d.h"

namespace v3d {
namespace vp9 {
namespace {

using Fn1d = void (*)(const int32_t *in, int32_t *out);

// Rows first, then columns, then Round2(., shift), added to dst and clamped. The 1-D transforms
// are template arguments so that they are inlined.
template <int N, int kShift, Fn1d row, Fn1d col>
void inv_txfm_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs) {
  int32_t tmp[N * N];
  int32_t in[N], out[N];
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) in[j] = coeffs[i * N + j];
    row(in, tmp + i * N);
  }
  for (int j = 0; j < N; j++) {
    for (int i = 0; i < N; i++) in[i] = tmp[i * N + j];
    col(in, out);
    for (int i = 0; i < N; i++) {
      const int32_t v = ref::wadd(out[i], 1 << (kShift - 1)) >> kShift;
      uint8_t *p = dst + i * stride + j;
      *p = static_cast<uint8_t>(std::clamp(*p + v, 0, 255));
    }
  }
}

template <int N>
constexpr Fn1d dct() {
  return N == 4    ? ref::idct4<int32_t>
         : N == 8  ? ref::idct8<int32_t>
         : N == 16 ? ref::idct16<int32_t>
                   : ref::idct32<int32_t>;
}
template <int N>
constexpr Fn1d adst() {
  return N == 4 ? ref::iadst4<int32_t> : N == 8 ? ref::iadst8<int32_t> : ref::iadst16<int32_t>;
}
constexpr int shift_of(int n) { return n == 4 ? 4 : n == 8 ? 5 : 6; }

// One table entry: TYPE selects (column transform, row transform) as libvpx's IHT tables do.
template <int N, int kType>
void itx_add_ref(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int /*eob*/) {
  constexpr bool col_adst = kType == kAdstDct || kType == kAdstAdst;
  constexpr bool row_adst = kType == kDctAdst || kType == kAdstAdst;
  inv_txfm_add<N, shift_of(N), row_adst ? adst<N>() : dct<N>(), col_adst ? adst<N>() : dct<N>()>(
      dst, stride, coeffs);
}

void iwht4_row(const int32_t *in, int32_t *out) { ref::iwht4(in, out, 2); }
void iwht4_col(const int32_t *in, int32_t *out) { ref::iwht4(in, out, 0); }

void iwht_add_ref(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int /*eob*/) {
  int32_t tmp[16], in[4], out[4];
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 4; j++) in[j] = coeffs[i * 4 + j];
    iwht4_row(in, tmp + i * 4);
  }
  for (int j = 0; j < 4; j++) {
    for (int i = 0; i < 4; i++) in[i] = tmp[i * 4 + j];
    iwht4_col(in, out);
    for (int i = 0; i < 4; i++) {
      uint8_t *p = dst + i * stride + j;
      *p = static_cast<uint8_t>(std::clamp(*p + out[i], 0, 255));
    }
  }
}

template <int N>
void fill_size(ItxDsp *dsp, int tx_size) {
  dsp->add[tx_size][kDctDct] = itx_add_ref<N, kDctDct>;
  dsp->add_exact_eob_cm[tx_size][kDctDct] = ColMajorByTranspose<N, itx_add_ref<N, kDctDct>, kDctDct>;
  if constexpr (N != 32) {  // 32x32: DCT_DCT only
    dsp->add[tx_size][kAdstDct] = itx_add_ref<N, kAdstDct>;
    dsp->add[tx_size][kDctAdst] = itx_add_ref<N, kDctAdst>;
    dsp->add[tx_size][kAdstAdst] = itx_add_ref<N, kAdstAdst>;
    dsp->add_exact_eob_cm[tx_size][kAdstDct] = ColMajorByTranspose<N, itx_add_ref<N, kAdstDct>, kAdstDct>;
    dsp->add_exact_eob_cm[tx_size][kDctAdst] = ColMajorByTranspose<N, itx_add_ref<N, kDctAdst>, kDctAdst>;
    dsp->add_exact_eob_cm[tx_size][kAdstAdst] =
        ColMajorByTranspose<N, itx_add_ref<N, kAdstAdst>, kAdstAdst>;
  }
}

}  // namespace

void itx_dsp_init_ref(ItxDsp *dsp) {
  for (auto &row : dsp->add)
    for (auto &fn : row) fn = nullptr;
  for (auto &row : dsp->add_exact_eob_cm)
    for (auto &fn : row) fn = nullptr;
  for (auto &row : dsp->cm_native)
    for (auto &native : row) native = false;
  fill_size<4>(dsp, kTx4x4);
  fill_size<8>(dsp, kTx8x8);
  fill_size<16>(dsp, kTx16x16);
  fill_size<32>(dsp, kTx32x32);
  dsp->add[kTx4x4][kWhtWht] = iwht_add_ref;
  dsp->add_exact_eob_cm[kTx4x4][kWhtWht] = ColMajorByTranspose<4, iwht_add_ref>;
  std::memcpy(dsp->add_exact_eob, dsp->add, sizeof dsp->add);  // the reference reads every one
}

}  // namespace vp9
}  // namespace v3d

extern "C" void v3d_vp9_itxfm_add_ref(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                      int tx_size, int tx_type, int eob) {
  using namespace v3d::vp9;
  if (eob <= 0 || !dst || !coeffs || !valid_tx(tx_size, tx_type)) return;
  static const ItxDsp table = [] {
    ItxDsp t;
    itx_dsp_init_ref(&t);
    return t;
  }();
  table.add[tx_size][tx_type](dst, stride, coeffs, eob);
}

namespace v3d {
namespace vp9 {
namespace {
DspTable<ItxDsp> g_itx_table(itx_dsp_init_ref, itx_dsp_init_simd);
}  // namespace

const ItxDsp &itx_dsp() { return g_itx_table.get(); }

namespace {
// The public one-block entries: argument checks, then one of the table's slot arrays (add or
// add_exact_eob) by a tail call.
using ItxSlots = ItxAddFn (ItxDsp::*)[kNumTxSizes][kNumTxTypes];

// The path when the table needs a fill (first use, a new target): kept out of line so that the
// common path has no call before its tail call (runtime/dsp_table.h).
template <ItxSlots kSlots>
[[gnu::noinline, gnu::cold]] void itxfm_refill(uint8_t *dst, ptrdiff_t stride,
                                               const int16_t *coeffs, int tx_size, int tx_type,
                                               int eob) {
  (itx_dsp().*kSlots)[tx_size][tx_type](dst, stride, coeffs, eob);
}

template <ItxSlots kSlots>
[[gnu::always_inline]] inline void itxfm_dispatch(uint8_t *dst, ptrdiff_t stride,
                                                  const int16_t *coeffs, int tx_size, int tx_type,
                                                  int eob) {
  if (eob <= 0 || !valid_tx(tx_size, tx_type) || !dst || !coeffs) return;
  const ItxDsp *t = g_itx_table.current();
  if (!t) return itxfm_refill<kSlots>(dst, stride, coeffs, tx_size, tx_type, eob);
  (t->*kSlots)[tx_size][tx_type](dst, stride, coeffs, eob);
}
}  // namespace

}  // namespace vp9
}  // namespace v3d

extern "C" void v3d_vp9_itxfm_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                  int tx_size, int tx_type, int eob) {
  v3d::vp9::itxfm_dispatch<&v3d::vp9::ItxDsp::add>(dst, stride, coeffs, tx_size, tx_type, eob);
}

extern "C" void v3d_vp9_itxfm_add_exact_eob(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                            int tx_size, int tx_type, int eob) {
  v3d::vp9::itxfm_dispatch<&v3d::vp9::ItxDsp::add_exact_eob>(dst, stride, coeffs, tx_size,
                                                             tx_type, eob);
}

extern "C" void v3d_vp9_itxfm_add_exact_eob_colmajor(uint8_t *dst, ptrdiff_t stride,
                                                     const int16_t *coeffs, int tx_size,
                                                     int tx_type, int eob) {
  v3d::vp9::itxfm_dispatch<&v3d::vp9::ItxDsp::add_exact_eob_cm>(dst, stride, coeffs, tx_size,
                                                                tx_type, eob);
}
