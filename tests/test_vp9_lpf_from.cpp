// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_loop_filter_frame_from (copy and filter, row by row) against copying the source and
// then filtering in place with the scalar sequential process: every backend (the GPU ones when a
// device exists), random partitions and sizes, several thread counts; the source is never
// written, nothing outside the destination's processed area is touched, and invalid source
// arguments are refused with nothing written.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "common/vp9_lpf_grid.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::vp9::LfCase;
using v3dtest::vp9::LfFrame;

namespace {

void run_backend(const char *backend, uint64_t seed) {
  V3dContext *ctx = v3d_context_new(backend, v3dtest::test_threads());
  if (!ctx) {
    const char *req = getenv("V3D_REQUIRE_GPU");
    check(!(req && atoi(req)) || strcmp(backend, "gpu") != 0, "backend %s unavailable: %s",
          backend, v3d_last_error());
    printf("backend %s: unavailable (%s)\n", backend, v3d_last_error());
    return;
  }
  V3dContext *ref = v3d_context_new("scalar", 1);
  const int sizes[][2] = {{64, 64}, {250, 130}, {352, 288}, {8, 8}, {1920, 1088}, {200, 72}};
  int n = 0;
  for (const auto &sz : sizes) {
    for (int rep = 0; rep < (sz[0] > 1000 ? 1 : v3dtest::scaled(4)); rep++, n++) {
      const uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (n + 1));
      Rng rng(s);
      const int w = sz[0], h = sz[1];
      LfFrame src(w, h), got(w, h), want(w, h);
      src.fill_smooth(rng);
      got.fill_smooth(rng);  // whatever the destination held before
      LfCase c = v3dtest::vp9::make_lf_case(rng, w, h);
      // Expected: the destination with the processed area replaced by the source, filtered.
      for (int q = 0; q < 3; q++) want.copy_plane_from(got, q);
      for (int p = 0; p < 3; p++)
        for (int y = 0; y < want.h[p]; y++)
          memcpy(want.data[p] + y * want.stride[p], src.data[p] + y * src.stride[p], want.w[p]);
      int rc = v3d_vp9_loop_filter_frame(ref, want.data, want.stride, w, h, c.grid.data(),
                                         c.grid_stride, c.sharpness);
      check(rc == 0, "reference failed: %s", v3d_last_error());
      LfFrame src_before(w, h);
      for (int q = 0; q < 3; q++) src_before.copy_plane_from(src, q);
      const uint8_t *const srcp[3] = {src.data[0], src.data[1], src.data[2]};
      rc = v3d_vp9_loop_filter_frame_from(ctx, srcp, src.stride, got.data, got.stride, w, h,
                                          c.grid.data(), c.grid_stride, c.sharpness);
      int p = 0, x = 0, y = 0;
      check(rc == 0, "%s %dx%d: returned %d (%s), seed 0x%llx", backend, w, h, rc,
            v3d_last_error(), static_cast<unsigned long long>(s));
      check(got.same_as(want, &p, &x, &y),
            "%s %dx%d: differs from copy-then-filter at plane %d (%d, %d), seed 0x%llx", backend,
            w, h, p, x, y, static_cast<unsigned long long>(s));
      check(src.same_as(src_before, &p, &x, &y), "%s %dx%d: the source was written (plane %d)",
            backend, w, h, p);
    }
  }
  // Invalid source arguments: refused, destination untouched.
  Rng rng(seed);
  LfFrame src(64, 64), dst(64, 64);
  src.fill_smooth(rng);
  dst.fill_smooth(rng);
  LfFrame before(64, 64);
  for (int q = 0; q < 3; q++) before.copy_plane_from(dst, q);
  LfCase c = v3dtest::vp9::make_lf_case(rng, 64, 64);
  const uint8_t *const nullplane[3] = {src.data[0], nullptr, src.data[2]};
  const ptrdiff_t short_stride[3] = {src.stride[0], 8, src.stride[2]};
  const uint8_t *const srcp[3] = {src.data[0], src.data[1], src.data[2]};
  int p, x, y;
  check(v3d_vp9_loop_filter_frame_from(ctx, nullplane, src.stride, dst.data, dst.stride, 64, 64,
                                       c.grid.data(), c.grid_stride, c.sharpness) ==
            V3D_ERROR_INVALID_ARGUMENT,
        "%s: NULL source plane accepted", backend);
  check(v3d_vp9_loop_filter_frame_from(ctx, srcp, short_stride, dst.data, dst.stride, 64, 64,
                                       c.grid.data(), c.grid_stride, c.sharpness) ==
            V3D_ERROR_INVALID_ARGUMENT,
        "%s: short source stride accepted", backend);
  check(v3d_vp9_loop_filter_frame_from(ctx, nullptr, src.stride, dst.data, dst.stride, 64, 64,
                                       c.grid.data(), c.grid_stride, c.sharpness) ==
            V3D_ERROR_INVALID_ARGUMENT,
        "%s: NULL src accepted", backend);
  check(dst.same_as(before, &p, &x, &y), "%s: a refused call wrote the destination", backend);
  printf("backend %s -> %s: %d frames\n", backend, v3d_context_backend(ctx), n);
  v3d_context_free(ref);
  v3d_context_free(ctx);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  for (const char *b : {"scalar", "simd", "auto", "gpu", "hybrid"}) run_backend(b, seed);
  return v3dtest::finish();
}
