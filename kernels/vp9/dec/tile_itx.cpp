// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's call into the inverse transform table (vp9/itx.h), in a file of its own:
// itx.h and frame_header.h both declare a TxSize enumeration in namespace v3d::vp9.
#include "vp9/dec/tile_itx.h"

#include "vp9/itx.h"

namespace v3d {
namespace vp9 {

void tile_itx_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size, int tx_type,
                  int eob) {
  itx_dsp().add[tx_size][tx_type](dst, stride, coeffs, eob);
}

}  // namespace vp9
}  // namespace v3d
