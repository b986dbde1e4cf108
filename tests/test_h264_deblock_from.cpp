// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_h264_deblock_frame_from (copy and deblock, row by row) against copying the source and then
// deblocking in place with the scalar sequential process: every backend, random macroblock
// grids and sizes (partial macroblocks included), several thread counts; the source is never
// written, nothing outside the destination's picture is touched, invalid source arguments are
// refused with nothing written.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/test_util.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"

using v3dtest::check;
using v3dtest::Rng;
using v3dtest::h264::Grid;
using v3dtest::h264::Picture;

namespace {

bool same(const Picture &a, const Picture &b) {
  for (int p = 0; p < 3; p++)
    if (!a.same_plane(b, p)) return false;
  return true;
}

void run_backend(const char *backend, uint64_t seed) {
  V3dContext *ctx = v3d_context_new(backend, v3dtest::test_threads());
  if (!ctx) {
    printf("backend %s: unavailable (%s)\n", backend, v3d_last_error());
    return;
  }
  V3dContext *ref = v3d_context_new("scalar", 1);
  const int sizes[][2] = {{16, 16}, {176, 144}, {250, 130}, {17, 17}, {1920, 1088}, {48, 33}};
  int n = 0;
  for (const auto &sz : sizes) {
    for (int rep = 0; rep < (sz[0] > 1000 ? 1 : v3dtest::scaled(4)); rep++, n++) {
      const uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (n + 7));
      Rng rng(s);
      const int w = sz[0], h = sz[1];
      Picture src(w, h), got(w, h, 8);
      src.fill(rng);
      got.fill(rng);  // whatever the destination held before
      Grid g = v3dtest::h264::make_grid(rng, w, h, v3dtest::h264::GridParams{});
      Picture want(got);
      for (int p = 0; p < 3; p++)
        for (int y = 0; y < want.h[p]; y++)
          memcpy(want.data[p] + y * want.stride[p], src.data[p] + y * src.stride[p], want.w[p]);
      int rc = v3d_h264_deblock_frame(ref, want.data, want.stride, w, h, g.mbs.data(),
                                      g.mb_stride, g.slices.data(), static_cast<int>(g.slices.size()));
      check(rc == 0, "reference failed: %s", v3d_last_error());
      Picture src_before(src);
      const uint8_t *const srcp[3] = {src.data[0], src.data[1], src.data[2]};
      rc = v3d_h264_deblock_frame_from(ctx, srcp, src.stride, got.data, got.stride, w, h,
                                       g.mbs.data(), g.mb_stride, g.slices.data(),
                                       static_cast<int>(g.slices.size()));
      check(rc == 0, "%s %dx%d: returned %d (%s), seed 0x%llx", backend, w, h, rc,
            v3d_last_error(), static_cast<unsigned long long>(s));
      check(same(got, want), "%s %dx%d: differs from copy-then-deblock, seed 0x%llx", backend, w,
            h, static_cast<unsigned long long>(s));
      check(same(src, src_before), "%s %dx%d: the source was written, seed 0x%llx", backend, w,
            h, static_cast<unsigned long long>(s));
    }
  }
  // Invalid source arguments: refused, destination untouched.
  Rng rng(seed);
  Picture src(32, 32), dst(32, 32);
  src.fill(rng);
  dst.fill(rng);
  Picture before(dst);
  Grid g = v3dtest::h264::make_grid(rng, 32, 32, v3dtest::h264::GridParams{});
  const uint8_t *const nullplane[3] = {src.data[0], nullptr, src.data[2]};
  const uint8_t *const srcp[3] = {src.data[0], src.data[1], src.data[2]};
  const ptrdiff_t short_stride[3] = {src.stride[0], 4, src.stride[2]};
  const int ns = static_cast<int>(g.slices.size());
  check(v3d_h264_deblock_frame_from(ctx, nullplane, src.stride, dst.data, dst.stride, 32, 32,
                                    g.mbs.data(), g.mb_stride, g.slices.data(), ns) ==
            V3D_ERROR_INVALID_ARGUMENT, "%s: NULL source plane accepted", backend);
  check(v3d_h264_deblock_frame_from(ctx, srcp, short_stride, dst.data, dst.stride, 32, 32,
                                    g.mbs.data(), g.mb_stride, g.slices.data(), ns) ==
            V3D_ERROR_INVALID_ARGUMENT, "%s: short source stride accepted", backend);
  check(v3d_h264_deblock_frame_from(ctx, nullptr, src.stride, dst.data, dst.stride, 32, 32,
                                    g.mbs.data(), g.mb_stride, g.slices.data(), ns) ==
            V3D_ERROR_INVALID_ARGUMENT, "%s: NULL src accepted", backend);
  check(same(dst, before), "%s: a refused call wrote the destination", backend);
  printf("backend %s -> %s: %d pictures\n", backend, v3d_context_backend(ctx), n);
  v3d_context_free(ref);
  v3d_context_free(ctx);
}

}  // namespace

int main() {
  const uint64_t seed = v3dtest::base_seed();
  for (const char *b : {"scalar", "simd", "auto", "gpu", "hybrid"}) run_backend(b, seed);
  return v3dtest::finish();
}
