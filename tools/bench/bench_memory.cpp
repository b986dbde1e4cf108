// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d-bench --section memory: what the CPU pays for working in the GPU's host-visible memory
// rather than in plain memory. Where the CPU caches the GPU's memory (NVIDIA, lavapipe) the two
// should match; where it does not (v3dv on the Raspberry Pi: its only memory type is mapped
// write-combined) every CPU read of the GPU's memory goes to DRAM uncached, which is why
// v3d_shared_alloc keeps frames in plain memory there by default (V3D_SHARED_MEMORY,
// sched/shared_alloc.cpp). This section measures that choice on the machine at hand: one thread
// reading, writing and copying a buffer of each kind, and the 8x8 inverse DCT + add (the SIMD
// kernel, one thread) over a 1920x1088 luma plane lying in each kind.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench_common.h"
#include "sched/context.h"
#include "vp9/itx/itx.h"
#include "gpu/gpu.h"

namespace v3dbench {
namespace {

constexpr size_t kBytes = 16u << 20;  // a handful of 1080p frames
constexpr int kW = 1920, kH = 1088;   // the plane of the kernel's test
constexpr int kRounds = 7;

// Best time of kRounds runs of f(), in seconds (a shared host's stalls only make runs slower).
template <class F>
double best_of(F f) {
  double best = 1e30;
  for (int r = 0; r < kRounds; r++) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, since(t0));
  }
  return best;
}

struct MemoryFigures {
  double read_gbs, write_gbs, copy_in_gbs, copy_out_gbs, plane_ms;
};

MemoryFigures measure(uint8_t *buf, uint8_t *other, const std::vector<int16_t> &coeffs) {
  MemoryFigures m{};
  volatile uint64_t sink = 0;
  m.read_gbs = kBytes / best_of([&] {
                 const uint64_t *p = reinterpret_cast<const uint64_t *>(buf);
                 uint64_t s = 0;
                 for (size_t i = 0; i < kBytes / 8; i += 4) s += p[i] ^ p[i + 1] ^ p[i + 2] ^ p[i + 3];
                 sink = sink + s;
               }) / 1e9;
  m.write_gbs = kBytes / best_of([&] { memset(buf, 0x55, kBytes); }) / 1e9;
  m.copy_in_gbs = kBytes / best_of([&] { memcpy(buf, other, kBytes); }) / 1e9;
  m.copy_out_gbs = kBytes / best_of([&] { memcpy(other, buf, kBytes); }) / 1e9;
  // Every 8x8 block of the plane, DCT_DCT, each with its own coefficients (all 64 given: the
  // full transform, as the densest blocks of a stream).
  const v3d::vp9::ItxAddFn add = v3d::vp9::itx_dsp().add[1][0];
  m.plane_ms = 1e3 * best_of([&] {
                 size_t b = 0;
                 for (int y = 0; y < kH; y += 8)
                   for (int x = 0; x < kW; x += 8, b++)
                     add(buf + static_cast<size_t>(y) * kW + x, kW, &coeffs[(b % 1024) * 64], 64);
               });
  return m;
}

}  // namespace

void bench_memory(const Options &opt, Json &json) {
  if (!opt.gpu) {
    printf("\nMemory: skipped (--no-gpu)\n");
    return;
  }
  V3dContext *ctx = v3d_context_new("gpu", 1);
  if (!ctx) {
    printf("\nMemory: no GPU (%s)\n", v3d_last_error());
    return;
  }
  uint8_t *gpu_mem = static_cast<uint8_t *>(v3d::gpu_shared_alloc(ctx->gpu, kBytes));
  uint8_t *plain = static_cast<uint8_t *>(aligned_alloc(64, kBytes));
  uint8_t *other = static_cast<uint8_t *>(aligned_alloc(64, kBytes));
  if (!gpu_mem || !plain || !other) {
    printf("\nMemory: allocation failed\n");
  } else {
    Rng rng{99};
    for (size_t i = 0; i < kBytes; i++) other[i] = static_cast<uint8_t>(rng.next() >> 56);
    memcpy(gpu_mem, other, kBytes);
    memcpy(plain, other, kBytes);
    // Small coefficients (the result stays near the prediction; the work does not depend on it).
    std::vector<int16_t> coeffs(1024 * 64);
    for (auto &c : coeffs) c = static_cast<int16_t>(static_cast<int>(rng.next() % 41) - 20);
    const bool cached = v3d::gpu_host_cached(*ctx->gpu);
    const MemoryFigures g = measure(gpu_mem, other, coeffs), p = measure(plain, other, coeffs);
    printf("\nMemory, one thread, %zu MiB buffers: the GPU's host-visible memory (%s, %s by the "
           "CPU) against plain memory\n",
           kBytes >> 20, v3d::gpu_name(*ctx->gpu), cached ? "cached" : "not cached");
    printf("%-26s %10s %10s %12s %12s %22s\n", "memory", "read GB/s", "write GB/s",
           "copy in GB/s", "copy out GB/s", "8x8 DCT plane, ms");
    printf("%-26s %10.2f %10.2f %12.2f %12.2f %22.3f\n", "GPU's host-visible", g.read_gbs,
           g.write_gbs, g.copy_in_gbs, g.copy_out_gbs, g.plane_ms);
    printf("%-26s %10.2f %10.2f %12.2f %12.2f %22.3f\n", "plain", p.read_gbs, p.write_gbs,
           p.copy_in_gbs, p.copy_out_gbs, p.plane_ms);
    printf("(v3d_shared_alloc hands out %s memory here: V3D_SHARED_MEMORY)\n",
           v3d_context_shares_gpu_memory(ctx) ? "the GPU's" : "plain");
    json.begin_object("memory");
    json.str("gpu", v3d::gpu_name(*ctx->gpu));
    json.num("gpu_memory_cached", cached ? 1 : 0);
    json.num("shared_alloc_gpu", v3d_context_shares_gpu_memory(ctx));
    for (int k = 0; k < 2; k++) {
      const MemoryFigures &m = k ? p : g;
      json.begin_object(k ? "plain" : "gpu");
      json.num("read_gbs", m.read_gbs);
      json.num("write_gbs", m.write_gbs);
      json.num("copy_in_gbs", m.copy_in_gbs);
      json.num("copy_out_gbs", m.copy_out_gbs);
      json.num("plane_8x8_ms", m.plane_ms);
      json.end_object();
    }
    json.end_object();
  }
  if (gpu_mem) v3d::gpu_shared_free(gpu_mem);
  free(plain);
  free(other);
  v3d_context_free(ctx);
}

}  // namespace v3dbench
