// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_vp9_decoder_set_context (v3d/vp9_decoder.h): a decoder moved between contexts while it
// decodes (scalar, cpu, and gpu and hybrid where a Vulkan device exists, in turn every few
// packets, the caller's context references released at once) gives every picture equal to
// vpxdec's, on a vpxenc stream made at test time with hidden frames and two key frames; the
// pictures taken before a move stay valid; NULL arguments are refused. Exit 77 (skip) without
// vpxenc, vpxdec or ffmpeg.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"

using v3dtest::check;
using v3dtest::Packet;
using v3dtest::picture_md5;

namespace {

// Decodes pkts, moving the decoder to the next of `backends` every `every` packets; checks each
// picture against ref. Pictures are kept to the end (they must outlive the moves).
void decode_moving(const char *label, const std::vector<Packet> &pkts,
                   const std::vector<std::string> &ref, const std::vector<const char *> &backends,
                   size_t every) {
  V3dContext *first = v3d_context_new(backends[0], 2);
  if (!check(first != nullptr, "%s: context %s: %s", label, backends[0], v3d_last_error())) return;
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(first, nullptr);
  v3d_context_free(first);  // the decoder holds its own reference
  std::vector<V3dVp9Picture> held;
  size_t move = 0;
  for (size_t i = 0; i < pkts.size(); ++i) {
    if (i > 0 && i % every == 0) {
      const char *b = backends[++move % backends.size()];
      V3dContext *ctx = v3d_context_new(b, 2);
      check(ctx && v3d_vp9_decoder_set_context(dec, ctx) == V3D_OK, "%s: move to %s", label, b);
      v3d_context_free(ctx);
    }
    check(v3d_vp9_decoder_send_data(dec, pkts[i].data, pkts[i].size, int64_t(i)) == V3D_OK,
          "%s: packet %zu: %s", label, i, v3d_last_error());
    V3dVp9Picture pic;
    while (v3d_vp9_decoder_get_picture(dec, &pic) == V3D_OK) held.push_back(pic);
  }
  v3d_vp9_decoder_free(dec);
  check(held.size() == ref.size(), "%s: %zu pictures, %zu from vpxdec", label, held.size(),
        ref.size());
  for (size_t k = 0; k < held.size(); ++k) {
    if (k < ref.size())
      check(picture_md5(held[k]) == ref[k], "%s: picture %zu differs from vpxdec's", label, k);
    v3d_vp9_picture_unref(&held[k]);
  }
  printf("%s: %zu pictures equal to vpxdec's over %zu moves\n", label, held.size(), move);
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (!v3dtest::have_tools("vpxenc vpxdec ffmpeg")) return 77;
  const v3dtest::ScratchDir dir("v3d-vp9ctx");
  if (dir.path().empty()) return 1;
  const std::vector<std::string> ref = v3dtest::make_stream(
      dir.path(), "s", 112, 72, 24, "--auto-alt-ref=1 --lag-in-frames=8 --kf-max-dist=12");
  const v3dtest::Bytes file = v3dtest::read_all(dir / "s.ivf");
  const std::vector<Packet> pkts = v3dtest::ivf_packets(file);
  if (check(!ref.empty() && !pkts.empty(), "making the stream failed")) {
    std::vector<const char *> backends = {"scalar", "simd"};
    V3dContext *gpu = v3d_context_new("gpu", 1);
    if (gpu) {
      backends.push_back("gpu");
      backends.push_back("hybrid");
      v3d_context_free(gpu);
    } else {
      const char *req = getenv("V3D_REQUIRE_GPU");
      check(!(req && req[0] == '1'), "V3D_REQUIRE_GPU=1 but no Vulkan device");
      printf("SKIP: gpu and hybrid moves (no Vulkan device)\n");
    }
    decode_moving("every packet", pkts, ref, backends, 1);
    decode_moving("every 5 packets", pkts, ref, backends, 5);
  }
  V3dContext *ctx = v3d_context_new("scalar", 1);
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, nullptr);
  check(v3d_vp9_decoder_set_context(dec, nullptr) == V3D_ERROR_INVALID_ARGUMENT,
        "set_context(dec, NULL) accepted");
  check(v3d_vp9_decoder_set_context(nullptr, ctx) == V3D_ERROR_INVALID_ARGUMENT,
        "set_context(NULL, ctx) accepted");
  check(v3d_vp9_decoder_set_context(dec, ctx) == V3D_OK, "set_context to its own context");
  v3d_vp9_decoder_free(dec);
  v3d_context_free(ctx);
  return v3dtest::finish();
}
