// SPDX-License-Identifier: LGPL-2.1-or-later
// The tile decoder's coefficient layouts (vp9/dec/coef_layout.h): every stream decoded with
// every transform slot forced raster (add_exact_eob) and forced column-major (tokens stored at
// their transposed positions, add_exact_eob_cm), on every SIMD target, per block and on the
// frame path (inter frames' intra blocks recorded and replayed; the inter blocks stay raster
// there), must give vpxdec's pictures. The streams reach every transform size and type, the
// lossless WHT, intra blocks of inter frames and odd frame sizes (checked from the decoder's
// counters). Exit 77 (skip) without vpxenc, vpxdec or ffmpeg.
#include <cstdio>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "v3d/cpu.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/coef_layout.h"

using v3d::vp9::CoefLayout;
using v3dtest::check;

namespace {

struct Stream {
  const char *name;
  int w, h, frames;
  const char *opts;
  std::vector<v3dtest::Bytes> packets;
  std::vector<std::string> md5s;  // vpxdec's
};

// Decodes s with the layout and residual path given; true when every picture is vpxdec's.
// Adds the decoder's counters to *sum.
bool decode_matches(V3dContext *ctx, const Stream &s, int residuals, V3dVp9DecoderCounters *sum) {
  V3dVp9DecoderSettings settings;
  v3d_vp9_decoder_default_settings(&settings);
  settings.residuals = residuals;
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, &settings);
  std::vector<std::string> got;
  bool failed = false;
  for (size_t i = 0; i < s.packets.size() && !failed; ++i) {
    failed = v3d_vp9_decoder_send_data(dec, s.packets[i].data(), s.packets[i].size(),
                                       int64_t(i)) < 0;
    V3dVp9Picture pic;
    while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
      got.push_back(v3dtest::picture_md5(pic));
      v3d_vp9_picture_unref(&pic);
    }
  }
  V3dVp9DecoderCounters c{};
  c.size = sizeof(c);
  v3d_vp9_decoder_get_counters(dec, &c);
  for (int tx = 0; tx < 4; ++tx)
    for (int type = 0; type < 5; ++type) sum->transforms[tx][type] += c.transforms[tx][type];
  sum->deferred_intra_blocks += c.deferred_intra_blocks;
  sum->lossless_frames += c.lossless_frames;
  v3d_vp9_decoder_free(dec);
  return !failed && got == s.md5s;
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (!v3dtest::have_tools("vpxenc vpxdec ffmpeg")) return 77;
  const v3dtest::ScratchDir scratch("v3d-vp9layout");
  if (scratch.path().empty()) return 1;
  std::vector<Stream> streams = {
      {"kf176-q20", 176, 144, 2, "--kf-max-dist=0 --end-usage=q --cq-level=20", {}, {}},
      {"inter176", 176, 144, 8, "--end-usage=q --cq-level=12", {}, {}},
      {"inter100x75", 100, 75, 8, "--end-usage=q --cq-level=25", {}, {}},
      {"inter176-lossless", 176, 144, 3, "--lossless=1", {}, {}},
  };
  for (Stream &s : streams) {
    s.md5s = v3dtest::make_stream(scratch.path(), s.name, s.w, s.h, s.frames, s.opts);
    const v3dtest::Bytes file = v3dtest::read_all(scratch / (std::string(s.name) + ".ivf"));
    for (const v3dtest::Packet &p : v3dtest::ivf_packets(file))
      s.packets.emplace_back(p.data, p.data + p.size);
    if (!check(!s.md5s.empty() && !s.packets.empty(), "%s: making the stream failed", s.name))
      return v3dtest::finish();
  }

  const int n_targets = v3d_cpu_targets(nullptr, 0);
  std::vector<const char *> targets(size_t(n_targets), nullptr);
  v3d_cpu_targets(targets.data(), n_targets);
  V3dContext *ctx = v3d_context_new("scalar", 1);
  const CoefLayout layouts[2] = {CoefLayout::kRaster, CoefLayout::kColMajor};
  const int paths[2] = {V3D_VP9_RESIDUALS_PER_BLOCK, V3D_VP9_RESIDUALS_FRAME};
  for (const char *target : targets) {
    if (!check(v3d_cpu_force_target(target) == 0, "v3d_cpu_force_target(%s)", target)) continue;
    for (CoefLayout layout : layouts) {
      v3d::vp9::set_coef_layout_for_testing(layout);
      const char *layout_name = layout == CoefLayout::kRaster ? "raster" : "column-major";
      for (int residuals : paths) {
        V3dVp9DecoderCounters sum{};
        for (const Stream &s : streams)
          check(decode_matches(ctx, s, residuals, &sum),
                "%s, %s, residuals %d: %s differs from vpxdec", target, layout_name, residuals,
                s.name);
        // The streams reach every slot, and the frame path its recorded intra blocks.
        for (int tx = 0; tx < 4; ++tx)
          for (int type = 0; type < 5; ++type) {
            const bool valid = type == 4 ? tx == 0 : tx < 3 || type == 0;
            check(!valid || sum.transforms[tx][type] > 0, "slot [%d][%d] not reached", tx, type);
          }
        check(sum.lossless_frames > 0, "no lossless frame");
        check(residuals != V3D_VP9_RESIDUALS_FRAME || sum.deferred_intra_blocks > 0,
              "no intra block on the frame path");
      }
    }
    printf("%s: both layouts, both residual paths, %zu streams\n", target, streams.size());
  }
  v3d::vp9::set_coef_layout_for_testing(CoefLayout::kPerSlot);
  v3d_cpu_force_target(nullptr);
  v3d_context_free(ctx);
  return v3dtest::finish();
}
