// SPDX-License-Identifier: LGPL-2.1-or-later
// libFuzzer target: the single-edge and single-block kernels, every SIMD target this CPU has
// against the scalar reference, on arbitrary pixels, thresholds and coefficients:
//   0: VP9 loop filter edge (v3d_vp9_loop_filter_edge vs _ref), any dir/width/len/E/I/H;
//   1..4: H.264 deblocking luma, luma intra, chroma, chroma intra (vs their _ref), any
//         alpha/beta/tc0, both directions;
//   5: VP9 inverse transform + add of one block (v3d_vp9_itxfm_add vs _ref), any int16
//      coefficients and eob, valid and invalid (tx_size, tx_type) pairs; and
//      v3d_vp9_itxfm_add_exact_eob and v3d_vp9_itxfm_add_exact_eob_colmajor on the same
//      block, whose eob promise may be broken.
// Properties: the SIMD result equals the reference byte for byte over the whole buffer, and
// nothing outside the region the kernel's contract allows (v3d/v3d.h) changed. The exact-eob
// entries' pixels are unspecified when the promise is broken, so they are compared only where
// it holds by construction (eob >= n*n): the row-major entry's with the reference on the
// block, the column-major entry's with the reference on its transpose.
#include <cstring>

#include "fuzz_input.h"
#include "v3d/v3d.h"

using v3dfuzz::Input;

namespace {

constexpr int kDim = 80;                 // buffer rows and columns in use
constexpr int kStride = kDim + 5;        // odd stride: no alignment promise
constexpr int kOrg = 24;                 // position of the edge / block origin (row and column)

struct Buf {
  uint8_t px[kStride * kDim];
  uint8_t *at(int x, int y) { return px + y * kStride + x; }
};

// Region [x0, x1) x [y0, y1) relative to the origin that the kernel may change.
struct Region {
  int x0, x1, y0, y1;
};

bool outside_unchanged(const Buf &a, const Buf &orig, const Region &r) {
  for (int y = 0; y < kDim; y++)
    for (int x = 0; x < kStride; x++) {
      const int rx = x - kOrg, ry = y - kOrg;
      if (rx >= r.x0 && rx < r.x1 && ry >= r.y0 && ry < r.y1) continue;
      if (a.px[y * kStride + x] != orig.px[y * kStride + x]) return false;
    }
  return true;
}

const char *pick_target(Input &in) {
  static const char *names[16];
  static const int n = v3d_cpu_targets(names, 16);
  static const char *current = nullptr;
  const char *want = names[in.u8() % n];
  if (want != current) {
    V3D_FUZZ_CHECK(v3d_cpu_force_target(want) == V3D_OK, "target %s listed but refused", want);
    current = want;
  }
  return want;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  const int kernel = in.u8() % 6;
  const char *target = pick_target(in);
  static Buf orig, a, b, e, at, ec;  // at, ec: the reference and the column-major entry on the
                                     // transposed coefficients
  // Pixels: a base level plus small input-driven deltas (the filters' regime), or raw bytes.
  const int style = in.u8();
  const int base = in.u8();
  for (int i = 0; i < kStride * kDim; i++) {
    const int d = in.left() ? static_cast<int8_t>(in.u8()) : 0;
    orig.px[i] = static_cast<uint8_t>(style & 1 ? base + d : base + d / 16);
  }
  Region reg{0, 0, 0, 0};
  a = orig;
  b = orig;
  e = orig;
  at = orig;
  ec = orig;
  if (kernel == 0) {
    const int dir = in.u8() % 3;  // 2: invalid
    const int fw_sel = in.u8() % 4, fw = fw_sel == 3 ? 5 : 4 << fw_sel;
    const int len = in.u8() & 1 ? 16 : 8;
    const int E = in.range(-8, 300), I = in.range(-8, 300), H = in.range(-8, 300);
    v3d_vp9_loop_filter_edge_ref(a.at(kOrg, kOrg), kStride, dir, fw, len, E, I, H);
    v3d_vp9_loop_filter_edge(b.at(kOrg, kOrg), kStride, dir, fw, len, E, I, H);
    reg = dir == 0 ? Region{-8, 8, 0, len} : Region{0, len, -8, 8};
    V3D_FUZZ_CHECK(memcmp(a.px, b.px, sizeof(a.px)) == 0,
                   "vp9 lpf %s: dir %d width %d len %d E %d I %d H %d differs from _ref", target,
                   dir, fw, len, E, I, H);
  } else if (kernel <= 4) {
    const int dir = in.u8() % 3;
    const int alpha = in.range(-4, 300), beta = in.range(-4, 300);
    int8_t tc0[4];
    for (int8_t &t : tc0) t = static_cast<int8_t>(in.u8() & 0x80 ? in.u8() : in.u8() % 26 - 1);
    const bool luma = kernel <= 2;
    const int span = luma ? 4 : 2, len = luma ? 16 : 8;
    switch (kernel) {
      case 1:
        v3d_h264_loop_filter_luma_ref(a.at(kOrg, kOrg), kStride, dir, alpha, beta, tc0);
        v3d_h264_loop_filter_luma(b.at(kOrg, kOrg), kStride, dir, alpha, beta, tc0);
        break;
      case 2:
        v3d_h264_loop_filter_luma_intra_ref(a.at(kOrg, kOrg), kStride, dir, alpha, beta);
        v3d_h264_loop_filter_luma_intra(b.at(kOrg, kOrg), kStride, dir, alpha, beta);
        break;
      case 3:
        v3d_h264_loop_filter_chroma_ref(a.at(kOrg, kOrg), kStride, dir, alpha, beta, tc0);
        v3d_h264_loop_filter_chroma(b.at(kOrg, kOrg), kStride, dir, alpha, beta, tc0);
        break;
      default:
        v3d_h264_loop_filter_chroma_intra_ref(a.at(kOrg, kOrg), kStride, dir, alpha, beta);
        v3d_h264_loop_filter_chroma_intra(b.at(kOrg, kOrg), kStride, dir, alpha, beta);
    }
    reg = dir == 0 ? Region{-span, span, 0, len} : Region{0, len, -span, span};
    V3D_FUZZ_CHECK(memcmp(a.px, b.px, sizeof(a.px)) == 0,
                   "h264 kernel %d %s: dir %d alpha %d beta %d tc0 %d %d %d %d differs from _ref",
                   kernel, target, dir, alpha, beta, tc0[0], tc0[1], tc0[2], tc0[3]);
  } else {
    const int tx_size = in.u8() % 5, tx_type = in.u8() % 6;  // 4 / 5: invalid
    const int n = tx_size < 4 ? 4 << tx_size : 4;
    static int16_t coeffs[32 * 32];
    memset(coeffs, 0, sizeof(coeffs));
    const int mode = in.u8() % 3;
    if (mode == 0) {  // sparse: a few positions
      const int k = in.u8() % 24;
      for (int i = 0; i <= k; i++) coeffs[in.u16() % (n * n)] = in.s16();
    } else {  // dense from the input, small (mode 1) or any (mode 2) values
      for (int i = 0; i < n * n && in.left(); i++)
        coeffs[i] = mode == 1 ? static_cast<int8_t>(in.u8()) : in.s16();
    }
    const int eob = in.range(0, n * n + 2);
    v3d_vp9_itxfm_add_ref(a.at(kOrg, kOrg), kStride, coeffs, tx_size, tx_type, eob);
    v3d_vp9_itxfm_add(b.at(kOrg, kOrg), kStride, coeffs, tx_size, tx_type, eob);
    v3d_vp9_itxfm_add_exact_eob(e.at(kOrg, kOrg), kStride, coeffs, tx_size, tx_type, eob);
    // The column-major entry on the same coefficients, against the reference on their
    // transpose (t[i*n + j] = coeffs[j*n + i]).
    static int16_t t[32 * 32];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) t[i * n + j] = coeffs[j * n + i];
    v3d_vp9_itxfm_add_ref(at.at(kOrg, kOrg), kStride, t, tx_size, tx_type, eob);
    v3d_vp9_itxfm_add_exact_eob_colmajor(ec.at(kOrg, kOrg), kStride, coeffs, tx_size, tx_type,
                                         eob);
    reg = Region{0, n, 0, n};
    V3D_FUZZ_CHECK(memcmp(a.px, b.px, sizeof(a.px)) == 0,
                   "vp9 itx %s: tx_size %d tx_type %d eob %d differs from _ref", target, tx_size,
                   tx_type, eob);
    V3D_FUZZ_CHECK(eob < n * n || memcmp(a.px, e.px, sizeof(a.px)) == 0,
                   "vp9 itx exact eob %s: tx_size %d tx_type %d eob %d differs from _ref", target,
                   tx_size, tx_type, eob);
    V3D_FUZZ_CHECK(outside_unchanged(e, orig, reg),
                   "vp9 itx exact eob %s: tx_size %d tx_type %d eob %d wrote outside the block",
                   target, tx_size, tx_type, eob);
    V3D_FUZZ_CHECK(eob < n * n || memcmp(at.px, ec.px, sizeof(at.px)) == 0,
                   "vp9 itx column-major %s: tx_size %d tx_type %d eob %d differs from _ref on "
                   "the transpose", target, tx_size, tx_type, eob);
    V3D_FUZZ_CHECK(outside_unchanged(ec, orig, reg),
                   "vp9 itx column-major %s: tx_size %d tx_type %d eob %d wrote outside the block",
                   target, tx_size, tx_type, eob);
  }
  V3D_FUZZ_CHECK(outside_unchanged(a, orig, reg), "kernel %d: reference wrote outside its region", kernel);
  V3D_FUZZ_CHECK(outside_unchanged(b, orig, reg), "kernel %d %s wrote outside its region", kernel, target);
  return 0;
}
