// SPDX-License-Identifier: LGPL-2.1-or-later
// Byte transposes for vertical loop filter edges: kLen lines (8 or 16) of 8 bytes <-> 8 vectors
// of 16 bytes (lane = line). Per-target header (included from lpf_hwy.cpp inside its
// foreach_target pass).
//
// Method (128-bit vectors, InterleaveLower/Upper at 8-, 16-, 32- then 64-bit granularity, each
// round doubling the run of consecutive lines or columns held together): 4 shuffle rounds, no
// memory round trip. The 64-bit loads and stores touch exactly the 8 bytes of each line.

#if defined(V3D_VP9_LPF_HWY_TRANSPOSE_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef V3D_VP9_LPF_HWY_TRANSPOSE_H_
#undef V3D_VP9_LPF_HWY_TRANSPOSE_H_
#else
#define V3D_VP9_LPF_HWY_TRANSPOSE_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace v3d {
namespace vp9 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
#if HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE

using LpfD8 = hn::Full128<uint8_t>;
using LpfV8 = hn::Vec<LpfD8>;

// out[c] lane l = src[l * stride + c] for c < 8, l < kLen (lanes >= kLen unspecified).
template <int kLen>
HWY_INLINE void TransposeLinesIn(const uint8_t *src, ptrdiff_t stride, LpfV8 out[8]) {
  const LpfD8 d8;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, LpfD8> d16;
  const hn::Repartition<uint32_t, LpfD8> d32;
  const hn::Repartition<uint64_t, LpfD8> d64;
  constexpr int kGroups = kLen / 8;  // groups of 8 lines
  hn::Vec<decltype(d64)> c[2][4];    // [group][column pair]: u64 lane k = column 2p + k
  for (int g = 0; g < kGroups; g++) {
    const uint8_t *s = src + g * 8 * stride;
    hn::Vec<decltype(d16)> a[4];  // lines 2k, 2k+1 interleaved: u16 lane = column
    for (int k = 0; k < 4; k++) {
      const LpfV8 l0 = hn::ZeroExtendVector(d8, hn::LoadU(dh, s + (2 * k) * stride));
      const LpfV8 l1 = hn::ZeroExtendVector(d8, hn::LoadU(dh, s + (2 * k + 1) * stride));
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
HWY_INLINE void TransposeLinesOut(const LpfV8 in[8], uint8_t *dst, ptrdiff_t stride) {
  const LpfD8 d8;
  const hn::Full64<uint8_t> dh;
  const hn::Repartition<uint16_t, LpfD8> d16;
  const hn::Repartition<uint32_t, LpfD8> d32;
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
    LpfV8 lines[4];  // 64-bit lane = one line of 8 bytes: lines 0-1, 2-3, 4-5, 6-7
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

#endif  // HWY_TARGET != HWY_SCALAR && !HWY_HAVE_SCALABLE
}  // namespace HWY_NAMESPACE
}  // namespace vp9
}  // namespace v3d
HWY_AFTER_NAMESPACE();

#endif  // V3D_VP9_LPF_HWY_TRANSPOSE_H_
