/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/context.h: contexts (CPU worker threads and an optional GPU) that the frame-level calls of
 * every family run on, their settings, statistics, and memory shared with the GPU.
 *
 * A context is reference-counted and may be used from several threads at once: frame-level
 * calls on one context run one at a time (a second caller blocks until the first returns), calls
 * on different contexts run in parallel (contexts that use one Vulkan device share it).
 */
#ifndef V3D_CONTEXT_H
#define V3D_CONTEXT_H

#include "v3d/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct V3dContext V3dContext;

/* ------------------------------------------------------------------------------------------ */
/* Settings, open and close                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Backends (the `backend` setting), each giving the same output bit for bit:
 *   "scalar"  the scalar references, one unit after another (for tests and comparisons).
 *   "simd"    the SIMD kernels on the context's CPU worker threads.
 *   "gpu"     every frame on the GPU (Vulkan compute); a family whose pipeline the device lacks
 *             runs on the CPU workers, with one warning. Needs a Vulkan device.
 *   "hybrid"  the CPU workers and the GPU: each frame (or batch) runs on the CPU alone, on the
 *             GPU alone or split between them, chosen per family and frame size from measured
 *             times, or split at a fixed share (gpu_share).
 *   "auto"    the CPU workers alone, the GPU alone, or a split, chosen per family from measured
 *             times; the other ways are retried now and then, less often while they keep
 *             losing, and never for more than a small share of a stream's time. A CPU-type
 *             Vulkan device (lavapipe, llvmpipe) is used only when named (gpu_device,
 *             V3D_VULKAN_DEVICE). A split may leave one worker's core to the GPU's host work.
 *             Without a usable GPU "auto" is "simd" (its threads too), with an info message.
 * "hybrid" (without a named device) falls back to the CPU workers alone, with one warning, when
 * no Vulkan device can be had. When the GPU fails during a call, its part of the
 * work is redone on the CPU with the same result and a warning (except where the GPU was
 * writing the caller's memory in place: V3D_ERROR_GPU, v3d/vp9_lpf.h); a lost device leaves
 * every later call on the CPU. The environment variables that change these choices
 * (V3D_BACKEND, V3D_CPU_THREADS, V3D_VULKAN_DEVICE, ...) are listed in docs/api.md. */

/* A context's settings; fill with v3d_default_settings(), then change fields. */
typedef struct V3dSettings {
  const char *backend;    /* "scalar", "simd" (or "cpu"), "gpu", "hybrid" or "auto"
                             (default), in any case; NULL or "" = "auto". Read during v3d_open
                             only. */
  int cpu_threads;        /* CPU worker threads, 1..1024 (the calling thread is one of them);
                             0 (default) = one per online core for "auto" with a GPU, one
                             fewer (at least 1) otherwise. */
  const char *gpu_device; /* Vulkan device: an index ("1") or a substring of its name; NULL or
                             "" (default) = the default choice (docs/api.md). Read during
                             v3d_open only. */
  double gpu_share;       /* "hybrid" and "auto": fraction of each frame's work given to the
                             GPU, 0..1; negative (default -1) = chosen from measured times. */
  int reserved[8];        /* zero (v3d_default_settings sets it): v3d_open refuses anything
                             else, so that later fields can be added here */
} V3dSettings;

/* Fills *s with the defaults: backend "auto", cpu_threads 0, gpu_device NULL, gpu_share -1,
 * reserved zero (NULL: does nothing). Does not block; thread-safe. */
V3D_API void v3d_default_settings(V3dSettings *s);

/* Creates a context with settings *s (not kept: the caller keeps owning s and its strings).
 * Returns V3D_OK and stores the context in *ctx, which then owns one reference to it (drop it
 * with v3d_close). On failure stores NULL in *ctx (when ctx is not NULL), sets the calling
 * thread's message and returns
 *   V3D_ERROR_INVALID_ARGUMENT   ctx or s is NULL;
 *   V3D_ERROR_INVALID_SETTINGS   an unknown backend, cpu_threads outside 0..1024, gpu_share
 *                                above 1 or not a number, reserved not zero;
 *   V3D_ERROR_UNAVAILABLE        "gpu" without a usable Vulkan device, or "hybrid" with a named
 *                                gpu_device that can't be opened;
 *   V3D_ERROR_NO_MEMORY          memory or the worker threads could not be had.
 * Blocks while it starts the worker threads and, for the first context of a device, opens the
 * Vulkan device and builds its pipelines. Thread-safe. */
V3D_API int v3d_open(V3dContext **ctx, const V3dSettings *s);

/* Drops the reference *ctx holds and stores NULL in *ctx; ctx or *ctx NULL: does nothing. The
 * last reference's drop frees the context: it joins the worker threads and waits for the
 * context's GPU work, so it blocks, and must not happen while another thread is in a call on
 * the context. Thread-safe for distinct references. */
V3D_API void v3d_close(V3dContext **ctx);

/* The older way to create a context: v3d_open with backend and cpu_threads as given (backend
 * NULL = "auto"), gpu_device NULL and gpu_share -1. Returns the context, owning one reference,
 * or NULL on failure (for the reasons v3d_open gives; the message is logged and in
 * v3d_last_error()). Blocks as v3d_open does. Thread-safe. */
V3D_API V3dContext *v3d_context_new(const char *backend, int cpu_threads);

/* The older settings struct: the first four fields of V3dSettings, with the same meanings,
 * except that gpu_share above 1 is taken as 1 and a NaN as negative. */
typedef struct {
  const char *backend;
  int cpu_threads;
  const char *gpu_device;
  double gpu_share;
} V3dContextOptions;

/* As v3d_context_new, with options (NULL = the defaults). */
V3D_API V3dContext *v3d_context_new_with_options(const V3dContextOptions *options);

/* A context being created on a thread of its own, so that a Vulkan device's opening (a fraction
 * of a second on a GPU, more on lavapipe) need not hold up the caller: a decoder can start on a
 * "simd" context and move to the opened one later (v3d_vp9_decoder_set_context). */
typedef struct V3dContextOpening V3dContextOpening;

/* Starts v3d_context_new_with_options(options) (NULL = the defaults; the options and their
 * strings are copied) on a new thread. Returns the handle (free it with
 * v3d_context_opening_free), or NULL when the thread could not be started. Does not block on
 * the opening; thread-safe. */
V3D_API V3dContextOpening *v3d_context_open_async(const V3dContextOptions *options);

/* Never blocks. Returns 0 while the context is still being created; 1 once the creation is done
 * and its result not yet taken: *ctx (when not NULL) receives the context, owning one reference,
 * or NULL when the creation failed (v3d_context_opening_error says why); *seconds (when not
 * NULL) how long the creation took. Later calls return -1 and take nothing, as does a NULL op.
 * One caller at a time. */
V3D_API int v3d_context_opening_poll(V3dContextOpening *op, V3dContext **ctx, double *seconds);

/* The message of a failed creation ("" before it is done or when it succeeded); the string
 * belongs to op. */
V3D_API const char *v3d_context_opening_error(const V3dContextOpening *op);

/* Waits for the creation to finish (blocks while a device is still opening), drops a context
 * that poll did not hand out, and frees op (NULL: does nothing). */
V3D_API void v3d_context_opening_free(V3dContextOpening *op);

/* Adds a reference to ctx and returns ctx (NULL: returns NULL). Does not block; thread-safe. */
V3D_API V3dContext *v3d_context_ref(V3dContext *ctx);

/* Drops one reference to ctx (NULL: does nothing); the last one frees it, blocking as v3d_close
 * does. v3d_context_unref and v3d_context_free do the same (two names); v3d_close also clears the
 * caller's pointer. */
V3D_API void v3d_context_unref(V3dContext *ctx);
V3D_API void v3d_context_free(V3dContext *ctx);

/* ------------------------------------------------------------------------------------------ */
/* What a context is                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Returns the backend the context runs after fallbacks: "scalar", "simd", "gpu" or "hybrid"
 * ("auto" reports "hybrid" when it has a GPU it may use, "simd" when not); "" for NULL. A static
 * string. Does not block; thread-safe. */
V3D_API const char *v3d_context_backend(const V3dContext *ctx);

/* Returns the name of the context's Vulkan device, or NULL when it has none (or ctx is NULL).
 * The string belongs to ctx and lives as long as it. Does not block; thread-safe. */
V3D_API const char *v3d_context_gpu_name(const V3dContext *ctx);

/* Returns the number of CPU worker threads (the calling thread included), 0 for NULL. Does not
 * block; thread-safe. */
V3D_API int v3d_context_cpu_threads(const V3dContext *ctx);

/* "hybrid" and "auto": fixes the fraction of each frame's work given to the GPU (0..1; above 1
 * is taken as 1), or returns to choosing it from measured times (share < 0). NULL: does nothing.
 * Blocks until a frame-level call running on ctx returns; thread-safe. */
V3D_API void v3d_context_set_gpu_share(V3dContext *ctx, double share);

/* ------------------------------------------------------------------------------------------ */
/* Statistics                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Totals over every frame-level call of a context since it was created. Units: transform blocks,
 * 8x8 luma blocks of the loop filter, macroblocks (see V3D_KERNEL_*). */
typedef struct {
  uint64_t frames;         /* frames of frame-level calls that succeeded */
  uint64_t blocks_cpu;     /* units done by the CPU workers */
  uint64_t blocks_gpu;     /* units done by the GPU */
  double cpu_seconds;      /* wall time the CPU side spent on its share, summed over calls */
  double gpu_seconds;      /* wall time from GPU submission to completion, summed over calls */
  double gpu_share;        /* fraction of the last call's work given to the GPU */
  uint64_t copies;         /* plane copies made because a frame was not in shared memory */
  uint64_t gpu_submissions;/* queue submissions */
} V3dStats;

/* Copies the context's totals into *stats; NULL ctx or stats: does nothing. Takes a short lock;
 * thread-safe. */
V3D_API void v3d_context_get_stats(const V3dContext *ctx, V3dStats *stats);

/* Kernel families, for v3d_context_get_kernel_stats. */
enum {
  V3D_KERNEL_VP9_ITX = 0,       /* v3d_vp9_itx_frame(s): units are transform blocks */
  V3D_KERNEL_VP9_LPF = 1,       /* v3d_vp9_lpf_frame(s): units are 8x8 luma blocks */
  V3D_KERNEL_H264_DEBLOCK = 2,  /* v3d_h264_deblock_frame(s): units are macroblocks, weighted
                                   by plane when the planes are divided (luma 4/6, each chroma
                                   plane 1/6) */
  V3D_KERNEL_COUNT = 3
};

/* What the scheduler did with one family, for observability (element statistics, logs). */
typedef struct {
  uint64_t frames;              /* frames of frame-level calls that succeeded */
  uint64_t units_cpu;           /* units done by the CPU workers */
  uint64_t units_gpu;           /* units done by the GPU */
  double wall_seconds;          /* time inside the frame-level calls */
  double cpu_busy_seconds;      /* time the CPU side worked on its share */
  double gpu_busy_seconds;      /* time from GPU submission to completion */
  double cpu_idle_seconds;      /* calls where both sides worked: time the CPU side waited */
  double gpu_idle_seconds;      /* calls where both sides worked: time the GPU side was done
                                   before the CPU side */
  double cpu_units_per_second;  /* throughput of each side while busy (0 = never used) */
  double gpu_units_per_second;
  double gpu_share_last;        /* fraction of the last call's work given to the GPU */
  double frame_ms_median;       /* distribution of the last (up to) 256 call times, ms */
  double frame_ms_p99;
  uint32_t gpu_jobs_in_flight;  /* GPU jobs submitted and not yet completed, now */
  uint32_t gpu_jobs_in_flight_max; /* the most there have been */
} V3dKernelStats;

/* Copies the statistics of family `kernel` (V3D_KERNEL_*) into *stats. Returns V3D_OK, or
 * V3D_ERROR_INVALID_ARGUMENT for a NULL pointer or an unknown family. Takes a short lock;
 * thread-safe. */
V3D_API int v3d_context_get_kernel_stats(const V3dContext *ctx, int kernel, V3dKernelStats *stats);

/* ------------------------------------------------------------------------------------------ */
/* Memory shared with the GPU                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Returns size bytes (at least 1), 64-byte aligned, that the CPU workers and ctx's GPU both
 * reach: the GPU's host-visible memory when v3d_context_shares_gpu_memory(ctx), else plain
 * memory (also for ctx NULL). Frames whose planes lie in the GPU's memory go to the GPU without
 * copies; others are copied for it. Returns NULL when no memory can be had. The caller owns the
 * block and frees it with v3d_shared_free; the block keeps what it needs alive, so it may be
 * freed after the context. May block while the GPU allocates. Thread-safe. */
V3D_API void *v3d_shared_alloc(V3dContext *ctx, size_t size);

/* Frees a block of v3d_shared_alloc (NULL: does nothing; any other pointer is logged as an error
 * and left alone). Thread-safe. */
V3D_API void v3d_shared_free(void *ptr);

/* Returns 1 when ptr (a block of v3d_shared_alloc) is the GPU's memory, 0 for plain memory or
 * any other pointer. Takes a short lock; thread-safe. */
V3D_API int v3d_shared_is_gpu(const void *ptr);

/* Returns 1 when v3d_shared_alloc(ctx, ...) hands out the GPU's memory (ctx has a usable GPU
 * whose host-visible memory the CPU reads at full speed, or the environment asks for it:
 * docs/api.md), 0 when plain memory. Does not block; thread-safe. */
V3D_API int v3d_context_shares_gpu_memory(const V3dContext *ctx);

#ifdef __cplusplus
}
#endif

#endif /* V3D_CONTEXT_H */
