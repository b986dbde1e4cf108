// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's call into the intra prediction DSP family (vp9/ipred/ipred.h), behind a
// plain function so that the decoder's files need not include ipred.h next to frame_header.h.
// Contract: ipred.h's (above[-1] is the top-left pixel, above[0..2n-1], left[0..n-1]).
#pragma once

#include <cstddef>
#include <cstdint>

namespace v3d {
namespace vp9 {

// ipred_dsp().pred[tx_size][slot]: slots 0..9 the intra modes, 10 DC from the left column only,
// 11 DC from the above row only, 12 DC of 128.
void tile_ipred(int tx_size, int slot, uint8_t *dst, ptrdiff_t stride, const uint8_t *above,
                const uint8_t *left);

}  // namespace vp9
}  // namespace v3d
