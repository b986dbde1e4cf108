// SPDX-License-Identifier: LGPL-2.1-or-later
// The GPU's VP9 inverse transforms (gpu_vp9_itx_submit, or gpu_vp9_itx_prepare in parts run by
// several threads, then wait) on every Vulkan device found, against the scalar reference
// v3d_vp9_itxfm_add_ref applied block by block by this test (with its own clipping through a
// temporary block), on whole frames: every (size, type) pair tiling
// the three planes, and mixed random tilings with raw int16 coefficients (the wrapping contract),
// eob-0 blocks and blocks left out of the job; odd frame sizes whose edge blocks are clipped; a
// guard border around every plane that must stay untouched; frames and coefficients in shared
// (GPU-visible) memory and in ordinary memory (copied); int16 and uint32-pair coefficient
// shaders where the device has both. Validation layers are asked for (V3D_VULKAN_VALIDATION=1)
// and any message they report fails the test. Exit 77 only when no Vulkan device exists at all.
// Also prints (does not check) the per-frame time of a 1920x1088 frame of 8x8 DCT blocks.
#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/test_util.h"
#include "v3d/v3d.h"
#include "common/vp9_itx_blocks.h"
#include "common/vp9_itx_inputs.h"
#include "gpu/gpu.h"
#include "vp9/itx/itx_gpu.h"

using v3dtest::check;
using v3dtest::Rng;
namespace tv = v3dtest::vp9;

namespace {

constexpr int kGuard = 40;  // guard bytes left/right of each row and rows above/below a plane

// A 4:2:0 frame whose planes (with guard borders) lie in one allocation: shared GPU memory or
// ordinary memory.
struct Frame {
  std::shared_ptr<v3d::Gpu> gpu;  // set: shared memory
  uint8_t *mem = nullptr;
  std::vector<uint8_t> plain;
  size_t size = 0;
  size_t plane_off[3];
  v3d::FramePlanes fp;

  Frame(int width, int height, std::shared_ptr<v3d::Gpu> shared) : gpu(std::move(shared)) {
    int pw = (width + 7) & ~7, ph = (height + 7) & ~7;
    for (int p = 0; p < 3; p++) {
      fp.width[p] = p ? pw / 2 : pw;
      fp.height[p] = p ? ph / 2 : ph;
      fp.stride[p] = fp.width[p] + 2 * kGuard + 3 * p + 1;  // odd padding
      plane_off[p] = size;
      size += static_cast<size_t>(fp.stride[p]) * (fp.height[p] + 2 * kGuard);
    }
    if (gpu) {
      mem = static_cast<uint8_t *>(v3d::gpu_shared_alloc(gpu, size));
    } else {
      plain.resize(size);
      mem = plain.data();
    }
    if (mem)
      for (int p = 0; p < 3; p++) fp.data[p] = mem + plane_off[p] + kGuard * fp.stride[p] + kGuard;
  }
  ~Frame() {
    if (gpu && mem) v3d::gpu_shared_free(mem);
  }
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;
};

// Coefficients, optionally in shared memory.
struct Coeffs {
  std::shared_ptr<v3d::Gpu> gpu;
  int16_t *data = nullptr;
  std::vector<int16_t> plain;
  Coeffs(const std::vector<int16_t> &src, std::shared_ptr<v3d::Gpu> shared) : gpu(std::move(shared)) {
    if (gpu) {
      data = static_cast<int16_t *>(v3d::gpu_shared_alloc(gpu, src.size() * sizeof(int16_t) + 2));
      // Odd offset: the shader must handle a coefficient buffer starting mid-word.
      if (data) {
        data[0] = 0x7777;
        memcpy(data + 1, src.data(), src.size() * sizeof(int16_t));
      }
    } else {
      plain = src;
    }
  }
  ~Coeffs() {
    if (gpu && data) v3d::gpu_shared_free(data);
  }
  const int16_t *ptr() const { return gpu ? data + 1 : plain.data(); }
};

// What one frame test uses: blocks, their coefficients, the subset given to the GPU.
struct Case {
  int width, height;
  std::vector<V3dVp9TxBlock> blocks;
  std::vector<int16_t> coeffs;
  std::vector<uint32_t> index;  // blocks given to the GPU
};

// Coefficients as an encoder makes them (common/vp9_itx_inputs.h): arbitrary int16 values for 1
// block in raw_one_in (the wrapping contract), else 1 in 16 extreme, else valid with a random cut.
tv::CoeffFn encoder_coeffs(int raw_one_in) {
  return [raw_one_in](Rng &rng, const V3dVp9TxBlock &b, int16_t *co) -> uint32_t {
    const bool raw = rng.range(0, raw_one_in - 1) == 0;
    const int r = rng.range(0, 15);
    if (raw) return tv::make_raw_coeffs(rng, b.tx_size, co);
    if (r == 0) return tv::make_extreme_coeffs(rng, b.tx_size, b.tx_type, co);
    return tv::make_valid_coeffs(rng, b.tx_size, b.tx_type, rng.range(0, tv::kNumCuts - 1), co);
  };
}

Case make_case(Rng &rng, int width, int height, const tv::BlockSpec &spec,
               const tv::CoeffFn &fill) {
  tv::Blocks bl = tv::make_blocks(rng, width, height, spec, fill);
  return Case{width, height, std::move(bl.blocks), std::move(bl.coeffs), {}};
}

// One (size, type) pair tiling all three planes (edge blocks clipped), every block given.
Case tiled_case(Rng &rng, int width, int height, int tx_size, int tx_type) {
  tv::BlockSpec spec;
  spec.tx_size = tx_size;
  spec.tx_type = tx_type;
  Case c = make_case(rng, width, height, spec, encoder_coeffs(8));
  for (uint32_t i = 0; i < c.blocks.size(); i++) c.index.push_back(i);
  return c;
}

// Random quad-tree tilings with random types, in random order; some blocks with eob 0, raw
// coefficients for a quarter of them; about 1 in 8 blocks left out of the GPU's list.
Case mixed_case(Rng &rng, int width, int height) {
  tv::BlockSpec spec;
  spec.layout = tv::Layout::kQuadtree;
  spec.split = 1.0 / 3;
  spec.wht_one_in = 5;
  spec.shuffle = true;
  const tv::CoeffFn enc = encoder_coeffs(4);
  Case c = make_case(rng, width, height, spec, [&enc](Rng &r, const V3dVp9TxBlock &b, int16_t *co) {
    const uint32_t eob = enc(r, b, co);
    return r.range(0, 15) == 0 ? 0u : eob;
  });
  for (uint32_t i = 0; i < c.blocks.size(); i++)
    if (rng.range(0, 7) != 0) c.index.push_back(i);
  return c;
}

// The expected frame: the reference applied to the GPU's blocks, clipped through a temp block.
void apply_ref(const Case &c, Frame &f) {
  for (uint32_t i : c.index) {
    const V3dVp9TxBlock &b = c.blocks[i];
    if (!b.eob) continue;
    const int n = tv::tx_n(b.tx_size), p = b.plane;
    const int w = std::min(n, f.fp.width[p] - b.x), h = std::min(n, f.fp.height[p] - b.y);
    uint8_t tmp[32 * 32] = {0};
    uint8_t *dst = f.fp.data[p] + b.y * f.fp.stride[p] + b.x;
    for (int r = 0; r < h; r++) memcpy(tmp + r * n, dst + r * f.fp.stride[p], w);
    v3d_vp9_itxfm_add_ref(tmp, n, c.coeffs.data() + b.coeff_offset, b.tx_size, b.tx_type,
                          static_cast<int>(b.eob));
    for (int r = 0; r < h; r++) memcpy(dst + r * f.fp.stride[p], tmp + r * n, w);
  }
}

// Describes the block covering (p, x, y), for failure messages.
std::string block_at(const Case &c, int p, int x, int y) {
  for (size_t i = 0; i < c.blocks.size(); i++) {
    const V3dVp9TxBlock &b = c.blocks[i];
    const int n = tv::tx_n(b.tx_size);
    if (b.plane == p && x >= b.x && x < b.x + n && y >= b.y && y < b.y + n) {
      bool given = std::find(c.index.begin(), c.index.end(), i) != c.index.end();
      char buf[160];
      snprintf(buf, sizeof(buf), "block %zu (%s at %u,%u, eob %u, coeff[0] %d%s)", i,
               tv::tx_name(b.tx_size, b.tx_type), b.x, b.y, b.eob,
               c.coeffs[b.coeff_offset], given ? "" : ", not given to the GPU");
      return buf;
    }
  }
  return "no block (guard or uncovered area)";
}

std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

// Runs one case on the GPU with the given memory kinds; returns "" or what went wrong (with the
// seed and the first differing pixel's block). Thread-safe (records no check itself).
// parts > 0: through gpu_vp9_itx_prepare with that many parts, run by three threads at once in
// reverse order, then submit(); the parts must leave the frame as it was (they only read it).
std::string case_error(const std::shared_ptr<v3d::Gpu> &gpu, const Case &c, bool shared_frame,
                       bool shared_coeffs, uint64_t seed, const char *what, int parts = 0) {
  Frame f(c.width, c.height, shared_frame ? gpu : nullptr);
  Frame want(c.width, c.height, nullptr);
  if (!f.mem) return format("%s: gpu_shared_alloc failed", what);
  Rng pix(seed ^ 0xF00D);
  for (size_t k = 0; k < f.size; k++) f.mem[k] = static_cast<uint8_t>(pix.u32() >> 24);
  memcpy(want.mem, f.mem, f.size);
  apply_ref(c, want);
  Coeffs co(c.coeffs, shared_coeffs ? gpu : nullptr);
  std::string err;
  std::unique_ptr<v3d::GpuJob> job;
  if (parts > 0) {
    auto prep = v3d::gpu_vp9_itx_prepare(*gpu, f.fp, c.blocks.data(), c.index.data(),
                                         c.index.size(), co.ptr(), c.coeffs.size(), parts, &err);
    if (!prep) return format("%s (seed 0x%" PRIx64 "): prepare failed: %s", what, seed, err.c_str());
    if (prep->parts() != parts)
      return format("%s: parts() %d, asked for %d", what, prep->parts(), parts);
    const std::vector<uint8_t> before(f.mem, f.mem + f.size);
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; t++)
      threads.emplace_back([&, t] {
        for (int k = parts - 1 - t; k >= 0; k -= 3) prep->run_part(k);
      });
    for (auto &th : threads) th.join();
    if (memcmp(before.data(), f.mem, f.size) != 0)
      return format("%s (seed 0x%" PRIx64 "): the parts changed the frame", what, seed);
    job = prep->submit(&err);
  } else {
    job = v3d::gpu_vp9_itx_submit(*gpu, f.fp, c.blocks.data(), c.index.data(), c.index.size(),
                                  co.ptr(), c.coeffs.size(), &err);
  }
  if (!job) return format("%s (seed 0x%" PRIx64 "): submit failed: %s", what, seed, err.c_str());
  int rc = job->wait();
  if (rc != V3D_OK)
    return format("%s (seed 0x%" PRIx64 "): wait() returned %d: %s", what, seed, rc,
                  v3d_last_error());
  int expect_copies = 0;
  if (!shared_frame)
    for (int p = 0; p < 3; p++)
      for (uint32_t i : c.index)
        if (c.blocks[i].plane == p && c.blocks[i].eob) {
          expect_copies++;
          break;
        }
  // A plane outside shared memory is either imported (VK_EXT_external_memory_host, when the
  // device can) or copied; never both, never neither. V3D_VULKAN_NO_IMPORT=1 forces copies.
  const bool no_import = getenv("V3D_VULKAN_NO_IMPORT") && strcmp(getenv("V3D_VULKAN_NO_IMPORT"), "1") == 0;
  if (job->copies() + job->imports() != expect_copies || (no_import && job->imports() != 0))
    return format("%s: copies() %d + imports() %d, expected %d%s", what, job->copies(),
                  job->imports(), expect_copies, no_import ? " copies" : "");
  for (int p = 0; p < 3; p++) {
    const size_t begin = f.plane_off[p];
    const size_t end = p < 2 ? f.plane_off[p + 1] : f.size;
    for (size_t k = begin; k < end; k++) {
      if (f.mem[k] == want.mem[k]) continue;
      const long row = static_cast<long>((k - begin) / f.fp.stride[p]) - kGuard;
      const long col = static_cast<long>((k - begin) % f.fp.stride[p]) - kGuard;
      return format("%s (seed 0x%" PRIx64 "): plane %d x %ld y %ld: got %u, want %u; %s", what,
                    seed, p, col, row, f.mem[k], want.mem[k],
                    block_at(c, p, static_cast<int>(col), static_cast<int>(row)).c_str());
    }
  }
  return "";
}

void run_case(const std::shared_ptr<v3d::Gpu> &gpu, const Case &c, bool shared_frame,
              bool shared_coeffs, uint64_t seed, const char *what) {
  std::string e = case_error(gpu, c, shared_frame, shared_coeffs, seed, what);
  check(e.empty(), "%s", e.c_str());
}

// Several threads submitting to one Gpu at once (its queue lock, job slots, registry).
void concurrent_jobs(const std::shared_ptr<v3d::Gpu> &gpu, uint64_t seed0, int index) {
  constexpr int kThreads = 3, kFramesEach = 4;
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kFramesEach && errors[t].empty(); i++) {
        const uint64_t seed = seed0 + 99991ull * (t * kFramesEach + i + 1);
        Rng rng(seed);
        Case c = mixed_case(rng, 250, 130);
        std::string what = format("device %d thread %d frame %d", index, t, i);
        errors[t] = case_error(gpu, c, (i & 1) == 0, (i & 2) == 0, seed, what.c_str());
      }
    });
  }
  for (auto &th : threads) th.join();
  for (const auto &e : errors) check(e.empty(), "%s", e.c_str());
}

// Per-frame time of a 1920x1088 luma frame of 8x8 DCT blocks (printed, not checked).
void time_1080p(const std::shared_ptr<v3d::Gpu> &gpu, Rng &rng) {
  tv::BlockSpec spec;
  spec.tx_size = 1;
  spec.tx_type = 0;
  Case c = make_case(rng, 1920, 1088, spec, encoder_coeffs(1 << 30));
  for (uint32_t i = 0; i < c.blocks.size(); i++)
    if (c.blocks[i].plane == 0) c.index.push_back(i);
  for (int shared = 1; shared >= 0; shared--) {
    Frame f(1920, 1088, shared ? gpu : nullptr);
    Coeffs co(c.coeffs, shared ? gpu : nullptr);
    if (!f.mem) return;
    memset(f.mem, 128, f.size);
    std::vector<double> wall, dev;
    for (int it = 0; it < 8; it++) {
      auto t0 = std::chrono::steady_clock::now();
      std::string err;
      auto job = v3d::gpu_vp9_itx_submit(*gpu, f.fp, c.blocks.data(), c.index.data(),
                                         c.index.size(), co.ptr(), c.coeffs.size(), &err);
      if (!job || job->wait() != V3D_OK) return;
      wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      dev.push_back(v3d::gpu_last_job_seconds(*gpu));
    }
    std::sort(wall.begin(), wall.end());
    std::sort(dev.begin(), dev.end());
    printf("  1920x1088 luma, %zu 8x8 DCT blocks, %s: median %.2f ms per frame (submit to wait), "
           "GPU timestamps %.2f ms, %.1f ns/block\n",
           c.blocks.size(), shared ? "shared memory" : "copied", wall[4] * 1e3, dev[4] * 1e3,
           wall[4] * 1e9 / c.blocks.size());
  }
}

void test_device(int index, const std::string &name, bool coef32, int *opened) {
  if (coef32) setenv("V3D_VULKAN_COEF32", "1", 1);
  else unsetenv("V3D_VULKAN_COEF32");
  std::string err;
  auto gpu = v3d::gpu_open(std::to_string(index).c_str(), &err);
  if (!gpu) {
    printf("device %d (%s): not usable: %s\n", index, name.c_str(), err.c_str());
    return;
  }
  (*opened)++;
  printf("device %d: %s, subgroup %d, %s coefficients\n", index, v3d::gpu_name(*gpu),
         v3d::gpu_subgroup_size(*gpu), coef32 ? "uint32-pair" : "int16 (if offered)");
  const uint64_t seed0 = v3dtest::base_seed() ^ (static_cast<uint64_t>(index) << 40) ^ (coef32 ? 1ull << 32 : 0);
  static const int kSizes[][2] = {{352, 288}, {250, 130}, {200, 100}};
  char what[200];
  int k = 0;
  for (const auto &pair : tv::kTxPairs) {
    for (const auto &sz : kSizes) {
      const uint64_t seed = seed0 + 1000003ull * ++k;
      Rng rng(seed);
      Case c = tiled_case(rng, sz[0], sz[1], pair.tx_size, pair.tx_type);
      for (int mem = 0; mem < 2; mem++) {
        snprintf(what, sizeof(what), "device %d %s %dx%d %s, %s memory", index,
                 tv::tx_name(pair.tx_size, pair.tx_type), sz[0], sz[1],
                 coef32 ? "u32" : "c16", mem ? "plain" : "shared");
        run_case(gpu, c, mem == 0, mem == 0, seed, what);
      }
    }
  }
  for (int m = 0; m < 8; m++) {
    const auto &sz = kSizes[m % 3];
    const uint64_t seed = seed0 + 7777777ull * (m + 1);
    Rng rng(seed);
    Case c = mixed_case(rng, sz[0], sz[1]);
    if (m == 3) {  // a band of rows (as the hybrid split gives the GPU one region)
      std::vector<uint32_t> keep;
      for (uint32_t i : c.index)
        if (c.blocks[i].y >= 16 && c.blocks[i].y < 48) keep.push_back(i);
      c.index = keep;
    }
    if (m >= 5) {  // one plane only: the other bindings unused, one plane copy at most
      std::vector<uint32_t> keep;
      for (uint32_t i : c.index)
        if (c.blocks[i].plane == m - 5) keep.push_back(i);
      c.index = keep;
    }
    snprintf(what, sizeof(what), "device %d mixed %dx%d %s, frame %s, coeffs %s", index, sz[0],
             sz[1], coef32 ? "u32" : "c16", m & 1 ? "plain" : "shared", m & 2 ? "plain" : "shared");
    run_case(gpu, c, !(m & 1), !(m & 2), seed, what);
    // The same case prepared in parts by several threads (as a split frame's loop does).
    const int parts = 1 + 3 * m;
    snprintf(what, sizeof(what), "device %d mixed %dx%d %s, frame %s, coeffs %s, %d parts", index,
             sz[0], sz[1], coef32 ? "u32" : "c16", m & 1 ? "plain" : "shared",
             m & 2 ? "plain" : "shared", parts);
    std::string e = case_error(gpu, c, !(m & 1), !(m & 2), seed, what, parts);
    check(e.empty(), "%s", e.c_str());
  }
  {
    // submit() before every part has run is refused (the GPU would read stale list entries),
    // and the frame stays untouched; the slot is returned (the next job gets one).
    const uint64_t seed = seed0 ^ 0x5EB5;
    Rng rng(seed);
    Case c = mixed_case(rng, 250, 130);
    Frame f(c.width, c.height, gpu);
    Coeffs co(c.coeffs, gpu);
    std::string err;
    auto prep = v3d::gpu_vp9_itx_prepare(*gpu, f.fp, c.blocks.data(), c.index.data(),
                                         c.index.size(), co.ptr(), c.coeffs.size(), 3, &err);
    check(prep != nullptr, "device %d: prepare failed: %s", index, err.c_str());
    if (prep) {
      memset(f.mem, 77, f.size);
      prep->run_part(0);
      prep->run_part(2);
      auto job = prep->submit(&err);
      bool untouched = true;
      for (size_t k = 0; k < f.size; k++) untouched = untouched && f.mem[k] == 77;
      check(!job && err.find("parts") != std::string::npos && untouched,
            "device %d (seed 0x%" PRIx64 "): submit() with a part not run: %s, error \"%s\", "
            "frame %s", index, seed, job ? "accepted" : "refused", err.c_str(),
            untouched ? "untouched" : "changed");
    }
    std::string e = case_error(gpu, c, true, true, seed, "after a refused submit()");
    check(e.empty(), "%s", e.c_str());
  }
  concurrent_jobs(gpu, seed0 ^ 0xC0C0, index);
  Rng trng(seed0);
  if (!coef32) time_1080p(gpu, trng);
  check(v3d::gpu_validation_messages(*gpu) == 0, "device %d: %d validation messages", index,
        v3d::gpu_validation_messages(*gpu));
}

}  // namespace

int main() {
  v3dtest::base_seed();
  setenv("V3D_VULKAN_VALIDATION", "1", 0);  // used when the layers are installed
  std::string err;
  std::vector<std::string> names = v3d::gpu_list_devices(&err);
  if (names.empty()) {
    printf("SKIP: %s\n", err.c_str());
    return 77;
  }
  int opened = 0;
  for (size_t d = 0; d < names.size(); d++) {
    test_device(static_cast<int>(d), names[d], false, &opened);
    test_device(static_cast<int>(d), names[d], true, &opened);
  }
  check(opened > 0, "no Vulkan device could be opened");
  return v3dtest::finish();
}
