// SPDX-License-Identifier: LGPL-2.1-or-later
// Fault injection (kernels/runtime/fault.h, V3D_FAULT): each run of this program injects one fault
// into the library and checks what the library promises for it. Usage: test_faults <scenario>
//   no-loader, no-device   gpu backend refused with the reason; auto/hybrid run on the CPU with
//                          one warning
//   device-lost            the 3rd GPU job is lost (garbage left over its in-place blocks)
//   device-lost-batch      the same in a v3d_vp9_itxfm_add_frames batch (2nd job)
//   device-lost-meet       a hybrid batch whose only GPU job is the tail of the frame where the
//                          sides meet (V3D_TEST_ITX_BATCH_RATES), lost: that part redone on the
//                          CPU, the CPU's part of the frame kept
//   device-lost-h264-batch the 2nd GPU picture of a v3d_h264_deblock_frames batch (hybrid, all
//                          pictures given to the GPU) is lost: that picture and the later ones
//                          are deblocked on the CPU
//   device-lost-split      the 3rd GPU job is lost in hybrid frames split half and half (two
//                          threads): the GPU's in-place blocks restored, the CPU's kept
//   submit-lost            the 2nd queue submission reports a lost device
//   gpu-timeout            the 2nd GPU job does not complete within the bounded wait (hybrid)
//   gpu-alloc              every GPU memory allocation fails (shared frames and job buffers)
//   thread                 the 2nd worker thread cannot be started
//   side-thread            a hybrid context's GPU submission thread (SideThread) cannot be
//                          started: the calling thread submits beside validation instead
//   host-uncached          the device reports host-visible memory the CPU does not cache (as
//                          v3dv does on the Raspberry Pi): v3d_shared_alloc hands out plain
//                          memory (an info message says why) and the GPU's share is copied or
//                          imported; not a failure, so no warning
//   host-uncached-gpu      the same with V3D_SHARED_MEMORY=gpu: the GPU's memory all the same
//   shared-default         no fault: the GPU's memory exactly when the device's is cached
//   shared-plain           no fault, V3D_SHARED_MEMORY=plain: plain memory
// For every scenario, every frame of a stream (in shared and in plain memory) must equal the
// scalar backend's result byte for byte, with guard bytes intact, every call must succeed, and
// the library must log exactly one warning (none for the memory scenarios, which inject no
// failure). GPU scenarios skip (77) without a Vulkan device.
// Device lifetime: a lost device is closed once its contexts and frames are gone, and every
// device the library opened is closed when the process exits (checked after the library's own
// exit handler).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "common/guarded_planes.h"
#include "common/h264_deblock_picture.h"
#include "v3d/v3d.h"
#include "common/vp9_itx_blocks.h"
#include "common/vp9_lpf_grid.h"

using v3dtest::check;
using v3dtest::GuardedPlanes;
using v3dtest::Rng;

namespace {

constexpr int kWidth = 200, kHeight = 120;  // not multiples of 64: clipped blocks
constexpr int kFrames = 8;

int g_warnings = 0, g_errors = 0;
std::string g_last_warning;
// Vulkan devices the library opened and closed (its info messages "Vulkan device NAME (subgroup
// ...)" and "Vulkan device NAME closed").
std::atomic<int> g_opened{0}, g_closed{0};
// Info messages: a device whose host-visible memory the CPU does not cache, and shared frames
// kept in plain memory for that reason.
std::atomic<int> g_uncached{0}, g_plain{0};
void count_log(int level, const char *message, void *) {
  if (level == 2 && strstr(message, "host-visible memory is not cached by the CPU")) g_uncached++;
  if (level == 2 && strstr(message, "shared frames stay in plain memory")) g_plain++;
  if (level <= 1) printf("  library %s: %s\n", level ? "warning" : "error", message);
  if (level == 1) {
    g_warnings++;
    g_last_warning = message;
  }
  if (level == 0) g_errors++;
  if (level == 2 && strncmp(message, "Vulkan device ", 14) == 0) {
    if (strstr(message, "(subgroup ")) g_opened++;
    const size_t n = strlen(message);
    if (n > 7 && strcmp(message + n - 7, " closed") == 0) g_closed++;
  }
}

// Registered before the library's exit handler, so it runs after it.
void check_devices_closed() {
  if (g_opened == g_closed) return;
  printf("FAIL: %d Vulkan devices opened, %d closed at exit\n", g_opened.load(), g_closed.load());
  fflush(stdout);
  _Exit(1);
}

int plane_w(int p) { return p ? ((kWidth + 7) & ~7) / 2 : (kWidth + 7) & ~7; }
int plane_h(int p) { return p ? ((kHeight + 7) & ~7) / 2 : (kHeight + 7) & ~7; }

struct FrameInput {
  v3dtest::vp9::Blocks bl;
  uint64_t pixel_seed;
};

FrameInput make_input(uint64_t seed) {
  Rng rng(seed);
  return FrameInput{v3dtest::vp9::make_blocks(rng, kWidth, kHeight, 3, true), rng.next()};
}

void fill(GuardedPlanes &f, uint64_t seed) {
  Rng rng(seed);
  for (int p = 0; p < 3; p++)
    for (int y = 0; y < plane_h(p); y++)
      for (int x = 0; x < plane_w(p); x++) f.data[p][y * f.stride[p] + x] = static_cast<uint8_t>(rng.u32());
}

// Runs kFrames frames through ctx (frames in shared memory of ctx when `shared`), each checked
// against the scalar backend. Returns the number of bad frames.
int run_stream(V3dContext *ctx, V3dContext *scalar, bool shared, uint64_t seed, const char *label) {
  const int w[3] = {plane_w(0), plane_w(1), plane_w(2)}, h[3] = {plane_h(0), plane_h(1), plane_h(2)};
  int bad = 0;
  for (int i = 0; i < kFrames; i++) {
    const uint64_t s = seed + i;
    FrameInput in = make_input(s);
    GuardedPlanes ref(w, h, 32, 3), f(w, h, 32, 3, shared ? ctx : nullptr);
    fill(ref, in.pixel_seed);
    f.copy_from(ref);
    int rc = v3d_vp9_itxfm_add_frame(scalar, ref.data, ref.stride, kWidth, kHeight,
                                     in.bl.blocks.data(), in.bl.blocks.size(), in.bl.coeffs.data(),
                                     in.bl.coeffs.size());
    check(rc == 0, "%s: scalar frame %d failed: %s", label, i, v3d_last_error());
    rc = v3d_vp9_itxfm_add_frame(ctx, f.data, f.stride, kWidth, kHeight, in.bl.blocks.data(),
                                 in.bl.blocks.size(), in.bl.coeffs.data(), in.bl.coeffs.size());
    int pl;
    int x, y;
    const bool same = f.same_as(ref, &pl, &x, &y);
    if (!check(rc == 0 && same && f.guards_intact(),
               "%s (%s memory): frame %d (seed 0x%llx): rc %d (%s), %s plane %d x %d y %d", label,
               shared ? "shared" : "plain", i, static_cast<unsigned long long>(s), rc, v3d_last_error(),
               same ? "guards" : "differs at", same ? -1 : pl, same ? -1 : x, same ? -1 : y))
      bad++;
  }
  return bad;
}

V3dStats stats_of(V3dContext *ctx) {
  V3dStats s{};
  v3d_context_get_stats(ctx, &s);
  return s;
}

V3dContext *gpu_context(const char *backend, double share) {
  V3dContextOptions o{};
  o.backend = backend;
  o.cpu_threads = 2;
  o.gpu_share = share;
  return v3d_context_new_with_options(&o);
}

void no_gpu(V3dContext *scalar, const char *what) {
  V3dContext *g = v3d_context_new("gpu", 1);
  check(!g, "%s: backend gpu refused", what);
  check(strstr(v3d_last_error(), what) != nullptr, "%s: the error names it: '%s'", what,
        v3d_last_error());
  if (g) v3d_context_free(g);
  g_errors = 0;  // the refusal is logged as an error, as documented
  V3dContext *h = v3d_context_new("hybrid", 2);
  check(h && strcmp(v3d_context_backend(h), "simd") == 0, "%s: hybrid falls back to simd", what);
  if (h) {
    check(run_stream(h, scalar, true, 100, "hybrid") == 0, "%s: stream correct on the CPU", what);
    v3d_context_free(h);
  }
}

// A GPU stream with a fault in the middle: every frame right, GPU used before the fault only.
void gpu_stream(V3dContext *scalar, const char *backend, double share, bool shared,
                uint64_t expect_submissions) {
  V3dContext *ctx = gpu_context(backend, share);
  if (!check(ctx != nullptr, "context %s: %s", backend, v3d_last_error())) return;
  check(run_stream(ctx, scalar, shared, 200, backend) == 0, "%s: every frame right", backend);
  V3dStats s = stats_of(ctx);
  check(s.frames == kFrames, "%s: %llu frames counted", backend, static_cast<unsigned long long>(s.frames));
  check(s.gpu_submissions == expect_submissions, "%s: %llu GPU submissions counted, %llu expected",
        backend, static_cast<unsigned long long>(s.gpu_submissions),
        static_cast<unsigned long long>(expect_submissions));
  v3d_context_free(ctx);
  // A new context replaces the lost device with a new one, which works; the lost one is closed
  // (its context and frames are gone).
  const int warnings = g_warnings;
  const int closed = g_closed;
  V3dContext *fresh = gpu_context("gpu", -1);
  check(g_closed == closed + 1, "the lost device is closed (%d closed)", g_closed - closed);
  if (check(fresh != nullptr, "a new gpu context after the loss: %s", v3d_last_error())) {
    check(run_stream(fresh, scalar, true, 300, "fresh gpu") == 0, "fresh device: every frame right");
    check(stats_of(fresh).blocks_gpu > 0, "fresh device does GPU work");
    v3d_context_free(fresh);
  }
  check(g_warnings == warnings, "no warning from the fresh device");
}

// Where v3d_shared_alloc's memory comes from: the GPU's (expect_gpu) or plain memory; either
// way a hybrid stream in it is right and the GPU does its share (in place, imported or copied).
void shared_memory(V3dContext *scalar, bool expect_gpu, const char *label) {
  V3dContext *ctx = gpu_context("hybrid", 0.5);
  if (!check(ctx != nullptr && strcmp(v3d_context_backend(ctx), "hybrid") == 0, "%s: hybrid context: %s",
             label, v3d_last_error())) {
    if (ctx) v3d_context_free(ctx);
    return;
  }
  void *p = v3d_shared_alloc(ctx, 4096);
  check(p != nullptr, "%s: v3d_shared_alloc", label);
  check(v3d_shared_is_gpu(p) == (expect_gpu ? 1 : 0), "%s: v3d_shared_is_gpu %d, %d expected", label,
        v3d_shared_is_gpu(p), expect_gpu ? 1 : 0);
  v3d_shared_free(p);
  int local = 0;
  check(v3d_shared_is_gpu(nullptr) == 0 && v3d_shared_is_gpu(&local) == 0,
        "%s: v3d_shared_is_gpu is 0 for NULL and for other memory", label);
  check(run_stream(ctx, scalar, true, 500, label) == 0, "%s: every frame right", label);
  check(stats_of(ctx).blocks_gpu > 0, "%s: the GPU did its share", label);
  v3d_context_free(ctx);
}

void batch_lost(V3dContext *scalar, const char *backend) {
  V3dContext *ctx = gpu_context(backend, -1);
  if (!check(ctx != nullptr && strcmp(v3d_context_backend(ctx), backend) == 0, "%s context: %s",
             backend, v3d_last_error())) {
    if (ctx) v3d_context_free(ctx);
    return;
  }
  const int w[3] = {plane_w(0), plane_w(1), plane_w(2)}, h[3] = {plane_h(0), plane_h(1), plane_h(2)};
  std::vector<FrameInput> in;
  std::vector<std::unique_ptr<GuardedPlanes>> ref, f;
  std::vector<V3dVp9ItxFrame> frames(kFrames);
  for (int i = 0; i < kFrames; i++) {
    in.push_back(make_input(400 + i));
    ref.emplace_back(new GuardedPlanes(w, h, 32, 3));
    f.emplace_back(new GuardedPlanes(w, h, 32, 3, i % 2 ? ctx : nullptr));  // shared and plain
    fill(*ref[i], in[i].pixel_seed);
    f[i]->copy_from(*ref[i]);
    v3d_vp9_itxfm_add_frame(scalar, ref[i]->data, ref[i]->stride, kWidth, kHeight,
                            in[i].bl.blocks.data(), in[i].bl.blocks.size(), in[i].bl.coeffs.data(),
                            in[i].bl.coeffs.size());
    V3dVp9ItxFrame &fr = frames[i];
    for (int p = 0; p < 3; p++) {
      fr.planes[p] = f[i]->data[p];
      fr.strides[p] = f[i]->stride[p];
    }
    fr.width = kWidth;
    fr.height = kHeight;
    fr.blocks = in[i].bl.blocks.data();
    fr.n_blocks = in[i].bl.blocks.size();
    fr.coeffs = in[i].bl.coeffs.data();
    fr.n_coeffs = in[i].bl.coeffs.size();
  }
  int rc = v3d_vp9_itxfm_add_frames(ctx, frames.data(), frames.size());
  check(rc == 0, "batch succeeds: %d %s", rc, v3d_last_error());
  for (int i = 0; i < kFrames; i++) {
    int pl = 0;
    int x = 0, y = 0;
    check(f[i]->same_as(*ref[i], &pl, &x, &y) && f[i]->guards_intact(),
          "batch frame %d right (plane %d x %d y %d)", i, pl, x, y);
  }
  const V3dStats st = stats_of(ctx);
  const bool hybrid = strcmp(backend, "hybrid") == 0;  // its only GPU job is lost
  check(st.gpu_submissions >= 1 && (!hybrid || st.blocks_gpu == 0) && st.blocks_cpu > 0,
        "the lost job's blocks counted on the CPU (submissions %llu, GPU %llu, CPU %llu blocks)",
        static_cast<unsigned long long>(st.gpu_submissions),
        static_cast<unsigned long long>(st.blocks_gpu),
        static_cast<unsigned long long>(st.blocks_cpu));
  f.clear();
  v3d_context_free(ctx);
}

// H.264 batch with its 2nd GPU picture lost: every picture right (against the scalar backend,
// picture by picture), the lost one and those after it counted on the CPU.
void h264_batch_lost(V3dContext *scalar) {
  V3dContext *ctx = gpu_context("hybrid", 1.0);  // every picture of a batch to the GPU
  if (!check(ctx != nullptr, "hybrid context: %s", v3d_last_error())) return;
  constexpr int kPictures = 4;
  Rng rng(900);
  std::vector<v3dtest::h264::Grid> grids;
  std::vector<v3dtest::h264::Picture> want, got;
  for (int i = 0; i < kPictures; i++) {
    grids.push_back(v3dtest::h264::make_grid(rng, kWidth, kHeight, v3dtest::h264::GridParams{}));
    want.emplace_back(kWidth, kHeight, i);
    want.back().fill(rng);
  }
  for (int i = 0; i < kPictures; i++) got.emplace_back(want[i]);
  std::vector<V3dH264Frame> f(kPictures);
  for (int i = 0; i < kPictures; i++) {
    v3dtest::h264::Grid &g = grids[i];
    const int rc = v3d_h264_deblock_frame(scalar, want[i].data, want[i].stride, kWidth, kHeight,
                                          g.mbs.data(), g.mb_stride, g.slices.data(),
                                          static_cast<int>(g.slices.size()));
    check(rc == 0, "scalar picture %d: %s", i, v3d_last_error());
    for (int p = 0; p < 3; p++) {
      f[i].planes[p] = got[i].data[p];
      f[i].strides[p] = got[i].stride[p];
    }
    f[i].width = kWidth;
    f[i].height = kHeight;
    f[i].mbs = g.mbs.data();
    f[i].mb_stride = g.mb_stride;
    f[i].slices = g.slices.data();
    f[i].n_slices = static_cast<int>(g.slices.size());
  }
  const int rc = v3d_h264_deblock_frames(ctx, f.data(), f.size());
  check(rc == 0, "batch succeeds: %d %s", rc, v3d_last_error());
  for (int i = 0; i < kPictures; i++) {
    int pl = 0, x = 0, y = 0;
    check(got[i].same_as(want[i], &pl, &x, &y) && got[i].guards_intact(),
          "batch picture %d right (plane %d x %d y %d)", i, pl, x, y);
  }
  const V3dStats st = stats_of(ctx);
  const uint64_t mbs = static_cast<uint64_t>((kWidth + 15) / 16) * ((kHeight + 15) / 16);
  check(st.blocks_gpu == mbs && st.blocks_cpu == (kPictures - 1) * mbs,
        "one picture counted on the GPU, the rest on the CPU (GPU %llu, CPU %llu macroblocks)",
        static_cast<unsigned long long>(st.blocks_gpu),
        static_cast<unsigned long long>(st.blocks_cpu));
  check(g_last_warning.find("the frame is deblocked on the CPU") != std::string::npos,
        "the warning names the CPU redo: '%s'", g_last_warning.c_str());
  v3d_context_free(ctx);
}

void thread_fault(V3dContext *scalar) {
  V3dContext *ctx = v3d_context_new("simd", 4);
  if (!check(ctx != nullptr, "simd context: %s", v3d_last_error())) return;
  check(v3d_context_cpu_threads(ctx) == 2, "runs with the 2 threads it has (%d)", v3d_context_cpu_threads(ctx));
  check(run_stream(ctx, scalar, false, 500, "simd") == 0, "every frame right");
  // The loop filter's wavefront on the reduced pool.
  Rng rng(600);
  std::vector<V3dVp9LfInfo> grid = v3dtest::vp9::make_lf_grid(rng, kWidth, kHeight, (kWidth + 7) / 8, {});
  v3dtest::vp9::LfFrame a(kWidth, kHeight), b(kWidth, kHeight);
  a.fill_smooth(rng);
  b.copy_from(a);
  int ra = v3d_vp9_loop_filter_frame(scalar, a.data, a.stride, kWidth, kHeight, grid.data(), (kWidth + 7) / 8, 3);
  int rb = v3d_vp9_loop_filter_frame(ctx, b.data, b.stride, kWidth, kHeight, grid.data(), (kWidth + 7) / 8, 3);
  int pl, x, y;
  check(ra == 0 && rb == 0 && a.same_as(b, &pl, &x, &y), "loop filter frame right on the reduced pool");
  v3d_context_free(ctx);
}

void side_thread_fault(V3dContext *scalar) {
  // One CPU thread: the pool starts none, so the first thread started is the side thread.
  V3dContextOptions o{};
  o.backend = "hybrid";
  o.cpu_threads = 1;
  o.gpu_share = 0.5;
  V3dContext *ctx = v3d_context_new_with_options(&o);
  if (!check(ctx != nullptr, "hybrid context: %s", v3d_last_error())) return;
  check(g_last_warning.find("submission thread") != std::string::npos,
        "the warning names the submission thread: '%s'", g_last_warning.c_str());
  check(run_stream(ctx, scalar, true, 800, "hybrid, shared") == 0, "every frame right (shared)");
  check(run_stream(ctx, scalar, false, 900, "hybrid, plain") == 0, "every frame right (plain)");
  check(stats_of(ctx).blocks_gpu > 0, "the GPU did its share");
  v3d_context_free(ctx);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <scenario>\n", argv[0]);
    return 2;
  }
  const std::string sc = argv[1];
  // Each scenario: its V3D_FAULT, its V3D_SHARED_MEMORY, and the warnings the library must log
  // (one per injected failure; none for the memory scenarios, which inject no failure).
  struct Scenario {
    const char *scenario, *fault, *source;
    int warnings;
  };
  static const Scenario kScenarios[] = {
      {"no-loader", "no-loader", "", 1},           {"no-device", "no-device", "", 1},
      {"device-lost", "device-lost:3", "", 1},     {"device-lost-batch", "device-lost:2", "", 1},
      {"submit-lost", "submit-lost:2", "", 1},     {"gpu-timeout", "gpu-timeout:2", "", 1},
      {"gpu-alloc", "gpu-alloc:1", "", 1},         {"thread", "thread:2", "", 1},
      {"device-lost-split", "device-lost:3", "", 1},
      {"device-lost-meet", "device-lost:1", "", 1},
      {"device-lost-h264-batch", "device-lost:2", "", 1},
      {"side-thread", "thread:1", "", 1},
      {"host-uncached", "host-uncached", "", 0},
      {"host-uncached-gpu", "host-uncached", "gpu", 0},
      {"shared-default", "", "", 0},
      {"shared-plain", "", "plain", 0}};
  const Scenario *run = nullptr;
  for (const auto &f : kScenarios)
    if (sc == f.scenario) run = &f;
  if (!run) {
    fprintf(stderr, "unknown scenario '%s'\n", sc.c_str());
    return 2;
  }
  // Read by the library at its first fault check and its first shared allocation (nothing ran
  // yet).
  setenv("V3D_FAULT", run->fault, 1);
  setenv("V3D_SHARED_MEMORY", run->source, 1);
  printf("scenario %s: V3D_FAULT=%s V3D_SHARED_MEMORY=%s\n", sc.c_str(), run->fault, run->source);
  v3d_set_log_func(count_log, nullptr);
  atexit(check_devices_closed);
  V3dContext *scalar = v3d_context_new("scalar", 1);
  const bool gpu_scenario = sc != "no-loader" && sc != "no-device" && sc != "thread";
  // The probe opens the process's Gpu before any fault is counted against the scenario (the
  // library reuses it for the scenario's contexts); a missing required GPU is a failed check.
  if (gpu_scenario && sc != "gpu-alloc") v3dtest::gpu_or_skip();

  if (sc == "no-loader") no_gpu(scalar, "loader");
  else if (sc == "no-device") no_gpu(scalar, "no Vulkan device");
  else if (sc == "device-lost") gpu_stream(scalar, "gpu", -1, true, 2);
  else if (sc == "device-lost-batch") batch_lost(scalar, "gpu");
  else if (sc == "device-lost-meet") {
    // CPU ten times the GPU: with 8 frames of about equal work (~550 blocks) the GPU can take no
    // whole frame, and its first (and only) job is the tail of the last frame (~400 blocks),
    // claimed before the batch starts.
    setenv("V3D_TEST_ITX_BATCH_RATES", "10000:1000", 1);
    batch_lost(scalar, "hybrid");
    check(g_last_warning.find("the GPU's part of frame 7 of the batch is redone") != std::string::npos,
          "the lost job was the shared frame's part: '%s'", g_last_warning.c_str());
  }
  else if (sc == "device-lost-h264-batch") h264_batch_lost(scalar);
  else if (sc == "device-lost-split") gpu_stream(scalar, "hybrid", 0.5, true, 2);
  else if (sc == "submit-lost") gpu_stream(scalar, "gpu", -1, false, 1);
  else if (sc == "gpu-timeout") gpu_stream(scalar, "hybrid", 0.5, true, 1);
  else if (sc == "gpu-alloc") {
    V3dContext *ctx = gpu_context("gpu", -1);
    if (!ctx) {
      printf("SKIP: no Vulkan device (%s)\n", v3d_last_error());
      return 77;
    }
    check(run_stream(ctx, scalar, true, 700, "gpu") == 0, "every frame right without GPU memory");
    check(stats_of(ctx).blocks_gpu == 0, "no GPU work without GPU memory");
    v3d_context_free(ctx);
  } else if (sc == "thread") thread_fault(scalar);
  else if (sc == "side-thread") side_thread_fault(scalar);
  else if (sc == "host-uncached") {
    check(g_uncached >= 1, "the device's memory is reported as not cached (%d)", g_uncached.load());
    shared_memory(scalar, false, "uncached, auto");
    check(g_plain == 1, "one message says why frames stay in plain memory (%d)", g_plain.load());
  } else if (sc == "host-uncached-gpu") {
    check(g_uncached >= 1, "the device's memory is reported as not cached (%d)", g_uncached.load());
    shared_memory(scalar, true, "uncached, V3D_SHARED_MEMORY=gpu");
    check(g_plain == 0, "no plain-memory message (%d)", g_plain.load());
  } else if (sc == "shared-default") {
    // Whatever the device: the GPU's memory exactly when the CPU caches it.
    shared_memory(scalar, g_uncached == 0, g_uncached ? "uncached device, auto" : "cached device, auto");
  } else if (sc == "shared-plain") {
    shared_memory(scalar, false, "V3D_SHARED_MEMORY=plain");
    check(g_plain == 0, "no plain-memory message (%d)", g_plain.load());
  }

  check(g_warnings == run->warnings, "exactly %d warning(s) (%d)", run->warnings, g_warnings);
  check(g_errors == 0, "no error logged (%d)", g_errors);
  v3d_context_free(scalar);
  return v3dtest::finish();
}
