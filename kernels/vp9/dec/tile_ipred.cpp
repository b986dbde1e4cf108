// SPDX-License-Identifier: LGPL-2.1-or-later
// See tile_ipred.h.
#include "vp9/dec/tile_ipred.h"

#include "vp9/ipred/ipred.h"

namespace v3d {
namespace vp9 {

void tile_ipred(int tx_size, int slot, uint8_t *dst, ptrdiff_t stride, const uint8_t *above,
                const uint8_t *left) {
  ipred_dsp().pred[tx_size][slot](dst, stride, above, left);
}

}  // namespace vp9
}  // namespace v3d
