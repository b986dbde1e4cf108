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

#include "../tools/md5.h"
#include "common/test_util.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/ivf.h"

using v3dtest::check;

namespace {

std::vector<uint8_t> read_all(const std::string &path) {
  std::vector<uint8_t> d;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return d;
  uint8_t buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) d.insert(d.end(), buf, buf + n);
  fclose(f);
  return d;
}

std::string md5_of(const V3dVp9Picture &p) {
  v3dtool::Md5 m;
  for (int pl = 0; pl < 3; ++pl) {
    const int w = pl ? (p.width + 1) / 2 : p.width, h = pl ? (p.height + 1) / 2 : p.height;
    for (int y = 0; y < h; ++y) m.update(p.planes[pl] + y * p.strides[pl], size_t(w));
  }
  return m.hex();
}

struct Packet {
  const uint8_t *data;
  size_t size;
};

// Makes dir/NAME.ivf from a testsrc2 clip of w x h and `frames` frames with vpxenc `opts`;
// returns vpxdec's per-frame MD5s (empty after a failure).
std::vector<std::string> make_stream(const std::string &dir, const std::string &name, int w,
                                     int h, int frames, const std::string &opts) {
  const std::string cmd =
      "cd " + dir + " && ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=" +
      std::to_string(w) + "x" + std::to_string(h) + ":rate=30 -frames:v " +
      std::to_string(frames) + " -pix_fmt yuv420p " + name + ".y4m && vpxenc --codec=vp9 "
      "--quiet --ivf --limit=" + std::to_string(frames) + " " + opts + " -o " + name + ".ivf " +
      name + ".y4m >/dev/null 2>&1 && vpxdec --i420 --md5 -o " + name + "-%4.i420 " + name +
      ".ivf | cut -d' ' -f1 > " + name + ".md5 && rm -f " + name + "-*.i420";
  std::vector<std::string> ref;
  if (system(cmd.c_str()) != 0) return ref;
  FILE *f = fopen((dir + "/" + name + ".md5").c_str(), "r");
  char line[64];
  while (f && fgets(line, sizeof(line), f)) ref.emplace_back(line, 32);
  if (f) fclose(f);
  return ref;
}

// The packets of an IVF file held in `file`.
std::vector<Packet> packets_of(const std::vector<uint8_t> &file) {
  v3d::vp9::IvfReader ivf;
  v3d::vp9::IvfHeader hdr;
  std::string err;
  std::vector<Packet> pkts;
  if (ivf.open(file.data(), file.size(), hdr, err)) {
    Packet p;
    uint64_t pts;
    while (ivf.next(p.data, p.size, pts, err) == 1) pkts.push_back(p);
  }
  return pkts;
}

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
      check(md5_of(held[k]) == ref[k], "%s: picture %zu differs from vpxdec's", label, k);
    v3d_vp9_picture_unref(&held[k]);
  }
  printf("%s: %zu pictures equal to vpxdec's over %zu moves\n", label, held.size(), move);
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (system("command -v vpxenc >/dev/null 2>&1 && command -v vpxdec >/dev/null 2>&1 && "
             "command -v ffmpeg >/dev/null 2>&1") != 0) {
    printf("SKIP: vpxenc, vpxdec or ffmpeg not found\n");
    return 77;
  }
  char tmpl[] = "/tmp/v3d-vp9ctx-XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  const std::string dir = tmpl;
  const std::vector<std::string> ref =
      make_stream(dir, "s", 112, 72, 24, "--auto-alt-ref=1 --lag-in-frames=8 --kf-max-dist=12");
  const std::vector<uint8_t> file = read_all(dir + "/s.ivf");
  const std::vector<Packet> pkts = packets_of(file);
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
  if (system(("rm -rf " + dir).c_str()) != 0) printf("note: %s left behind\n", dir.c_str());
  return v3dtest::finish();
}
