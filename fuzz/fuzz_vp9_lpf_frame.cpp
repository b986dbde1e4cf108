// SPDX-License-Identifier: LGPL-2.1-or-later
// libFuzzer target: the VP9 loop filter over one frame (v3d_vp9_loop_filter_frame). The
// fuzzer's bytes become a frame size, a sharpness (0..7, sometimes out of range), a grid stride,
// a valid VP9 partition grid (tests/common/vp9_lpf_grid.cpp, from a seed and partition
// parameters the bytes choose) and then some grid entries overwritten with raw bytes (mostly
// invalid grids).
// Properties checked on every input:
//  - scalar, simd on 1 thread and simd on 3 threads (the superblock-row wavefront) return the same
//    code; on success the same frame, byte for byte; on failure an untouched frame;
//  - nothing outside the planes' rounded-up area is written (guard bytes intact).
#include <algorithm>
#include <vector>

#include "common/test_util.h"
#include "common/guarded_planes.h"
#include "fuzz_input.h"
#include "v3d/v3d.h"
#include "common/vp9_lpf_grid.h"

using v3dtest::GuardedPlanes;
using v3dfuzz::Input;

namespace {

constexpr int kMaxSize = 320;  // luma width/height: up to 5x5 superblocks

struct Contexts {
  V3dContext *scalar, *simd1, *simd3;
};
const Contexts &contexts() {
  static Contexts c = [] {
    v3d_set_log_func(v3dtest::quiet_log, nullptr);
    return Contexts{v3d_context_new("scalar", 1), v3d_context_new("simd", 1),
                    v3d_context_new("simd", 3)};
  }();
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Contexts &ctx = contexts();
  Input in(data, size);
  const int width = in.range(1, kMaxSize), height = in.range(1, kMaxSize);
  const int sb = in.u8();
  const int sharpness = sb < 240 ? sb % 8 : sb - 248;  // a few out-of-range values (-8..7)
  const int mi_cols = (width + 7) / 8;
  const int sd = in.u8();
  const int grid_stride = sd < 250 ? mi_cols + sd % 5 : mi_cols - 1 - sd % 3;  // rarely too small
  v3dtest::vp9::LfGridParams params;
  params.level_zero_pct = in.u8() % 101;
  params.skip_pct = in.u8() % 101;
  params.split_pct = in.u8() % 101;
  params.max_level = in.range(1, 63);
  v3dtest::Rng rng(in.u32() + 1);
  // The grid is made with a valid stride (the generator's contract); a too-small grid_stride is
  // only what the library is told, so it must refuse without reading past the grid.
  std::vector<V3dVp9LfInfo> grid =
      v3dtest::vp9::make_lf_grid(rng, width, height, std::max(grid_stride, mi_cols), params);
  // Corruptions: raw entries (any values) at chosen positions, or one field changed.
  const int n_bad = in.u8() % 4 == 0 ? in.u8() % 4 : 0;
  for (int i = 0; i < n_bad && !grid.empty(); i++) {
    V3dVp9LfInfo &e = grid[in.u16() % grid.size()];
    switch (in.u8() % 4) {
      case 0: e.filter_level = in.u8(); break;
      case 1: e.block_size = in.u8() % 16; break;
      case 2: e.tx_size = in.u8() % 5; break;
      default: e = V3dVp9LfInfo{in.u8(), in.u8(), in.u8(), in.u8()};
    }
  }

  v3dtest::vp9::LfFrame orig(width, height);
  v3dtest::Rng pix(in.u32() + 3);
  orig.fill_smooth(pix);

  GuardedPlanes ref(orig);
  const int rc = v3d_vp9_loop_filter_frame(ctx.scalar, ref.data, ref.stride, width, height,
                                           grid.data(), grid_stride, sharpness);
  V3D_FUZZ_CHECK(ref.guards_intact(), "scalar wrote outside the planes");
  int pl;
  int x, y;
  if (rc) V3D_FUZZ_CHECK(ref.same_as(orig, &pl, &x, &y), "refused frame modified (plane %d x %d y %d)", pl, x, y);
  V3dContext *const others[] = {ctx.simd1, ctx.simd3};
  for (V3dContext *c : others) {
    GuardedPlanes f(orig);
    const int rc2 = v3d_vp9_loop_filter_frame(c, f.data, f.stride, width, height, grid.data(),
                                              grid_stride, sharpness);
    const int threads = v3d_context_cpu_threads(c);
    V3D_FUZZ_CHECK(rc2 == rc, "simd/%d threads returned %d, scalar %d", threads, rc2, rc);
    V3D_FUZZ_CHECK(f.guards_intact(), "simd/%d threads wrote outside the planes", threads);
    V3D_FUZZ_CHECK(f.same_as(ref, &pl, &x, &y), "simd/%d threads differs from scalar at plane %d x %d y %d",
                   threads, pl, x, y);
  }
  return 0;
}
