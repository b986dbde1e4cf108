// SPDX-License-Identifier: LGPL-2.1-or-later
// The VP9 decoder's frame-to-frame state rules (decode_frame.cpp) against vpxdec on streams made
// from a vpxenc stream by editing packets, to reach what vpxenc itself never writes:
//  - show_existing_frame packets of several slots between inter frames;
//  - the key frame's payload again as a hidden intra-only frame, with every reset_frame_context
//    (0 and 1 keep the adapted context, so the payload no longer matches it: libvpx finds the
//    tile data corrupt, and so must we), several refresh_frame_flags, then show_existing of the
//    refreshed slot and the inter frames (whose probabilities then follow the intra-only
//    frame's rules: update factor, previous-frame MVs, sign bias);
//  - a second stream of another size (with segmentation) spliced in at its key frame and back.
// Every picture's MD5 and the frame of the first error are compared with vpxdec's. Exit 77
// (skip) without vpxenc, vpxdec or ffmpeg.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/uncompressed_header.h"

using v3dtest::check;
using v3dtest::Bytes;

namespace {

std::string dir;

// The packets of the IVF file at ivf_path, copied, and its 32-byte file header.
std::vector<Bytes> packets(const std::string &ivf_path, Bytes &file_header) {
  const Bytes file = v3dtest::read_all(ivf_path);
  std::vector<Bytes> out;
  for (const v3dtest::Packet &p : v3dtest::ivf_packets(file))
    out.emplace_back(p.data, p.data + p.size);
  if (!out.empty()) file_header.assign(file.begin(), file.begin() + 32);
  return out;
}

struct BitWriter {
  Bytes out;
  size_t n = 0;
  void put(uint32_t v, int bits) {
    for (int i = bits - 1; i >= 0; --i) {
      if (n % 8 == 0) out.push_back(0);
      out.back() |= uint8_t(((v >> i) & 1) << (7 - n % 8));
      ++n;
    }
  }
};

int bit(const Bytes &d, size_t i) { return (d[i / 8] >> (7 - i % 8)) & 1; }

// The key frame `key` (profile 0, no render size) as a hidden intra-only frame: the header up to
// the frame size rewritten, the rest of its bits and its compressed header and tiles kept.
Bytes intra_only_from_key(const Bytes &key, int reset_frame_context, int refresh) {
  v3d::vp9::HeaderState hs;
  v3d::vp9::FrameHeader fh;
  std::string err;
  if (!v3d::vp9::parse_uncompressed_header(key.data(), key.size(), hs, fh, err) ||
      fh.render_and_frame_size_different)
    return Bytes();
  // Key frame, profile 0: 8 bits of marker/profile/flags, 24 sync, 4 color, 32 size, 1 render.
  const size_t rest = 8 + 24 + 4 + 32 + 1;
  BitWriter w;
  w.put(2, 2), w.put(0, 2), w.put(0, 1);  // frame_marker, profile 0, not show_existing
  w.put(1, 1), w.put(0, 1), w.put(0, 1);  // non-key, hidden, not error resilient
  w.put(1, 1), w.put(uint32_t(reset_frame_context), 2);  // intra_only, reset_frame_context
  w.put(0x498342, 24), w.put(uint32_t(refresh), 8);
  w.put(fh.frame_width - 1, 16), w.put(fh.frame_height - 1, 16), w.put(0, 1);
  for (size_t i = rest; i < fh.uncompressed_header_bits; ++i) w.put(uint32_t(bit(key, i)), 1);
  Bytes out = w.out;
  out.insert(out.end(), key.begin() + fh.uncompressed_header_size, key.end());
  return out;
}

Bytes show_existing(int slot) { return Bytes{uint8_t(0x88 | slot)}; }

std::vector<std::string> ours(V3dContext *ctx, const std::vector<Bytes> &pkts, bool &failed) {
  std::vector<std::string> md5s;
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctx, nullptr);
  failed = false;
  for (size_t i = 0; i < pkts.size(); ++i) {
    const Bytes &p = pkts[i];
    if (v3d_vp9_decoder_send_data(dec, p.data(), p.size(), int64_t(i)) < 0) {
      failed = true;
      break;
    }
    V3dVp9Picture pic;
    while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
      // A picture carries the pts of the packet that showed it (show_existing_frame included).
      check(pic.pts == int64_t(i), "packet %zu: picture pts %lld", i, (long long)pic.pts);
      md5s.push_back(v3dtest::picture_md5(pic));
      v3d_vp9_picture_unref(&pic);
    }
  }
  v3d_vp9_decoder_free(dec);
  return md5s;
}

void compare(V3dContext *ctx, const std::string &name, const Bytes &hdr,
             const std::vector<Bytes> &pkts, bool expect_failure) {
  const std::string path = dir + "/" + name + ".ivf";
  v3dtest::write_ivf(path, hdr, pkts);
  bool ref_failed, our_failed;
  const std::vector<std::string> ref = v3dtest::vpxdec_md5s(path, &ref_failed);
  const std::vector<std::string> got = ours(ctx, pkts, our_failed);
  size_t first = 0;
  while (first < ref.size() && first < got.size() && ref[first] == got[first]) ++first;
  check(ref == got && ref_failed == our_failed && !ref.empty(),
        "%s: %zu pictures (vpxdec %zu), first difference at %zu, failed %d (vpxdec %d)",
        name.c_str(), got.size(), ref.size(), first, our_failed, ref_failed);
  check(ref_failed == expect_failure, "%s: vpxdec %s, the stream was made to %s", name.c_str(),
        ref_failed ? "failed" : "decoded it", expect_failure ? "fail" : "decode");
  printf("%s: %zu pictures%s\n", name.c_str(), got.size(), our_failed ? ", then an error" : "");
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (!v3dtest::have_tools("vpxenc vpxdec ffmpeg")) return 77;
  const v3dtest::ScratchDir scratch("v3d-vp9state");
  if (scratch.path().empty()) return 1;
  dir = scratch.path();
  if (!check(v3dtest::encode_testsrc(dir, "a", 160, 96, 10, "") &&
                 v3dtest::encode_testsrc(dir, "b", 96, 64, 6, "--aq-mode=1"),
             "making the streams failed"))
    return v3dtest::finish();
  Bytes hdr, hdr_b;
  const std::vector<Bytes> a = packets(dir + "/a.ivf", hdr), b = packets(dir + "/b.ivf", hdr_b);
  if (!check(a.size() == 10 && b.size() == 6, "%zu and %zu packets", a.size(), b.size()))
    return v3dtest::finish();
  V3dContext *ctx = v3d_context_new("scalar", 1);

  std::vector<Bytes> s;
  for (size_t i = 0; i < a.size(); ++i) {
    s.push_back(a[i]);
    if (i == 2 || i == 5) s.push_back(show_existing(0));
    if (i == 7) s.push_back(show_existing(int(i) % 8));
  }
  compare(ctx, "show-existing", hdr, s, false);

  const int refresh[4] = {0x01, 0x02, 0x04, 0xff};
  for (int reset = 0; reset < 4; ++reset) {
    for (int r : refresh) {
      const Bytes io = intra_only_from_key(a[0], reset, r);
      if (!check(!io.empty(), "intra-only frame not made")) break;
      int slot = 0;
      while (!(r & (1 << slot))) ++slot;
      s.assign({a[0], io, show_existing(slot)});
      s.insert(s.end(), a.begin() + 1, a.end());
      const std::string name =
          "intra-only-reset" + std::to_string(reset) + "-refresh" + std::to_string(r);
      compare(ctx, name, hdr, s, reset < 2);
    }
  }

  s.assign(a.begin(), a.begin() + 5);
  s.insert(s.end(), b.begin(), b.end());
  s.insert(s.end(), a.begin(), a.end());
  compare(ctx, "size-change", hdr, s, false);

  v3d_context_free(ctx);
  return v3dtest::finish();
}
