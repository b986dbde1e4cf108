// SPDX-License-Identifier: LGPL-2.1-or-later
// libFuzzer target: H.264 deblocking of one picture (v3d_h264_deblock_frame). Built only when
// the library implements it (kernels/h264/deblock_frame.cpp exists; see fuzz/meson.build).
// The fuzzer's bytes become a picture size (any, not only multiples of 16), a macroblock grid
// (qp, transform_8x8, slice index, bS of every segment: mostly valid, sometimes out of range)
// and 1..4 slices (idc, offsets: mostly valid). Properties checked on every input:
//  - scalar, simd on 1 thread and simd on 3 threads return the same code; on success the same
//    picture byte for byte; on failure an untouched picture;
//  - only samples inside the picture are written (guard bytes intact, chroma (w+1)/2 x (h+1)/2).
#include <algorithm>
#include <vector>

#include "common/test_util.h"
#include "common/guarded_planes.h"
#include "common/h264_deblock_picture.h"
#include "fuzz_input.h"
#include "v3d/v3d.h"

using v3dtest::GuardedPlanes;
using v3dfuzz::Input;

namespace {

constexpr int kMaxSize = 200;

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
  const int bad = in.u8();  // low values: push some fields out of range
  const int mb_cols = (width + 15) / 16, mb_rows = (height + 15) / 16;
  const int mb_stride = bad == 1 ? mb_cols - 1 : mb_cols + in.u8() % 3;
  const int n_slices = bad == 2 ? 0 : 1 + in.u8() % 4;
  std::vector<V3dH264SliceInfo> slices(n_slices > 0 ? n_slices : 1);
  for (auto &s : slices) {
    s = V3dH264SliceInfo{};
    const int idc = in.u8();
    s.disable_deblocking_filter_idc = static_cast<int8_t>(bad == 3 ? idc : idc % 8 == 0 ? 1 : idc % 8 == 1 ? 2 : 0);
    s.filter_offset_a = static_cast<int8_t>(bad == 4 ? in.u8() : 2 * (in.u8() % 13) - 12);
    s.filter_offset_b = static_cast<int8_t>(bad == 5 ? in.u8() : 2 * (in.u8() % 13) - 12);
    s.chroma_qp_index_offset = static_cast<int8_t>(bad == 6 ? in.u8() : in.u8() % 25 - 12);
    s.second_chroma_qp_index_offset = static_cast<int8_t>(in.u8() % 25 - 12);
  }
  std::vector<V3dH264MbInfo> mbs(static_cast<size_t>(mb_rows) * (mb_stride > 0 ? mb_stride : 1));
  const int qp_base = in.range(0, 51), qp_spread = in.u8() % 16;
  for (auto &m : mbs) {
    m = V3dH264MbInfo{};
    m.qp = static_cast<uint8_t>(std::min(51, qp_base + (in.u8() % (qp_spread + 1))));
    if (bad == 7 && in.u8() == 0) m.qp = 52;
    const int f = in.u8();
    m.transform_8x8 = f & 1;
    m.slice = static_cast<uint16_t>((f >> 1) % (n_slices > 0 ? n_slices : 1));
    if (bad == 8 && f == 255) m.slice = static_cast<uint16_t>(n_slices);
    const int bs_style = in.u8() % 4;
    for (int d = 0; d < 2; d++)
      for (int e = 0; e < 4; e++)
        for (int s = 0; s < 4; s++) {
          int v = bs_style == 0 ? 0 : bs_style == 1 ? (e ? 2 : 4) : in.u8() % 5;
          if (bad == 9 && in.u8() == 0) v = 5;
          m.bs[d][e][s] = static_cast<uint8_t>(v);
        }
  }

  // The picture: the tests' builder (content that makes the filters fire), seeded by the input.
  v3dtest::h264::Picture orig(width, height, 3);
  v3dtest::Rng pix(in.u32() + 5);
  orig.fill(pix);

  GuardedPlanes ref(orig);
  const int rc = v3d_h264_deblock_frame(ctx.scalar, ref.data, ref.stride, width, height,
                                        mbs.data(), mb_stride, slices.data(), n_slices);
  V3D_FUZZ_CHECK(ref.guards_intact(), "scalar wrote outside the picture");
  int pl;
  int x, y;
  if (rc) V3D_FUZZ_CHECK(ref.same_as(orig, &pl, &x, &y), "refused picture modified (plane %d x %d y %d)", pl, x, y);
  V3dContext *const others[] = {ctx.simd1, ctx.simd3};
  for (V3dContext *c : others) {
    GuardedPlanes f(orig);
    const int rc2 = v3d_h264_deblock_frame(c, f.data, f.stride, width, height, mbs.data(),
                                           mb_stride, slices.data(), n_slices);
    const int threads = v3d_context_cpu_threads(c);
    V3D_FUZZ_CHECK(rc2 == rc, "simd/%d threads returned %d, scalar %d", threads, rc2, rc);
    V3D_FUZZ_CHECK(f.guards_intact(), "simd/%d threads wrote outside the picture", threads);
    V3D_FUZZ_CHECK(f.same_as(ref, &pl, &x, &y), "simd/%d threads differs from scalar at plane %d x %d y %d",
                   threads, pl, x, y);
  }
  return 0;
}
