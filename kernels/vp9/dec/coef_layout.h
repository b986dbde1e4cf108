// SPDX-License-Identifier: LGPL-2.1-or-later
// Which layout the tile decoder writes each transform block's coefficients in (tile_coefs.cpp):
// per slot from the transform table's cm_native (vp9/itx/itx.h), or, for tests, one layout for
// every slot. Internal to kernels/vp9/dec and its tests; no public entry sets it.
#pragma once

namespace v3d {
namespace vp9 {

enum class CoefLayout {
  kPerSlot = 0,   // column-major where ItxDsp::cm_native says the slot is a kernel of its own
  kRaster = 1,    // raster for every slot (add_exact_eob)
  kColMajor = 2,  // column-major for every slot (add_exact_eob_cm, native or transposing)
};

// Sets the layout of every decoder's frames set up from now on (process-wide; the default is
// kPerSlot). Both forced layouts give the same pixels: the column-major slots that are not
// native transpose the block and call the raster slot.
void set_coef_layout_for_testing(CoefLayout layout);

}  // namespace vp9
}  // namespace v3d
