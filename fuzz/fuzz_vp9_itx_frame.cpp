// SPDX-License-Identifier: LGPL-2.1-or-later
// libFuzzer target: VP9 inverse transforms over one frame (v3d_vp9_itxfm_validate,
// v3d_vp9_itxfm_add_frame). The fuzzer's bytes become a frame size, a block list (mostly
// non-overlapping and valid, or raw fields that are mostly invalid), coefficients (any int16)
// and prediction pixels. Properties checked on every input:
//  - every backend (scalar, simd on 2 threads, and when a Vulkan device exists gpu in shared and
//    in plain memory and hybrid at a fixed split) returns what v3d_vp9_itxfm_validate returns;
//  - on success every backend's frame equals the scalar backend's, byte for byte;
//  - on failure the frame is untouched;
//  - nothing outside the planes is written (guard bytes intact).
// V3D_FUZZ_GPU=0 leaves the GPU out (faster).
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/test_util.h"
#include "common/guarded_planes.h"
#include "fuzz_input.h"
#include "v3d/v3d.h"

using v3dtest::GuardedPlanes;
using v3dfuzz::Input;

namespace {

struct Contexts {
  V3dContext *scalar = nullptr, *simd = nullptr, *gpu = nullptr, *hybrid = nullptr;
};

const Contexts &contexts() {
  static Contexts c = [] {
    v3d_set_log_func(v3dtest::quiet_log, nullptr);
    Contexts k;
    k.scalar = v3d_context_new("scalar", 1);
    k.simd = v3d_context_new("simd", 2);
    const char *env = getenv("V3D_FUZZ_GPU");
    if (!env || atoi(env) != 0) {
      k.gpu = v3d_context_new("gpu", 1);
      V3dContextOptions o{};
      o.backend = "hybrid";
      o.cpu_threads = 2;
      o.gpu_share = 0.5;
      if (k.gpu) k.hybrid = v3d_context_new_with_options(&o);
    }
    return k;
  }();
  return c;
}

constexpr int kMaxSize = 256;   // luma width/height: small frames, many executions per second
constexpr int kMaxBlocks = 96;

// Coefficients of one block: a style byte picks sparse values from the input, dense small values,
// dense arbitrary values, or extremes, from an Rng seeded by the input.
void make_coeffs(Input &in, int16_t *c, int n2) {
  const int style = in.u8() & 3;
  v3dtest::Rng rng(in.u32() + 1);
  std::fill(c, c + n2, 0);
  if (style == 0) {
    const int k = in.u8() & 15;
    for (int i = 0; i <= k; i++) c[in.u16() % n2] = in.s16();
    return;
  }
  const int lim = style == 1 ? 64 : style == 2 ? 32767 : 0;
  const int density = in.range(1, 16);
  for (int i = 0; i < n2; i++) {
    if (rng.range(0, 15) >= density) continue;
    if (style == 3) c[i] = rng.range(0, 1) ? 32767 : -32768;
    else c[i] = static_cast<int16_t>(rng.range(-lim, lim));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Contexts &ctx = contexts();
  Input in(data, size);
  const int width = in.range(1, kMaxSize), height = in.range(1, kMaxSize);
  const int mode = in.u8();
  const bool raw = (mode & 7) == 7;        // raw fields: mostly invalid
  const bool allow_bad = (mode & 7) == 6;  // structured, but some fields pushed out of range
  int pw[3], ph[3];
  pw[0] = (width + 7) & ~7;
  ph[0] = (height + 7) & ~7;
  pw[1] = pw[2] = pw[0] / 2;
  ph[1] = ph[2] = ph[0] / 2;

  // Block list. Structured: blocks aligned to their size inside the plane's rounded-up area (so
  // they may reach past it: clipping), overlapping ones dropped via an occupancy map of 4x4 units.
  std::vector<V3dVp9TxBlock> blocks;
  std::vector<int16_t> coeffs;
  std::vector<uint8_t> used[3];
  for (int p = 0; p < 3; p++) used[p].assign(((pw[p] + 3) / 4 + 8) * ((ph[p] + 3) / 4 + 8), 0);
  const int n_blocks = in.range(0, kMaxBlocks);
  for (int i = 0; i < n_blocks && in.left(); i++) {
    V3dVp9TxBlock b{};
    if (raw) {
      b.x = in.u16() % 300;
      b.y = in.u16() % 300;
      b.plane = in.u8() % 5;
      b.tx_size = in.u8() % 5;
      b.tx_type = in.u8() % 6;
      b.eob = in.u16() % 1100;
      b.coeff_offset = static_cast<uint32_t>(coeffs.size()) + (in.u8() % 4 == 0 ? in.u16() : 0);
      b.reserved = in.u8();
    } else {
      const int p = in.u8() % 3;
      const int ts = in.u8() & 3;
      const int n = 4 << ts;
      const int type_byte = in.u8();
      const int type = ts == 0 && (type_byte & 8) ? 4 : (ts == 3 ? 0 : type_byte & 3);
      const int cols = (pw[p] + n - 1) / n, rows = (ph[p] + n - 1) / n;
      const int bx = in.u8() % cols, by = in.u8() % rows;
      const int u = n / 4, stride4 = (pw[p] + 3) / 4 + 8;
      bool overlap = false;
      for (int yy = 0; yy < u; yy++)
        for (int xx = 0; xx < u; xx++) overlap |= used[p][(by * u + yy) * stride4 + bx * u + xx] != 0;
      if (overlap && !(allow_bad && (in.u8() & 1))) continue;
      for (int yy = 0; yy < u; yy++)
        for (int xx = 0; xx < u; xx++) used[p][(by * u + yy) * stride4 + bx * u + xx] = 1;
      b.x = static_cast<uint16_t>(bx * n);
      b.y = static_cast<uint16_t>(by * n);
      b.plane = static_cast<uint8_t>(p);
      b.tx_size = static_cast<uint8_t>(ts);
      b.tx_type = static_cast<uint8_t>(type);
      const int eb = in.u8();
      b.eob = eb < 16 ? 0 : eb < 128 ? 1 + eb % (n * n) : n * n;
      if (allow_bad && eb == 255) b.eob = n * n + 1;
      b.coeff_offset = static_cast<uint32_t>(coeffs.size());
    }
    const int n2 = b.tx_size < 4 ? 16 << (2 * b.tx_size) : 16;
    const size_t at = coeffs.size();
    coeffs.resize(at + n2);
    make_coeffs(in, coeffs.data() + at, n2);
    blocks.push_back(b);
  }
  size_t n_coeffs = coeffs.size();
  if (allow_bad && n_coeffs && (in.u8() & 3) == 0) n_coeffs -= 1 + in.u8() % n_coeffs;  // short

  const int expect = v3d_vp9_itxfm_validate(width, height, blocks.data(), blocks.size(), n_coeffs);

  GuardedPlanes orig(pw, ph, 32, 3);
  v3dtest::Rng pix(in.u32() + 7);
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < ph[p]; y++)
      for (int x = 0; x < pw[p]; x++) orig.data[p][y * orig.stride[p] + x] = static_cast<uint8_t>(pix.u32());

  GuardedPlanes ref(pw, ph, 32, 3);
  ref.copy_from(orig);
  int rc = v3d_vp9_itxfm_add_frame(ctx.scalar, ref.data, ref.stride, width, height,
                                   blocks.data(), blocks.size(), coeffs.data(), n_coeffs);
  V3D_FUZZ_CHECK(rc == expect, "scalar returned %d, validate %d", rc, expect);
  V3D_FUZZ_CHECK(ref.guards_intact(), "scalar wrote outside the planes");
  int pl;
  int x, y;
  if (rc) V3D_FUZZ_CHECK(ref.same_as(orig, &pl, &x, &y), "refused frame modified (plane %d x %d y %d)", pl, x, y);

  struct Run {
    const char *name;
    V3dContext *ctx;
    bool shared;
  };
  const Run runs[] = {{"simd", ctx.simd, false},  {"gpu", ctx.gpu, false},
                      {"gpu-shared", ctx.gpu, true}, {"hybrid", ctx.hybrid, false},
                      {"hybrid-shared", ctx.hybrid, true}};
  for (const Run &r : runs) {
    if (!r.ctx) continue;
    GuardedPlanes f(pw, ph, 32, 3, r.shared ? r.ctx : nullptr);
    f.copy_from(orig);
    const int rc2 = v3d_vp9_itxfm_add_frame(r.ctx, f.data, f.stride, width, height,
                                            blocks.data(), blocks.size(), coeffs.data(), n_coeffs);
    V3D_FUZZ_CHECK(rc2 == expect, "%s returned %d, validate %d (%s)", r.name, rc2, expect,
                   v3d_last_error());
    V3D_FUZZ_CHECK(f.guards_intact(), "%s wrote outside the planes", r.name);
    V3D_FUZZ_CHECK(f.same_as(ref, &pl, &x, &y), "%s differs from scalar at plane %d x %d y %d",
                   r.name, pl, x, y);
  }
  return 0;
}
