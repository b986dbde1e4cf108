// SPDX-License-Identifier: LGPL-2.1-or-later
// itx_dsp().add[tx_size][tx_type] behind a plain function (see tile_itx.cpp). Contract: itx.h's
// (tx_type 4 is the WHT, 4x4 only; 32x32 only DCT_DCT; eob >= 1 is a hint the result does not
// depend on).
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

void tile_itx_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size, int tx_type,
                  int eob);

}  // namespace vp9
}  // namespace v3d
