// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-vp9dec: decodes a VP9 IVF file with the v3dkernels VP9 decoder.
//
//   v3d-vp9dec [--backend auto|scalar|cpu|gpu|hybrid] [--threads N] [--frames N]
//              (--framemd5 | --md5 | --null | -o OUT.yuv | -o OUT.y4m) IN.ivf
//
// --framemd5 prints "index<TAB>md5" per shown frame (MD5 of its I420 bytes at the frame's size),
// then the decoder's feature counters as '#' lines; --md5 prints one MD5 over all frames' I420
// bytes, as `vpxdec --i420 --md5` does; -o writes raw I420 (.yuv) or Y4M (.y4m); --frames N
// stops after N packets of the file. Exit status 0, or 1 with the error on stderr.
//
// Backends auto and hybrid open their Vulkan device on a thread of their own
// (v3d_context_open_async) while the first packets decode on a "simd" context; the decoder moves
// to the opened context at the first packet boundary after it is ready. Backend gpu opens its
// device before the first packet: without one it is an error.
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "md5.h"
#include "v3d/v3d.h"
#include "v3d/vp9_decoder.h"
#include "vp9/dec/ivf.h"

namespace {

enum class Mode { kNone, kFrameMd5, kMd5, kNull, kFile };

struct Options {
  std::string backend = "auto";
  int threads = 0;
  long frames = -1;
  Mode mode = Mode::kNone;
  std::string out, in;
};

int usage() {
  fprintf(stderr,
          "usage: v3d-vp9dec [--backend auto|scalar|cpu|gpu|hybrid] [--threads N] [--frames N]\n"
          "                  (--framemd5 | --md5 | --null | -o OUT.yuv|OUT.y4m) IN.ivf\n");
  return 1;
}

bool parse(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        fprintf(stderr, "v3d-vp9dec: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "--backend") {
      const char *v = value("--backend");
      if (!v) return false;
      o.backend = v;
      if (o.backend == "cpu") o.backend = "simd";  // the library's name for the CPU workers
    } else if (a == "--threads") {
      const char *v = value("--threads");
      if (!v) return false;
      o.threads = atoi(v);
    } else if (a == "--frames") {
      const char *v = value("--frames");
      if (!v) return false;
      o.frames = atol(v);
    } else if (a == "--framemd5") {
      o.mode = Mode::kFrameMd5;
    } else if (a == "--md5") {
      o.mode = Mode::kMd5;
    } else if (a == "--null") {
      o.mode = Mode::kNull;
    } else if (a == "-o") {
      const char *v = value("-o");
      if (!v) return false;
      o.mode = Mode::kFile;
      o.out = v;
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "v3d-vp9dec: unknown option %s\n", a.c_str());
      return false;
    } else {
      o.in = a;
    }
  }
  return o.mode != Mode::kNone && !o.in.empty();
}

bool read_file(const std::string &path, std::vector<uint8_t> &data) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) {
    fprintf(stderr, "v3d-vp9dec: cannot open %s: %s\n", path.c_str(), strerror(errno));
    return false;
  }
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) data.insert(data.end(), buf, buf + n);
  fclose(f);
  return true;
}

// Calls fn(row pointer, row bytes) for every row of the picture's I420 planes.
template <typename Fn>
void for_each_row(const V3dVp9Picture &pic, Fn fn) {
  for (int p = 0; p < 3; ++p) {
    const int w = p ? (pic.width + 1) / 2 : pic.width;
    const int h = p ? (pic.height + 1) / 2 : pic.height;
    for (int y = 0; y < h; ++y) fn(pic.planes[p] + y * pic.strides[p], size_t(w));
  }
}

struct Output {
  Options opt;
  FILE *file = nullptr;
  bool y4m = false;
  v3dtool::Md5 all;
  unsigned shown = 0;
  uint32_t rate = 30, scale = 1;

  bool picture(const V3dVp9Picture &pic) {
    if (opt.mode == Mode::kFrameMd5) {
      v3dtool::Md5 m;
      for_each_row(pic, [&](const uint8_t *r, size_t n) { m.update(r, n); });
      printf("%u\t%s\n", shown, m.hex().c_str());
    } else if (opt.mode == Mode::kMd5) {
      for_each_row(pic, [&](const uint8_t *r, size_t n) { all.update(r, n); });
    } else if (opt.mode == Mode::kFile) {
      if (y4m) {
        if (shown == 0)
          fprintf(file, "YUV4MPEG2 W%d H%d F%u:%u Ip A0:0 C420jpeg\n", pic.width, pic.height, rate,
                  scale);
        fprintf(file, "FRAME\n");
      }
      bool ok = true;
      for_each_row(pic, [&](const uint8_t *r, size_t n) { ok &= fwrite(r, 1, n, file) == n; });
      if (!ok) {
        fprintf(stderr, "v3d-vp9dec: writing %s failed\n", opt.out.c_str());
        return false;
      }
    }
    ++shown;
    return true;
  }
};

// The context the decoder runs on, and for auto and hybrid the one opening in the background.
struct Contexts {
  V3dContext *ctx = nullptr;             // the decoder's context (one reference)
  V3dContextOpening *opening = nullptr;  // until adopted
  std::string backend;                   // as asked, for messages

  // Moves dec to the opened context once it is ready. False (message printed) when its creation
  // failed: auto and hybrid fail only for a named device that cannot be opened, an error as it
  // would be without the background opening.
  bool adopt(V3dVp9Decoder *dec) {
    if (!opening) return true;
    V3dContext *opened = nullptr;
    const int r = v3d_context_opening_poll(opening, &opened, nullptr);
    if (r == 0) return true;
    if (!opened) {
      fprintf(stderr, "v3d-vp9dec: backend %s: %s\n", backend.c_str(),
              v3d_context_opening_error(opening));
      return false;
    }
    v3d_context_opening_free(opening);
    opening = nullptr;
    v3d_vp9_decoder_set_context(dec, opened);  // the decoder holds its own reference
    v3d_context_free(ctx);
    ctx = opened;
    return true;
  }

  ~Contexts() {
    v3d_context_opening_free(opening);  // waits for a device still opening
    v3d_context_free(ctx);
  }
};

bool drain(V3dVp9Decoder *dec, Output &out) {
  V3dVp9Picture pic;
  while (v3d_vp9_decoder_get_picture(dec, &pic) == 0) {
    const bool ok = out.picture(pic);
    v3d_vp9_picture_unref(&pic);
    if (!ok) return false;
  }
  return true;
}

int run(const Options &opt, V3dVp9Decoder *dec, Contexts &ctxs, Output &out) {
  std::vector<uint8_t> file;
  if (!read_file(opt.in, file)) return 1;
  v3d::vp9::IvfReader ivf;
  v3d::vp9::IvfHeader hdr;
  std::string err;
  if (!ivf.open(file.data(), file.size(), hdr, err)) {
    fprintf(stderr, "v3d-vp9dec: %s: %s\n", opt.in.c_str(), err.c_str());
    return 1;
  }
  if (std::memcmp(hdr.fourcc, "VP90", 4) != 0) {
    fprintf(stderr, "v3d-vp9dec: %s: fourcc %s is not VP90\n", opt.in.c_str(), hdr.fourcc);
    return 1;
  }
  if (hdr.rate && hdr.scale) {
    out.rate = hdr.rate;
    out.scale = hdr.scale;
  }
  const uint8_t *frame;
  size_t size;
  uint64_t pts;
  int rc;
  long packets = 0;
  while ((opt.frames < 0 || packets < opt.frames) && (rc = ivf.next(frame, size, pts, err)) > 0) {
    ++packets;
    if (!ctxs.adopt(dec)) return 1;
    int r = v3d_vp9_decoder_send_data(dec, frame, size, int64_t(pts));
    if (r == V3D_ERROR_AGAIN) {
      if (!drain(dec, out)) return 1;
      r = v3d_vp9_decoder_send_data(dec, frame, size, int64_t(pts));
    }
    if (r < 0) {
      fprintf(stderr, "v3d-vp9dec: %s: packet %ld: %s\n", opt.in.c_str(), packets - 1,
              v3d_last_error());
      return 1;
    }
    if (!drain(dec, out)) return 1;
  }
  if (rc < 0) {
    fprintf(stderr, "v3d-vp9dec: %s: %s\n", opt.in.c_str(), err.c_str());
    return 1;
  }
  if (opt.mode == Mode::kMd5) printf("%s\n", out.all.hex().c_str());
  if (opt.mode == Mode::kFrameMd5) fputs(v3d_vp9_decoder_stats(dec), stdout);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  Options opt;
  if (!parse(argc, argv, opt)) return usage();
  Contexts ctxs;
  ctxs.backend = opt.backend;
  std::string lower = opt.backend;
  for (char &c : lower) c = char(tolower(static_cast<unsigned char>(c)));
  if (lower == "auto" || lower == "hybrid") {
    V3dContextOptions o = {};
    o.backend = opt.backend.c_str();
    o.cpu_threads = opt.threads;
    o.gpu_share = -1;
    ctxs.opening = v3d_context_open_async(&o);
    if (ctxs.opening) {
      ctxs.ctx = v3d_context_new("simd", opt.threads);
      if (!ctxs.ctx) {
        fprintf(stderr, "v3d-vp9dec: backend simd: %s\n", v3d_last_error());
        return 1;
      }
    }
  }
  if (!ctxs.ctx) {
    ctxs.ctx = v3d_context_new(opt.backend.c_str(), opt.threads);
    if (!ctxs.ctx) {
      fprintf(stderr, "v3d-vp9dec: backend %s: %s\n", opt.backend.c_str(), v3d_last_error());
      return 1;
    }
  }
  V3dVp9Decoder *dec = v3d_vp9_decoder_new(ctxs.ctx, nullptr);
  if (!dec) {
    fprintf(stderr, "v3d-vp9dec: %s\n", v3d_last_error());
    return 1;
  }
  Output out;
  out.opt = opt;
  int rc = 0;
  if (opt.mode == Mode::kFile) {
    out.y4m = opt.out.size() > 4 && opt.out.compare(opt.out.size() - 4, 4, ".y4m") == 0;
    out.file = fopen(opt.out.c_str(), "wb");
    if (!out.file) {
      fprintf(stderr, "v3d-vp9dec: cannot create %s: %s\n", opt.out.c_str(), strerror(errno));
      rc = 1;
    }
  }
  if (rc == 0) rc = run(opt, dec, ctxs, out);
  if (out.file && fclose(out.file) != 0) rc = 1;
  v3d_vp9_decoder_free(dec);
  return rc;
}
