// SPDX-License-Identifier: LGPL-2.1-or-later
// v3d_shared_alloc / v3d_shared_free: memory that the CPU workers and a context's GPU share
// (gpu/vk_memory.cpp's host-visible buffers; plain aligned memory without a GPU), with a
// small cache of freed blocks.
//
// Why the cache: video frames come and go at the frame rate, all of one size. GStreamer's
// memory copies (a decoder making its output writable, gst_memory_copy) allocate a new block per
// frame; without reuse every such frame costs a GPU memory allocation and the page faults of
// fresh memory. Freed blocks are kept per (GPU, size) and handed out again, up to kCachedBytes in
// all and kCachedPerSize blocks of one size; what exceeds that is freed at once. Blocks of a lost
// GPU are never kept (they hold the lost Gpu alive). At exit, shared_alloc_release_cache()
// (gpu_cache.h) frees the kept blocks, and later frees release at once.
//
// Where the memory comes from (V3D_SHARED_MEMORY, read once):
//   auto (default)  the GPU's host-visible memory when the CPU caches it (NVIDIA, lavapipe,
//                   most desktop GPUs); plain memory when it does not (v3dv on the Raspberry Pi:
//                   its only memory type is write-combined for the CPU, so the CPU workers, and
//                   an upstream decoder writing into a v3d pool and reading its reference frames
//                   back, would read every pixel uncached). The GPU then copies (stages) the
//                   blocks of its share per job instead: a copy of the GPU's share against
//                   uncached reads of the whole frame by every CPU kernel. Not measured on a Pi.
//   gpu             the GPU's memory whenever a context has a usable GPU (zero copy for the GPU)
//   plain           always plain memory
// Threads: everything here is under one mutex; the GPU calls run outside it.
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sched/context.h"
#include "gpu/gpu_cache.h"
#include "runtime/log.h"
#include "gpu/gpu.h"

namespace v3d {
namespace {

// At most this much freed memory is kept for reuse (16 frames of 1080p 4:2:0 with padding)...
constexpr size_t kCachedBytes = 64u << 20;
// ... and at most this many blocks of one size (a pipeline's frames in flight).
constexpr size_t kCachedPerSize = 8;

struct Block {
  const Gpu *owner;  // the GPU whose memory it is; nullptr for plain memory
  size_t size;       // as cached: the requested size rounded up to 64
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<void *, Block> live;                            // handed out
  std::map<std::pair<const Gpu *, size_t>, std::vector<void *>> free;  // kept for reuse
  size_t free_bytes = 0;
  bool exiting = false;  // after shared_alloc_release_cache(): nothing more is kept
};

Registry &registry() {
  static Registry *r = new Registry;  // never destroyed: frees may come during and after exit
  return *r;
}

// Moves the kept blocks of owner (of every owner when all) from r.free to *out. r.mutex held.
void take_kept(Registry &r, const Gpu *owner, bool all,
               std::vector<std::pair<void *, Block>> *out) {
  for (auto it = r.free.begin(); it != r.free.end();) {
    if (!all && it->first.first != owner) {
      ++it;
      continue;
    }
    for (void *p : it->second) {
      out->push_back({p, Block{it->first.first, it->first.second}});
      r.free_bytes -= it->first.second;
    }
    it = r.free.erase(it);
  }
}

enum class Source { kAuto, kGpu, kPlain };

Source source_setting() {
  static const Source s = [] {
    const char *e = getenv("V3D_SHARED_MEMORY");
    if (!e || !*e || strcmp(e, "auto") == 0) return Source::kAuto;
    if (strcmp(e, "gpu") == 0) return Source::kGpu;
    if (strcmp(e, "plain") == 0) return Source::kPlain;
    log(kLogWarning, "V3D_SHARED_MEMORY=%s is not auto, gpu or plain: auto is used", e);
    return Source::kAuto;
  }();
  return s;
}

// Whether v3d_shared_alloc hands out gpu's memory (see "Where the memory comes from").
bool use_gpu_memory(const Gpu &gpu) {
  switch (source_setting()) {
    case Source::kGpu: return true;
    case Source::kPlain: return false;
    case Source::kAuto: break;
  }
  if (gpu_host_cached(gpu)) return true;
  static std::once_flag once;
  std::call_once(once, [&] {
    log(kLogInfo, "shared frames stay in plain memory: the CPU does not cache %s's host-visible "
        "memory (the GPU's share of a frame is copied for it; V3D_SHARED_MEMORY=gpu shares it "
        "anyway)", gpu_name(gpu));
  });
  return false;
}

void release(void *ptr, const Block &b) {
  if (b.owner) {
    gpu_shared_free(ptr);
  } else {
    free(ptr);
  }
}

}  // namespace

void shared_alloc_release_cache() {
  Registry &r = registry();
  std::vector<std::pair<void *, Block>> kept;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    r.exiting = true;
    take_kept(r, nullptr, true, &kept);
  }
  for (const auto &k : kept) release(k.first, k.second);
}

void shared_alloc_release_kept(const Gpu &owner) {
  Registry &r = registry();
  std::vector<std::pair<void *, Block>> kept;
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    take_kept(r, &owner, false, &kept);
  }
  for (const auto &k : kept) release(k.first, k.second);
}

}  // namespace v3d

extern "C" {

void *v3d_shared_alloc(V3dContext *ctx, size_t size) {
  using namespace v3d;
  const size_t rounded = ((size ? size : 1) + 63) & ~size_t{63};
  const Gpu *owner = v3d_context_shares_gpu_memory(ctx) ? ctx->gpu.get() : nullptr;
  Registry &r = registry();
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.free.find({owner, rounded});
    if (it != r.free.end() && !it->second.empty()) {
      void *p = it->second.back();
      it->second.pop_back();
      r.free_bytes -= rounded;
      r.live[p] = Block{owner, rounded};
      return p;
    }
  }
  void *p = nullptr;
  if (owner) {
    p = gpu_shared_alloc(ctx->gpu, rounded);
    if (!p) {
      if (!gpu_lost(*ctx->gpu)) {
        const std::string now = "shared allocation of " + std::to_string(size) +
                                " bytes in plain memory (frames in it are copied for the GPU)";
        warn_gpu_failure(ctx, "no GPU memory", now.c_str());
      }
      owner = nullptr;
    }
  }
  if (!p) p = aligned_alloc(64, rounded);
  if (!p) return nullptr;
  std::lock_guard<std::mutex> lock(r.mutex);
  r.live[p] = Block{owner, rounded};
  return p;
}

int v3d_context_shares_gpu_memory(const V3dContext *ctx) {
  using namespace v3d;
  return ctx && gpu_usable(ctx) && use_gpu_memory(*ctx->gpu) ? 1 : 0;
}

int v3d_shared_is_gpu(const void *ptr) {
  using namespace v3d;
  if (!ptr) return 0;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.live.find(const_cast<void *>(ptr));
  return it != r.live.end() && it->second.owner != nullptr;
}

void v3d_shared_free(void *ptr) {
  using namespace v3d;
  if (!ptr) return;
  Registry &r = registry();
  Block b;
  std::vector<std::pair<void *, Block>> lost;  // kept blocks of a lost Gpu, freed with ptr
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.live.find(ptr);
    if (it == r.live.end()) {
      log(kLogError, "v3d_shared_free: %p was not allocated by v3d_shared_alloc", ptr);
      return;
    }
    b = it->second;
    r.live.erase(it);
    if (b.owner && gpu_lost(*b.owner)) {
      // The owner is lost: its memory is never handed out again; free what was kept of it too,
      // so the lost Gpu goes away with its last context.
      take_kept(r, b.owner, false, &lost);
    } else if (!r.exiting) {
      std::vector<void *> &kept = r.free[{b.owner, b.size}];
      if (kept.size() < kCachedPerSize && r.free_bytes + b.size <= kCachedBytes) {
        kept.push_back(ptr);
        r.free_bytes += b.size;
        return;
      }
    }
  }
  release(ptr, b);
  for (const auto &k : lost) release(k.first, k.second);
}

}  // extern "C"
