// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 uncompressed header parser and superframe index on streams vpxenc makes at test time,
// against an independent parser: FFmpeg's trace_headers bitstream filter, which prints every
// syntax element of every frame. Also checks what the encoder settings imply (key frames only,
// error resilience, frame parallel mode, tile columns and rows, segmentation, lossless, hidden
// frames in superframes). Exit 77 (skip) without vpxenc or ffmpeg.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/vp9_streams.h"
#include "vp9/dec/ivf.h"
#include "vp9/dec/superframe.h"
#include "vp9/dec/uncompressed_header.h"

using namespace v3d::vp9;
using v3dtest::check;

namespace {

struct TraceFrame {
  std::map<std::string, long> v;    // syntax element -> value
  std::map<std::string, long> pos;  // syntax element -> bit position
  int width = 0, height = 0;
  bool has(const char *k) const { return v.count(k) != 0; }
  long get(const char *k, long def = -1) const {
    auto it = v.find(k);
    return it == v.end() ? def : it->second;
  }
};

std::string tmpdir;

// The frames of `ivf` as FFmpeg's trace_headers prints them, in decoding order.
std::vector<TraceFrame> trace(const std::string &ivf) {
  std::vector<TraceFrame> frames;
  const std::string cmd = "ffmpeg -hide_banner -loglevel trace -i " + ivf +
                          " -c copy -bsf:v trace_headers -f null - 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return frames;
  static const std::regex elem(R"(\] (\d+)\s+([A-Za-z_0-9\[\]\.]+)\s+[01]*\s*= (-?\d+)\s*$)");
  static const std::regex size(R"(Frame:\s+size (\d+)x(\d+))");
  char line[1024];
  bool in_superframe_index = false;
  while (fgets(line, sizeof(line), p)) {
    std::string s(line);
    if (s.find("trace_headers") == std::string::npos) continue;
    std::smatch m;
    if (s.find("Superframe Index") != std::string::npos) in_superframe_index = true;
    if (std::regex_search(s, m, size) && !frames.empty()) {
      frames.back().width = std::stoi(m[1]);
      frames.back().height = std::stoi(m[2]);
    } else if (std::regex_search(s, m, elem)) {
      const std::string name = m[2];
      if (name == "frame_marker") {
        frames.emplace_back();
        in_superframe_index = false;
      }
      if (frames.empty() || in_superframe_index) continue;
      frames.back().v[name] = std::stol(m[3]);
      frames.back().pos[name] = std::stol(m[1]);
    }
  }
  pclose(p);
  return frames;
}

struct Parsed {
  FrameHeader fh;
  bool in_superframe = false;
};

// Our parse of every frame, tracking the reference slots as a decoder does.
bool parse_all(const std::string &ivf, std::vector<Parsed> &out, std::string &err) {
  const std::vector<uint8_t> data = v3dtest::read_all(ivf);
  if (data.empty()) return false;
  IvfReader r;
  IvfHeader h;
  if (!r.open(data.data(), data.size(), h, err)) return false;
  HeaderState hs;
  const uint8_t *pkt;
  size_t size;
  uint64_t pts;
  while (r.next(pkt, size, pts, err) == 1) {
    SuperframeIndex idx;
    if (!parse_superframe_index(pkt, size, idx, err)) return false;
    const bool super = idx.count > 0;
    if (!super) {
      idx.count = 1;
      idx.sizes[0] = uint32_t(size);
    } else if ([&] {
                 size_t total = idx.index_size;
                 for (int i = 0; i < idx.count; ++i) total += idx.sizes[i];
                 return total != size;
               }()) {
      err = "superframe sizes and index do not add up to the packet";
      return false;
    }
    for (int i = 0; i < idx.count; ++i) {
      Parsed p;
      p.in_superframe = super;
      if (!parse_uncompressed_header(pkt, idx.sizes[i], hs, p.fh, err)) return false;
      for (int s = 0; s < kNumRefFrames && !p.fh.show_existing_frame; ++s) {
        if (!(p.fh.refresh_frame_flags & (1 << s))) continue;
        hs.slots[s].valid = true;
        hs.slots[s].width = p.fh.frame_width;
        hs.slots[s].height = p.fh.frame_height;
      }
      out.push_back(p);
      pkt += idx.sizes[i];
    }
  }
  return true;
}

void compare(const std::string &name, const TraceFrame &t, const FrameHeader &fh, int i) {
  const char *n = name.c_str();
  auto eq = [&](const char *field, long ours, long theirs) {
    check(ours == theirs, "%s frame %d: %s = %ld, FFmpeg %ld", n, i, field, ours, theirs);
  };
  eq("show_existing_frame", fh.show_existing_frame, t.get("show_existing_frame"));
  if (fh.show_existing_frame) {
    eq("frame_to_show_map_idx", fh.frame_to_show_map_idx, t.get("frame_to_show_map_idx"));
    return;
  }
  eq("frame_type", fh.frame_type, t.get("frame_type"));
  eq("show_frame", fh.show_frame, t.get("show_frame"));
  eq("error_resilient_mode", fh.error_resilient_mode, t.get("error_resilient_mode"));
  eq("intra_only", fh.intra_only, t.get("intra_only", 0));
  eq("reset_frame_context", fh.reset_frame_context, t.get("reset_frame_context", 0));
  eq("refresh_frame_flags", fh.refresh_frame_flags, t.get("refresh_frame_flags", 0xff));
  eq("frame_width", fh.frame_width, t.width);
  eq("frame_height", fh.frame_height, t.height);
  if (fh.frame_type != KEY_FRAME && !fh.intra_only) {
    for (int r = 0; r < 3; ++r) {
      const std::string k = "ref_frame_idx[" + std::to_string(r) + "]";
      eq(k.c_str(), fh.ref_frame_idx[r], t.get(k.c_str()));
      const std::string b = "ref_frame_sign_bias[" + std::to_string(r + 1) + "]";
      // libvpx clears the sign bias of error-resilient frames after reading it.
      if (!fh.reset_past) eq(b.c_str(), fh.ref_frame_sign_bias[r + 1], t.get(b.c_str()));
    }
    eq("allow_high_precision_mv", fh.allow_high_precision_mv, t.get("allow_high_precision_mv"));
    static const int kLiteralToType[4] = {kFilterSmooth, kFilterRegular, kFilterSharp,
                                          kFilterBilinear};
    const bool switchable = t.get("is_filter_switchable") != 0;
    eq("is_filter_switchable", fh.is_filter_switchable, switchable);
    if (!switchable)
      eq("interp_filter", fh.interp_filter, kLiteralToType[t.get("raw_interpolation_filter_type") & 3]);
  }
  eq("refresh_frame_context", fh.refresh_frame_context, t.get("refresh_frame_context", 0));
  eq("frame_parallel_decoding_mode", fh.frame_parallel_decoding_mode,
     t.get("frame_parallel_decoding_mode", 1));
  if (!fh.reset_past) eq("frame_context_idx", fh.frame_context_idx, t.get("frame_context_idx"));
  eq("loop_filter_level", fh.lf.filter_level, t.get("loop_filter_level"));
  eq("loop_filter_sharpness", fh.lf.sharpness_level, t.get("loop_filter_sharpness"));
  eq("loop_filter_delta_enabled", fh.lf.delta_enabled, t.get("loop_filter_delta_enabled"));
  eq("base_q_idx", fh.quant.base_q_idx, t.get("base_q_idx"));
  eq("segmentation_enabled", fh.seg.enabled, t.get("segmentation_enabled"));
  eq("tile_cols_log2", fh.tile_cols_log2, t.get("tile_cols_log2"));
  eq("tile_rows_log2", fh.tile_rows_log2, t.get("tile_rows_log2"));
  eq("header_size_in_bytes", fh.header_size_in_bytes, t.get("header_size_in_bytes"));
  const auto it = t.pos.find("header_size_in_bytes");
  if (it != t.pos.end()) {
    eq("uncompressed header bytes", fh.uncompressed_header_size, (it->second + 16 + 7) / 8);
    eq("uncompressed header bits", fh.uncompressed_header_bits, it->second + 16);
  }
}

// Encodes a stream, parses it both ways, compares, and returns our parse for the caller's
// checks of what the settings imply.
std::vector<Parsed> stream(const std::string &name, int w, int h, int frames,
                           const std::string &opts) {
  std::vector<Parsed> ours;
  const std::string ivf = tmpdir + "/" + name + ".ivf";
  if (!check(v3dtest::encode_testsrc(tmpdir, name, w, h, frames, opts),
             "%s: making the stream failed (vpxenc %s)", name.c_str(), opts.c_str()))
    return ours;
  const std::vector<TraceFrame> theirs = trace(ivf);
  std::string err;
  if (!check(parse_all(ivf, ours, err), "%s: our parse failed: %s", name.c_str(), err.c_str()))
    return ours;
  if (!check(ours.size() == theirs.size() && !ours.empty(), "%s: %zu frames parsed, FFmpeg %zu",
             name.c_str(), ours.size(), theirs.size()))
    return ours;
  for (size_t i = 0; i < ours.size(); ++i) compare(name, theirs[i], ours[i].fh, int(i));
  printf("%s: %zu frames compared\n", name.c_str(), ours.size());
  return ours;
}

template <typename Pred>
int count_if(const std::vector<Parsed> &v, Pred p) {
  int n = 0;
  for (const Parsed &x : v) n += p(x) ? 1 : 0;
  return n;
}

}  // namespace

int main() {
  v3dtest::base_seed();
  if (!v3dtest::have_tools("vpxenc ffmpeg")) return 77;
  const v3dtest::ScratchDir scratch("v3d-vp9hdr");
  if (scratch.path().empty()) return 1;
  tmpdir = scratch.path();

  auto kf = stream("kf", 64, 64, 3, "--kf-max-dist=0 --end-usage=q --cq-level=30");
  check(count_if(kf, [](const Parsed &p) { return p.fh.frame_type != KEY_FRAME; }) == 0,
        "kf: a non-key frame with --kf-max-dist=0");
  auto odd = stream("odd", 33, 17, 4, "--end-usage=q --cq-level=30");
  auto def = stream("default", 352, 288, 12, "");
  check(count_if(def, [](const Parsed &p) { return !p.fh.show_frame; }) > 0 &&
            count_if(def, [](const Parsed &p) { return p.in_superframe; }) > 0,
        "default: no hidden frame in a superframe (alt-ref)");
  auto er = stream("errres", 352, 288, 6, "--error-resilient=1");
  check(count_if(er,
                 [](const Parsed &p) {
                   return !p.fh.error_resilient_mode || p.fh.reset_contexts_mask != 0xf ||
                          p.fh.refresh_frame_context || !p.fh.frame_parallel_decoding_mode;
                 }) == 0,
        "errres: a frame without error resilience or its consequences");
  auto fp = stream("fpar", 352, 288, 6, "--frame-parallel=1");
  check(count_if(fp, [](const Parsed &p) { return !p.fh.frame_parallel_decoding_mode; }) == 0,
        "fpar: a frame without frame_parallel_decoding_mode");
  auto tc = stream("tilecols", 1024, 64, 3, "--tile-columns=2");
  check(count_if(tc, [](const Parsed &p) { return p.fh.tile_cols_log2 != 2; }) == 0,
        "tilecols: tile_cols_log2 != 2 on a 16-superblock-wide frame with --tile-columns=2");
  auto narrow = stream("tilecols-narrow", 352, 64, 2, "--tile-columns=2");
  check(count_if(narrow, [](const Parsed &p) { return p.fh.tile_cols_log2 != 0; }) == 0,
        "tilecols-narrow: 6 superblocks allow one tile column only");
  auto tr = stream("tilerows", 352, 288, 3, "--tile-rows=2 --tile-columns=0");
  check(count_if(tr, [](const Parsed &p) { return p.fh.tile_rows_log2 != 2; }) == 0,
        "tilerows: tile_rows_log2 != 2");
  auto aq = stream(
      "aq3", 352, 288, 8,
      "--aq-mode=3 --rt --cpu-used=8 --lag-in-frames=0 --end-usage=cbr --target-bitrate=200");
  check(count_if(aq, [](const Parsed &p) { return p.fh.seg.enabled; }) > 0,
        "aq3: no frame with segmentation");
  auto ll = stream("lossless", 64, 64, 3, "--lossless=1");
  check(count_if(ll, [](const Parsed &p) { return !p.fh.quant.lossless; }) == 0,
        "lossless: a frame that is not lossless");
  return v3dtest::finish();
}
