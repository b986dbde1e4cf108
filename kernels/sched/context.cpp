// SPDX-License-Identifier: LGPL-2.1-or-later
// The context's lifecycle and options (v3d_context_*), and what every family asks of it: whether
// its GPU is usable, and how a GPU failure is reported.
#include "sched/context.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <strings.h>

#include "gpu/gpu_cache.h"
#include "runtime/cpu.h"
#include "runtime/log.h"

namespace v3d {
namespace {

bool parse_backend(const char *name, Backend *out, bool *is_auto) {
  *is_auto = false;
  if (!name || !*name || strcasecmp(name, "auto") == 0) {
    *is_auto = true;
    return true;
  }
  if (strcasecmp(name, "scalar") == 0) *out = Backend::kScalar;
  else if (strcasecmp(name, "simd") == 0 || strcasecmp(name, "cpu") == 0) *out = Backend::kSimd;
  else if (strcasecmp(name, "gpu") == 0) *out = Backend::kGpu;
  else if (strcasecmp(name, "hybrid") == 0) *out = Backend::kHybrid;
  else return false;
  return true;
}

}  // namespace

bool gpu_usable(const V3dContext *ctx) { return ctx->gpu && !gpu_lost(*ctx->gpu); }

void warn_gpu_failure(V3dContext *ctx, const char *why, const char *now) {
  const bool lost = gpu_lost(*ctx->gpu);
  const int n = ctx->gpu_failures.fetch_add(1, std::memory_order_relaxed);
  log(n == 0 ? kLogWarning : kLogDebug, "GPU %s %s (%s): %s%s", ctx->gpu_name.c_str(),
      lost ? "lost" : "failed", why, now, lost ? "; all later work runs on the CPU" : "");
}

const char *backend_name(Backend b) {
  switch (b) {
    case Backend::kScalar: return "scalar";
    case Backend::kSimd: return "simd";
    case Backend::kGpu: return "gpu";
    case Backend::kHybrid: return "hybrid";
  }
  return "?";
}

}  // namespace v3d

using v3d::Backend;

extern "C" {

V3dContext *v3d_context_new(const char *backend, int cpu_threads) {
  V3dContextOptions o{};
  o.backend = backend;
  o.cpu_threads = cpu_threads;
  o.gpu_share = -1;
  return v3d_context_new_with_options(&o);
}

V3dContext *v3d_context_new_with_options(const V3dContextOptions *options) {
  v3d::clear_error();
  V3dContextOptions o{};
  o.gpu_share = -1;
  if (options) o = *options;
  const char *name = o.backend;
  bool is_auto = false;
  Backend backend = Backend::kSimd;
  if (!v3d::parse_backend(name, &backend, &is_auto)) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT,
                   "unknown backend '%s' (scalar, simd, gpu, hybrid or auto)", name);
    v3d::log(v3d::kLogError, "%s", v3d_last_error());
    return nullptr;
  }
  if (is_auto) {
    const char *env = getenv("V3D_BACKEND");
    bool env_auto = true;
    if (env && *env && !v3d::parse_backend(env, &backend, &env_auto))
      v3d::log(v3d::kLogWarning, "ignoring V3D_BACKEND=%s: unknown backend", env);
    is_auto = env_auto;
    if (is_auto) backend = Backend::kHybrid;
  }
  if (o.cpu_threads < 0 || o.cpu_threads > 1024) {
    v3d::set_error(V3D_ERROR_INVALID_ARGUMENT, "cpu_threads %d out of range 0..1024",
                   o.cpu_threads);
    v3d::log(v3d::kLogError, "%s", v3d_last_error());
    return nullptr;
  }
  v3d::cpu_init();

  auto ctx = std::make_unique<V3dContext>();
  if (backend == Backend::kGpu || backend == Backend::kHybrid) {
    std::string err;
    // auto never takes a CPU-type device (lavapipe, llvmpipe: threads on the workers' own
    // cores) unless one is named; gpu and hybrid take whatever the default choice gives.
    bool cpu_only = false;
    ctx->gpu = v3d::open_shared_gpu(o.gpu_device, &err, is_auto, &cpu_only);
    if (!ctx->gpu && cpu_only) {
      v3d::log(v3d::kLogInfo, "auto: %s: using the CPU only (backend gpu or hybrid, or a device "
               "named in V3D_VULKAN_DEVICE, uses one)", err.c_str());
      backend = Backend::kSimd;
    } else if (!ctx->gpu) {
      if (backend == Backend::kGpu || (!is_auto && o.gpu_device && *o.gpu_device)) {
        v3d::set_error(V3D_ERROR_UNAVAILABLE, "backend '%s' needs a Vulkan device: %s",
                       v3d::backend_name(backend), err.c_str());
        v3d::log(v3d::kLogError, "%s", v3d_last_error());
        return nullptr;
      }
      v3d::log(v3d::kLogWarning, "no usable Vulkan device (%s): using the CPU only", err.c_str());
      backend = Backend::kSimd;
    } else {
      ctx->gpu_name = v3d::gpu_name(*ctx->gpu);
    }
  }
  ctx->backend = backend;
  ctx->auto_backend = is_auto;
  ctx->fixed_share = o.gpu_share >= 0 ? std::min(1.0, o.gpu_share) : -1;
  // Default: V3D_CPU_THREADS when set to 1..1024, else online cores - 1 (the GPU gets a core's
  // worth of memory bandwidth and the submitting thread: measured better on a Pi 5 than N).
  // auto with a GPU: a thread per core; a lean split leaves one to the GPU (SplitController).
  // auto without one is the cpu backend, threads included (so that it never runs slower).
  int default_threads = is_auto && ctx->gpu ? v3d::online_cores()
                                            : std::max(1, v3d::online_cores() - 1);
  long env_threads = 0;
  if (v3d::env_int("V3D_CPU_THREADS", 1, 1024, &env_threads, "ignored"))
    default_threads = static_cast<int>(env_threads);
  int threads = o.cpu_threads > 0 ? o.cpu_threads : default_threads;
  ctx->pool = std::make_unique<v3d::ThreadPool>(threads);
  if (ctx->gpu && (backend == Backend::kGpu || backend == Backend::kHybrid))
    ctx->gpu_side = std::make_unique<v3d::SideThread>();
  v3d::log(v3d::kLogInfo, "context %p: backend %s%s, %d CPU threads, SIMD %s, GPU %s",
           static_cast<const void *>(ctx.get()), v3d::backend_name(backend),
           is_auto ? " (auto)" : "", threads, v3d_cpu_target(),
           ctx->gpu ? ctx->gpu_name.c_str() : "none");
  return ctx.release();
}

V3dContext *v3d_context_ref(V3dContext *ctx) {
  if (ctx) ctx->refcount.fetch_add(1, std::memory_order_relaxed);
  return ctx;
}

void v3d_context_free(V3dContext *ctx) {
  if (ctx && ctx->refcount.fetch_sub(1, std::memory_order_acq_rel) == 1) delete ctx;
}

const char *v3d_context_backend(const V3dContext *ctx) {
  return ctx ? v3d::backend_name(ctx->backend) : "";
}

const char *v3d_context_gpu_name(const V3dContext *ctx) {
  return ctx && ctx->gpu ? ctx->gpu_name.c_str() : nullptr;
}

int v3d_context_cpu_threads(const V3dContext *ctx) { return ctx ? ctx->pool->capacity() : 0; }

void v3d_context_set_gpu_share(V3dContext *ctx, double share) {
  if (!ctx) return;
  std::lock_guard<std::mutex> lock(ctx->frame_mutex);
  ctx->fixed_share = share >= 0 ? std::min(1.0, share) : -1;
}

void v3d_context_get_stats(const V3dContext *ctx, V3dStats *stats) {
  if (!ctx || !stats) return;
  std::lock_guard<std::mutex> lock(ctx->stats_mutex);
  *stats = ctx->stats;
}

}  // extern "C"
