// SPDX-License-Identifier: LGPL-2.1-or-later
// Test inputs for the frame-level VP9 inverse transforms: a block list tiling a 4:2:0 frame.
#pragma once

#include <cstdint>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"

namespace v3dtest {
namespace vp9 {

struct Blocks {
  std::vector<V3dVp9TxBlock> blocks;
  std::vector<int16_t> coeffs;
};

// Tiles every plane with VP9-like blocks (each aligned to its size), random sizes and types,
// some eob 0, coefficients either small low-frequency ones or raw random int16 (the library
// defines the result for any input, identically on every backend).
Blocks make_blocks(Rng &rng, int width, int height, int max_tx, bool raw);

}  // namespace vp9
}  // namespace v3dtest
