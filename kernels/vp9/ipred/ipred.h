// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 intra prediction: the kernel table (one prototype, one table per transform size, filled with
// the scalar references first, then overridden slot by slot by the SIMD target chosen at init).
// Every slot computes exactly what libvpx's VP9 decoder computes for the same edge arrays (its
// vpx_dsp/intrapred.c functions as vp9_init_intra_predictors() selects them), for any edge
// values, not only for edges its decoder could build.
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

// Slots of the table. The first ten follow the VP9 intra_mode values (spec: DC_PRED 0, V_PRED 1,
// H_PRED 2, D45_PRED 3, D135_PRED 4, D117_PRED 5, D153_PRED 6, D207_PRED 7, D63_PRED 8, TM_PRED 9);
// the last three are DC_PRED when only the left edge, only the above edge, or neither is available.
enum IpredSlot { kIpredDc = 0, kIpredV, kIpredH, kIpredD45, kIpredD135, kIpredD117, kIpredD153,
                 kIpredD207, kIpredD63, kIpredTm, kIpredDcLeft, kIpredDcTop, kIpredDc128,
                 kNumIpredSlots };

// n = 4 << tx_size (tx_size 0..3). Writes the n x n prediction to dst (stride bytes between rows).
// above points at the row above dst's first column: above[-1] is the top-left pixel, above[0..n-1]
// the pixels above, above[n..2n-1] the above-right pixels (the caller fills every one of these,
// with libvpx's decoder rules for unavailable or out-of-frame pixels). left[0..n-1] is the column
// left of dst, top to bottom. Each function reads only what its mode needs of those and writes
// exactly the n x n pixels of dst. No alignment promise on any pointer or on stride.
//
// What each mode reads (implementations never load outside these ranges):
//   DC: above[0..n-1], left[0..n-1]   DC_LEFT, H, D207: left[0..n-1]   DC_TOP, V: above[0..n-1]
//   DC_128: nothing   TM, D117, D135, D153: above[-1..n-1], left[0..n-1]
//   D45, D63: above[0..2n-1]. For n = 4 the result follows the spec's formulas on all eight
//   pixels. For n >= 8 libvpx's functions use only above[0..n+1] and take above[n-1] for every
//   pixel past those (its decoder fills above[n..2n-1] with copies of above[n-1] at these sizes,
//   where they agree with the spec); this table reproduces those functions exactly.
using IpredFn = void (*)(uint8_t *dst, ptrdiff_t stride, const uint8_t *above, const uint8_t *left);

struct IpredDsp {
  IpredFn pred[4 /* tx_size */][kNumIpredSlots];
};

// Fills every slot with the scalar reference (ipred_ref.cpp).
void ipred_dsp_init_ref(IpredDsp *dsp);
// Overrides slots with the SIMD implementation of the Highway target currently chosen by
// hwy::GetChosenTarget() (ipred_hwy.cpp). Called through the DspTable, never per call.
void ipred_dsp_init_simd(IpredDsp *dsp);

// The table in use now (set up once, refilled after v3d_cpu_force_target()).
const IpredDsp &ipred_dsp();

}  // namespace vp9
}  // namespace v3d
