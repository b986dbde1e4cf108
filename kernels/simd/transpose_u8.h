// SPDX-License-Identifier: LGPL-2.1-or-later
// Byte transposes for vertical edges of the in-loop filters (VP9 loop filter, H.264 deblocking):
// kLen lines (8 or 16) of 8 bytes <-> 8 vectors of 16 bytes (lane = line). Per-target header
// (included inside a foreach_target pass); namespace v3d::simd::HWY_NAMESPACE.
//
// Method (128-bit vectors, InterleaveLower/Upper at 8-, 16-, 32- then 64-bit granularity, each
// round doubling the run of consecutive lines or columns held together): 4 shuffle rounds, no
// memory round trip. The 64-bit loads and stores touch exactly the 8 bytes of each line.

#if defined(V3D_SIMD_TRANSPOSE_U8_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_SIMD_TRANSPOSE_U8_H_
#undef V3D_SIMD_TRANSPOSE_U8_H_
#else
#define V3D_SIMD_TRANSPOSE_U8_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

using U8x16D = hn::Full128<uint8_t>;
using U8x16 = hn::Vec<U8x16D>;

// out[c] lane l = src[l * stride + c] for c < 8, l < kLen (lanes >= kLen unspecified).
template <int kLen>
HWY_INLINE void TransposeLinesIn(const uint8_t *src, ptrdiff_t stride, U8x16 out[8]) {
  const U8x16D d8;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, U8x16D> d16;
  const hn::Repartition<uint32_t, U8x16D> d32;
  const hn::Repartition<uint64_t, U8x16D> d64;
  constexpr int kGroups = kLen / 8;  // groups of 8 lines
  hn::Vec<decltype(d64)> c[2][4];    // [group][column pair]: u64 lane k = column 2p + k
  for (int g = 0; g < kGroups; g++) {
    const uint8_t *s = src + g * 8 * stride;
    hn::Vec<decltype(d16)> a[4];  // lines 2k, 2k+1 interleaved: u16 lane = column
    for (int k = 0; k < 4; k++) {
      const U8x16 l0 = hn::ZeroExtendVector(d8, hn::LoadU(dh, s + (2 * k) * stride));
      const U8x16 l1 = hn::ZeroExtendVector(d8, hn::LoadU(dh, s + (2 * k + 1) * stride));
      a[k] = hn::BitCast(d16, hn::InterleaveLower(d8, l0, l1));
    }
    // u32 lane = column of 4 lines: [lines 0-3 | 4-7][columns 0-3 | 4-7]
    const auto b00 = hn::BitCast(d32, hn::InterleaveLower(d16, a[0], a[1]));
    const auto b01 = hn::BitCast(d32, hn::InterleaveUpper(d16, a[0], a[1]));
    const auto b10 = hn::BitCast(d32, hn::InterleaveLower(d16, a[2], a[3]));
    const auto b11 = hn::BitCast(d32, hn::InterleaveUpper(d16, a[2], a[3]));
    c[g][0] = hn::BitCast(d64, hn::InterleaveLower(d32, b00, b10));
    c[g][1] = hn::BitCast(d64, hn::InterleaveUpper(d32, b00, b10));
    c[g][2] = hn::BitCast(d64, hn::InterleaveLower(d32, b01, b11));
    c[g][3] = hn::BitCast(d64, hn::InterleaveUpper(d32, b01, b11));
  }
  for (int p = 0; p < 4; p++) {
    if constexpr (kGroups == 2) {
      out[2 * p] = hn::BitCast(d8, hn::InterleaveLower(d64, c[0][p], c[1][p]));
      out[2 * p + 1] = hn::BitCast(d8, hn::InterleaveUpper(d64, c[0][p], c[1][p]));
    } else {
      out[2 * p] = hn::BitCast(d8, c[0][p]);
      out[2 * p + 1] = hn::BitCast(d8, hn::InterleaveUpper(d64, c[0][p], c[0][p]));
    }
  }
}

// The inverse: dst[l * stride + c] = in[c] lane l for c < 8, l < kLen.
template <int kLen>
HWY_INLINE void TransposeLinesOut(const U8x16 in[8], uint8_t *dst, ptrdiff_t stride) {
  const U8x16D d8;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, U8x16D> d16;
  const hn::Repartition<uint32_t, U8x16D> d32;
  constexpr int kGroups = kLen / 8;
  for (int g = 0; g < kGroups; g++) {
    hn::Vec<decltype(d16)> e[4];  // u16 lane = line (of this group), holding columns 2k, 2k+1
    for (int k = 0; k < 4; k++)
      e[k] = hn::BitCast(d16, g == 0 ? hn::InterleaveLower(d8, in[2 * k], in[2 * k + 1])
                                     : hn::InterleaveUpper(d8, in[2 * k], in[2 * k + 1]));
    // u32 lane = line, 4 columns: [columns 0-3 | 4-7][lines 0-3 | 4-7]
    const auto f00 = hn::BitCast(d32, hn::InterleaveLower(d16, e[0], e[1]));
    const auto f01 = hn::BitCast(d32, hn::InterleaveUpper(d16, e[0], e[1]));
    const auto f10 = hn::BitCast(d32, hn::InterleaveLower(d16, e[2], e[3]));
    const auto f11 = hn::BitCast(d32, hn::InterleaveUpper(d16, e[2], e[3]));
    U8x16 lines[4];  // 64-bit lane = one line of 8 bytes: lines 0-1, 2-3, 4-5, 6-7
    lines[0] = hn::BitCast(d8, hn::InterleaveLower(d32, f00, f10));
    lines[1] = hn::BitCast(d8, hn::InterleaveUpper(d32, f00, f10));
    lines[2] = hn::BitCast(d8, hn::InterleaveLower(d32, f01, f11));
    lines[3] = hn::BitCast(d8, hn::InterleaveUpper(d32, f01, f11));
    uint8_t *s = dst + g * 8 * stride;
    for (int k = 0; k < 4; k++) {
      hn::StoreU(hn::LowerHalf(dh, lines[k]), dh, s + (2 * k) * stride);
      hn::StoreU(hn::UpperHalf(dh, lines[k]), dh, s + (2 * k + 1) * stride);
    }
  }
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
// AVX2 and up: 16 lines of 8 bytes as two groups of 8 lines side by side, group g in 128-bit
// block g, so that each shuffle round serves both groups: half the shuffles of two 128-bit
// passes, and no round joining the groups.
using U8x32D = hn::Full256<uint8_t>;
using U8x32 = hn::Vec<U8x32D>;

// c[p] block g, 64-bit lane k = column 2p + k of lines 8g .. 8g + 7 (byte = line), from
// src[l * stride + c], c < 8, l < 16.
HWY_INLINE void TransposeLinePairsIn(const uint8_t *src, ptrdiff_t stride, U8x32 c[4]) {
  const U8x32D d;
  const hn::Half<U8x32D> dq;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, U8x32D> d16;
  const hn::Repartition<uint32_t, U8x32D> d32;
  auto line = [&](int l) {  // line l in block 0, line l + 8 in block 1 (low 8 bytes each)
    return hn::Combine(d, hn::ZeroExtendVector(dq, hn::LoadU(dh, src + (l + 8) * stride)),
                       hn::ZeroExtendVector(dq, hn::LoadU(dh, src + l * stride)));
  };
  hn::Vec<decltype(d16)> a[4];  // lines 2k, 2k+1 interleaved: u16 lane = column
  for (int k = 0; k < 4; k++)
    a[k] = hn::BitCast(d16, hn::InterleaveLower(d, line(2 * k), line(2 * k + 1)));
  // u32 lane = column of 4 lines: [lines 0-3 | 4-7][columns 0-3 | 4-7]
  const auto b00 = hn::BitCast(d32, hn::InterleaveLower(d16, a[0], a[1]));
  const auto b01 = hn::BitCast(d32, hn::InterleaveUpper(d16, a[0], a[1]));
  const auto b10 = hn::BitCast(d32, hn::InterleaveLower(d16, a[2], a[3]));
  const auto b11 = hn::BitCast(d32, hn::InterleaveUpper(d16, a[2], a[3]));
  c[0] = hn::BitCast(d, hn::InterleaveLower(d32, b00, b10));
  c[1] = hn::BitCast(d, hn::InterleaveUpper(d32, b00, b10));
  c[2] = hn::BitCast(d, hn::InterleaveLower(d32, b01, b11));
  c[3] = hn::BitCast(d, hn::InterleaveUpper(d32, b01, b11));
}

// The inverse: dst[l * stride + c] = line l's byte of column c in c[c / 2] (layout as above),
// c < 8, l < 16.
HWY_INLINE void TransposeLinePairsOut(const U8x32 c[4], uint8_t *dst, ptrdiff_t stride) {
  const U8x32D d;
  const hn::Half<U8x32D> dq;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, U8x32D> d16;
  const hn::Repartition<uint32_t, U8x32D> d32;
  // Within each block, bytes of the two columns alternated: u16 lane = line, columns 2p, 2p+1.
  alignas(16) static constexpr uint8_t kZip[16] = {0, 8,  1, 9,  2, 10, 3, 11,
                                                   4, 12, 5, 13, 6, 14, 7, 15};
  const U8x32 zip = hn::LoadDup128(d, kZip);
  hn::Vec<decltype(d16)> e[4];
  for (int p = 0; p < 4; p++) e[p] = hn::BitCast(d16, hn::TableLookupBytes(c[p], zip));
  // u32 lane = line, 4 columns: [columns 0-3 | 4-7][lines 0-3 | 4-7]
  const auto f00 = hn::BitCast(d32, hn::InterleaveLower(d16, e[0], e[1]));
  const auto f01 = hn::BitCast(d32, hn::InterleaveUpper(d16, e[0], e[1]));
  const auto f10 = hn::BitCast(d32, hn::InterleaveLower(d16, e[2], e[3]));
  const auto f11 = hn::BitCast(d32, hn::InterleaveUpper(d16, e[2], e[3]));
  const U8x32 lines[4] = {  // 64-bit lane = one line: lines 0-1, 2-3, 4-5, 6-7 (+ 8 in block 1)
      hn::BitCast(d, hn::InterleaveLower(d32, f00, f10)),
      hn::BitCast(d, hn::InterleaveUpper(d32, f00, f10)),
      hn::BitCast(d, hn::InterleaveLower(d32, f01, f11)),
      hn::BitCast(d, hn::InterleaveUpper(d32, f01, f11))};
  for (int k = 0; k < 4; k++) {
    for (int g = 0; g < 2; g++) {
      const auto x = g ? hn::UpperHalf(dq, lines[k]) : hn::LowerHalf(dq, lines[k]);
      uint8_t *s = dst + (8 * g + 2 * k) * stride;
      hn::StoreU(hn::LowerHalf(dh, x), dh, s);
      hn::StoreU(hn::UpperHalf(dh, x), dh, s + stride);
    }
  }
}
#endif  // HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2

#if HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64
// aarch64 NEON: vertical edges are done in groups of 8 lines held in 64-bit vectors, which
// avoids what the generic transposes compile to there: 128-bit zips (each costs three trns on
// Cortex-A57-class schedules) and inserts that join two 64-bit halves.

// v[i] lane j -> v[j] lane i (8x8 bytes; its own inverse): three rounds of trn1/trn2 on 8-, 16-
// then 32-bit lanes, each doubling the run of consecutive lines held together in a column.
HWY_INLINE void Transpose8x8Neon(uint8x8_t v[8]) {
  uint16x4_t b[8];  // b[2k]: lines 2k, 2k+1 of even columns; b[2k + 1]: of odd columns
  for (int k = 0; k < 4; k++) {
    b[2 * k] = vreinterpret_u16_u8(vtrn1_u8(v[2 * k], v[2 * k + 1]));
    b[2 * k + 1] = vreinterpret_u16_u8(vtrn2_u8(v[2 * k], v[2 * k + 1]));
  }
  // c[4h + m]: lines 4h..4h+3 of columns m and m + 4 (m = 0, 2, 1, 3 for index 0..3)
  uint32x2_t c[8];
  for (int h = 0; h < 2; h++) {
    const uint16x4_t *s = b + 4 * h;
    c[4 * h + 0] = vreinterpret_u32_u16(vtrn1_u16(s[0], s[2]));  // columns 0, 4
    c[4 * h + 1] = vreinterpret_u32_u16(vtrn2_u16(s[0], s[2]));  // columns 2, 6
    c[4 * h + 2] = vreinterpret_u32_u16(vtrn1_u16(s[1], s[3]));  // columns 1, 5
    c[4 * h + 3] = vreinterpret_u32_u16(vtrn2_u16(s[1], s[3]));  // columns 3, 7
  }
  static constexpr int kColumn[4] = {0, 2, 1, 3};
  for (int m = 0; m < 4; m++) {
    v[kColumn[m]] = vreinterpret_u8_u32(vtrn1_u32(c[m], c[4 + m]));
    v[kColumn[m] + 4] = vreinterpret_u8_u32(vtrn2_u32(c[m], c[4 + m]));
  }
}

// The same on 8 lines of 16 bytes: v[i] byte j (j < 8) -> v[j] byte i, v[i] byte 8 + j -> v[j]
// byte 8 + i, in 128-bit trns (two 8x8 transposes side by side). Loaded from 8 lines of 16
// bytes, v[m] holds column m in its low half and column m + 8 in its high half.
HWY_INLINE void Transpose8x16Neon(uint8x16_t v[8]) {
  uint16x8_t b[8];
  for (int k = 0; k < 4; k++) {
    b[2 * k] = vreinterpretq_u16_u8(vtrn1q_u8(v[2 * k], v[2 * k + 1]));
    b[2 * k + 1] = vreinterpretq_u16_u8(vtrn2q_u8(v[2 * k], v[2 * k + 1]));
  }
  uint32x4_t c[8];
  for (int h = 0; h < 2; h++) {
    const uint16x8_t *s = b + 4 * h;
    c[4 * h + 0] = vreinterpretq_u32_u16(vtrn1q_u16(s[0], s[2]));
    c[4 * h + 1] = vreinterpretq_u32_u16(vtrn2q_u16(s[0], s[2]));
    c[4 * h + 2] = vreinterpretq_u32_u16(vtrn1q_u16(s[1], s[3]));
    c[4 * h + 3] = vreinterpretq_u32_u16(vtrn2q_u16(s[1], s[3]));
  }
  static constexpr int kColumn[4] = {0, 2, 1, 3};
  for (int m = 0; m < 4; m++) {
    v[kColumn[m]] = vreinterpretq_u8_u32(vtrn1q_u32(c[m], c[4 + m]));
    v[kColumn[m] + 4] = vreinterpretq_u8_u32(vtrn2q_u32(c[m], c[4 + m]));
  }
}

// out[c] lane l = src[l * stride + c], c, l < 8.
HWY_INLINE void LoadTransposed8x8Neon(const uint8_t *src, ptrdiff_t stride, uint8x8_t out[8]) {
  for (int l = 0; l < 8; l++) out[l] = vld1_u8(src + l * stride);
  Transpose8x8Neon(out);
}

// dst[l * stride + c] = v[c] lane l, c, l < 8.
HWY_INLINE void StoreTransposed8x8Neon(uint8x8_t v[8], uint8_t *dst, ptrdiff_t stride) {
  Transpose8x8Neon(v);
  for (int l = 0; l < 8; l++) vst1_u8(dst + l * stride, v[l]);
}

// Four columns of 8 lines, dst[l * stride + c] = v[c] lane l, c < 4, l < 8: zips to one 32-bit
// lane per line and 32-bit lane stores (GCC keeps st4's register quadruples on the stack).
HWY_INLINE void Store4Columns8Neon(const uint8x8_t v[4], uint8_t *dst, ptrdiff_t stride) {
  const uint16x4_t a0 = vreinterpret_u16_u8(vzip1_u8(v[0], v[1]));  // lines 0-3, columns 0-1
  const uint16x4_t a1 = vreinterpret_u16_u8(vzip2_u8(v[0], v[1]));  // lines 4-7
  const uint16x4_t b0 = vreinterpret_u16_u8(vzip1_u8(v[2], v[3]));  // columns 2-3
  const uint16x4_t b1 = vreinterpret_u16_u8(vzip2_u8(v[2], v[3]));
  const uint32x2_t w[4] = {vreinterpret_u32_u16(vzip1_u16(a0, b0)), vreinterpret_u32_u16(vzip2_u16(a0, b0)),
                           vreinterpret_u32_u16(vzip1_u16(a1, b1)), vreinterpret_u32_u16(vzip2_u16(a1, b1))};
  for (int k = 0; k < 4; k++) {  // w[k]: lines 2k, 2k + 1
    vst1_lane_u32(reinterpret_cast<uint32_t *>(dst + 2 * k * stride), w[k], 0);
    vst1_lane_u32(reinterpret_cast<uint32_t *>(dst + (2 * k + 1) * stride), w[k], 1);
  }
}
#endif  // HWY_TARGET == HWY_NEON && HWY_ARCH_ARM_A64

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace simd
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_SIMD_TRANSPOSE_U8_H_
