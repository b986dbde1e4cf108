/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3dkernels: decoder kernels (VP9 inverse transforms, ...) on SIMD CPU threads and on the GPU
 * through Vulkan compute. This is the library's one public C header; it has no GStreamer
 * dependency. All functions are thread-safe unless their comment says otherwise.
 */
#ifndef V3D_V3D_H
#define V3D_V3D_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define V3D_API __declspec(dllexport)
#else
#define V3D_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Return codes: 0 success, negative failure. Functions that fail also set a per-thread message
 * naming the problem (v3d_last_error()). */
enum {
  V3D_OK = 0,
  V3D_ERROR_INVALID_ARGUMENT = -1, /* NULL pointer, zero or negative size, bad stride */
  V3D_ERROR_BAD_PLANE = -2,        /* plane index > 2 */
  V3D_ERROR_BLOCK_OUTSIDE = -3,    /* a block starting outside its plane */
  V3D_ERROR_BLOCK_OVERLAP = -4,    /* two blocks of one plane share a pixel */
  V3D_ERROR_BAD_TRANSFORM = -5,    /* invalid (tx_size, tx_type) pair */
  V3D_ERROR_BAD_EOB = -6,          /* eob > n*n */
  V3D_ERROR_COEFFS_OUT_OF_RANGE = -7, /* coeff_offset + n*n > n_coeffs */
  V3D_ERROR_NO_MEMORY = -8,
  V3D_ERROR_GPU = -9,              /* the GPU failed (device lost, submission error) */
  V3D_ERROR_UNAVAILABLE = -10,     /* the requested backend or device can't be had */
  V3D_ERROR_INVALID_DATA = -11,    /* corrupt or truncated bitstream */
  V3D_ERROR_UNSUPPORTED = -12,     /* valid bitstream using a feature not implemented */
  V3D_ERROR_AGAIN = -13,           /* try again after draining output (no picture waiting) */
};

/* Static English description of an error code ("block overlap", ...). Never NULL. */
V3D_API const char *v3d_error_name(int code);
/* Message of the last failure on the calling thread, naming the problem (e.g. "block 17 (plane 0,
 * x 64, y 32, 8x8) overlaps block 3"). Empty string if none. Valid until the next failing call on
 * this thread. */
V3D_API const char *v3d_last_error(void);

/* Log messages of the library (warnings such as "no Vulkan device, using the CPU") go to this
 * callback; default: stderr for warnings and errors, nothing for debug. level: 0 error,
 * 1 warning, 2 info, 3 debug. May be called from any thread. NULL restores the default. */
typedef void (*V3dLogFunc)(int level, const char *message, void *user_data);
V3D_API void v3d_set_log_func(V3dLogFunc func, void *user_data);

/* ------------------------------------------------------------------------------------------ */
/* CPU SIMD targets                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Names of the SIMD targets compiled in and supported by this CPU, best first, always ending with
 * "scalar" (the references). E.g. "AVX3", "AVX2", "SSE4", "SSSE3", "NEON", "EMU128", "scalar".
 * Writes up to max pointers to static strings; returns how many there are. */
V3D_API int v3d_cpu_targets(const char **names, int max);
/* Makes every kernel table use the named target (as if the CPU had nothing better); NULL or ""
 * restores the best. Returns 0, or V3D_ERROR_UNAVAILABLE if this CPU lacks that target.
 * Not thread-safe: call it while no other thread runs kernels (tests, benchmarks). */
V3D_API int v3d_cpu_force_target(const char *name);
/* Name of the target the kernel tables use now. */
V3D_API const char *v3d_cpu_target(void);

/* ------------------------------------------------------------------------------------------ */
/* VP9 inverse transforms, one block                                                           */
/* ------------------------------------------------------------------------------------------ */

/* tx_size 0..3 = 4x4, 8x8, 16x16, 32x32. tx_type: 0 DCT_DCT, 1 ADST_DCT (ADST applied vertically,
 * on columns; DCT on rows), 2 DCT_ADST, 3 ADST_ADST, 4 WHT_WHT (4x4 only).
 * coeffs: n*n int16 in raster order, not modified. eob: 1 + scan position of the last non-zero
 * coefficient (0 = nothing to do; n*n is always valid); used only to skip provably-zero work: for
 * eob > 0 the result is the full inverse transform of coeffs, whatever eob says.
 * Adds the inverse transform into dst (clamped to 0..255). dst, stride and coeffs carry no
 * alignment promise. Reads coeffs[0..n*n), reads and writes dst rows 0..n-1, columns 0..n-1.
 * Invalid (tx_size, tx_type) pairs do nothing.
 *
 * Range: bit-exact with the VP9 specification (and libvpx) for coefficients a conformant stream
 * can carry. Every backend computes each step of the specification's butterflies in 32-bit
 * two's-complement wrapping arithmetic, so for any other input too the output is defined and
 * identical on every backend (scalar, SIMD, GPU). */
V3D_API void v3d_vp9_itxfm_add(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs, int tx_size,
                               int tx_type, int eob); /* best implementation for this CPU */
V3D_API void v3d_vp9_itxfm_add_ref(uint8_t *dst, ptrdiff_t stride, const int16_t *coeffs,
                                   int tx_size, int tx_type, int eob); /* scalar reference */

/* ------------------------------------------------------------------------------------------ */
/* VP9 loop filter, one edge                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* dir 0: vertical edge (pixels left and right of dst are filtered), 1: horizontal edge (rows
 * above and below). filter_width 4, 8 or 16; len 8 or 16 pixels along the edge; E, I, H: the
 * thresholds (libvpx's blimit, limit, thresh), clamped to 0..255 by every backend.
 * Same results as libvpx's vpx_lpf_{vertical,horizontal}_{4,8,16}[_dual] (one threshold set for
 * all len pixels). dst points at q0 of the first line (libvpx's s). Reads p3..q3 of each line
 * (p7..q7 when filter_width is 16), changes at most p2..q2 (p6..q6); a vertical edge may store
 * back the unchanged p3/q3 (p7/q7) with the values read, so no other thread may write them
 * meanwhile. dst and stride carry no alignment promise. Invalid dir/width/len or NULL dst: does
 * nothing. */
V3D_API void v3d_vp9_loop_filter_edge(uint8_t *dst, ptrdiff_t stride, int dir, int filter_width,
                                      int len, int E, int I, int H); /* best for this CPU */
V3D_API void v3d_vp9_loop_filter_edge_ref(uint8_t *dst, ptrdiff_t stride, int dir,
                                          int filter_width, int len, int E, int I,
                                          int H); /* scalar reference */

/* ------------------------------------------------------------------------------------------ */
/* H.264 deblocking, one edge (clause 8.7.2 of ITU-T H.264; FFmpeg h264dsp semantics)          */
/* ------------------------------------------------------------------------------------------ */

/* dir 0: vertical edge (p samples to the left of pix), 1: horizontal edge (p samples above).
   luma: 16 pixels along the edge, tc0[i] for pixels 4i..4i+3; chroma (4:2:0): 8 pixels, tc0[i] for pixels 2i..2i+1.
   tc0 is always the standard's tC0 (Table 8-17 value); tc0[i] < 0 leaves those pixels unchanged. The chroma filter
   uses tC = tC0 + 1 internally (FFmpeg's chroma function instead expects its caller to pass tC0 + 1: not so here).
   alpha = 0 or beta = 0 leaves every pixel unchanged. pix and stride carry no alignment promise (GStreamer strides are
   often only 4-byte aligned).
   Every backend clamps alpha and beta to 0..255 (so a negative one leaves every pixel unchanged); dir other than
   0/1, NULL pix or NULL tc0: does nothing. Luma reads p3..q3 and changes at most p2..q2 (a SIMD vertical edge may
   store back p3/q3 with the values read: no other thread may write them meanwhile); chroma reads p1..q1 and changes
   p0/q0. */
V3D_API void v3d_h264_loop_filter_luma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_luma_intra(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta);
V3D_API void v3d_h264_loop_filter_chroma(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_chroma_intra(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta);
/* The same four as scalar references. */
V3D_API void v3d_h264_loop_filter_luma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_luma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta);
V3D_API void v3d_h264_loop_filter_chroma_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta, const int8_t tc0[4]);
V3D_API void v3d_h264_loop_filter_chroma_intra_ref(uint8_t *pix, ptrdiff_t stride, int dir, int alpha, int beta);

/* ------------------------------------------------------------------------------------------ */
/* Contexts: CPU worker threads + an optional GPU                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct V3dContext V3dContext;

/* backend: "scalar", "simd", "gpu", "hybrid" or "auto"; cpu_threads 0 = default (the environment
 * variable V3D_CPU_THREADS when set to 1..1024, else online cores - 1 for "hybrid", "gpu", "simd"
 * and "scalar", online cores for "auto"; at least 1). "hybrid" splits every frame between its
 * workers and the GPU, falling back to one side alone while the split measures slower than that
 * side. "auto" measures, per kernel family and frame size, four ways of running a frame (all its
 * workers alone, the GPU alone, a split with all its workers + the GPU, and a split with one
 * worker fewer + the GPU, that worker's core left to the GPU's submissions) and runs the
 * fastest, retrying the others now and then. NULL when the
 * backend can't be had (e.g. "gpu" without a Vulkan device), with the reason logged and in
 * v3d_last_error(). "auto" and "hybrid" without a GPU fall back to "simd" with one warning. The environment variable V3D_VULKAN_DEVICE (index or name substring) picks
 * the Vulkan device; V3D_BACKEND overrides "auto". The caller owns the result (reference count 1). */
V3D_API V3dContext *v3d_context_new(const char *backend, int cpu_threads);

typedef struct {
  const char *backend;    /* as in v3d_context_new; NULL = "auto" */
  int cpu_threads;        /* 0 = default (as in v3d_context_new) */
  const char *gpu_device; /* an index ("1") or a name substring; NULL = V3D_VULKAN_DEVICE if
                             set, else a V3D device if present, else the first suitable one */
  double gpu_share;       /* hybrid: fixed fraction of each frame's work given to the GPU,
                             0..1; negative = default (adaptive) */
} V3dContextOptions;
V3D_API V3dContext *v3d_context_new_with_options(const V3dContextOptions *options);

/* Reference counting: v3d_context_ref returns ctx; v3d_context_free drops one reference and
 * frees the context (joins its threads, waits for its GPU work) with the last one. */
V3D_API V3dContext *v3d_context_ref(V3dContext *ctx);
V3D_API void v3d_context_free(V3dContext *ctx);

/* The backend in use after fallbacks ("scalar", "simd", "gpu", "hybrid"). Static string. */
V3D_API const char *v3d_context_backend(const V3dContext *ctx);
/* Name of the Vulkan device in use, or NULL when the context has no GPU. Owned by ctx. */
V3D_API const char *v3d_context_gpu_name(const V3dContext *ctx);
/* Number of CPU worker threads. */
V3D_API int v3d_context_cpu_threads(const V3dContext *ctx);
/* Hybrid: fix the fraction of each frame's work given to the GPU (0..1), or < 0 for adaptive. */
V3D_API void v3d_context_set_gpu_share(V3dContext *ctx, double share);

typedef struct {
  uint64_t frames;         /* frame-level calls that succeeded */
  uint64_t blocks_cpu;     /* blocks (or edges) done on CPU workers */
  uint64_t blocks_gpu;     /* blocks (or edges) done on the GPU */
  double cpu_seconds;      /* wall time the CPU side spent on its share, summed over frames */
  double gpu_seconds;      /* wall time from GPU submission to completion, summed over frames */
  double gpu_share;        /* fraction of the last frame's work given to the GPU */
  uint64_t copies;         /* plane copies made because a frame was not in shared memory */
  uint64_t gpu_submissions;/* queue submissions */
} V3dStats;
/* Cumulative statistics of the context. */
V3D_API void v3d_context_get_stats(const V3dContext *ctx, V3dStats *stats);

/* Per kernel family: what the scheduler did with it, for observability (element stats, logs). */
enum {
  V3D_KERNEL_VP9_ITX = 0,       /* v3d_vp9_itxfm_add_frame(s): units are transform blocks */
  V3D_KERNEL_VP9_LPF = 1,       /* v3d_vp9_loop_filter_frame: units are 8x8 luma blocks */
  V3D_KERNEL_H264_DEBLOCK = 2,  /* v3d_h264_deblock_frame: units are macroblocks */
  V3D_KERNEL_COUNT = 3
};
typedef struct {
  uint64_t frames;              /* frame-level calls that succeeded */
  uint64_t units_cpu;           /* units done by the CPU workers */
  uint64_t units_gpu;           /* units done by the GPU */
  double wall_seconds;          /* time inside the frame calls */
  double cpu_busy_seconds;      /* time the CPU side worked on its share */
  double gpu_busy_seconds;      /* time from GPU submission to completion */
  double cpu_idle_seconds;      /* frames where both sides worked: time the CPU side waited */
  double gpu_idle_seconds;      /* frames where both sides worked: time the GPU side was done
                                   before the CPU side */
  double cpu_units_per_second;  /* throughput of each side while busy (0 = never used) */
  double gpu_units_per_second;
  double gpu_share_last;        /* fraction of the last frame's work given to the GPU */
  double frame_ms_median;       /* distribution of the last (up to) 256 frame times, ms */
  double frame_ms_p99;
  uint32_t gpu_jobs_in_flight;  /* GPU queue depth now (jobs submitted, not yet completed) */
  uint32_t gpu_jobs_in_flight_max; /* the deepest it has been */
} V3dKernelStats;
/* Statistics of one kernel family (V3D_KERNEL_*) of the context. Returns 0, or
 * V3D_ERROR_INVALID_ARGUMENT for a NULL pointer or unknown family. Thread-safe. */
V3D_API int v3d_context_get_kernel_stats(const V3dContext *ctx, int kernel, V3dKernelStats *stats);

/* Memory the CPU workers and the context's GPU share without copies (Vulkan host-visible memory;
 * plain 64-byte aligned memory when the context has no GPU). 64-byte aligned. Frames whose planes
 * lie in such memory go to the GPU without copies; others are copied. The allocation keeps what
 * it needs alive: it may be freed after the context. Returns NULL on failure. Thread-safe.
 * Where the GPU's host-visible memory is not cached by the CPU (v3dv on the Raspberry Pi: CPU
 * reads of it are uncached), the memory is plain by default, so the CPU kernels (and a decoder
 * writing into it) run at full speed while the GPU's share of each frame is copied for it; the
 * environment variable V3D_SHARED_MEMORY=gpu shares the GPU's memory anyway, =plain never. */
V3D_API void *v3d_shared_alloc(V3dContext *ctx, size_t size);
V3D_API void v3d_shared_free(void *ptr);
/* 1 when ptr (as returned by v3d_shared_alloc) is the GPU's memory, which the GPU reaches without
 * copies; 0 for plain memory or any other pointer. Thread-safe. */
V3D_API int v3d_shared_is_gpu(const void *ptr);
/* 1 when v3d_shared_alloc(ctx, ...) hands out the GPU's memory (the context has a usable GPU and
 * V3D_SHARED_MEMORY lets it share the GPU's memory), 0 when plain memory. Thread-safe. */
V3D_API int v3d_context_shares_gpu_memory(const V3dContext *ctx);

/* ------------------------------------------------------------------------------------------ */
/* VP9 inverse transforms, one frame                                                           */
/* ------------------------------------------------------------------------------------------ */

/* One frame's transform blocks. x, y: pixel position of the block's top-left corner in its plane
 * (0 = Y, 1 = U, 2 = V, 4:2:0); coeff_offset: index in coeffs of the block's first coefficient
 * (n*n consecutive values, raster order). */
typedef struct {
  uint16_t x, y;
  uint8_t plane, tx_size, tx_type, reserved;
  uint32_t eob;
  uint32_t coeff_offset;
} V3dVp9TxBlock;

/* width, height: luma size. As in a decoder, the planes hold the frame rounded up to whole 8x8
 * luma blocks (luma 8*ceil(width/8) x 8*ceil(height/8), each chroma plane half that in each
 * direction); nothing outside that area is read or written, and blocks reaching past it are
 * clipped to it. Returns 0, or a negative error code for invalid input (overlapping blocks of one
 * plane, a block starting outside its plane, plane > 2, an invalid (tx_size, tx_type) pair,
 * eob > n*n, coefficients past n_coeffs, NULL pointers), in which case the frame is left
 * untouched. Blocks with eob 0 are validated but not applied. Blocks may come in any order (they
 * do not overlap, so order does not matter). Blocks until the frame is done. Thread-safe; calls on
 * one context are serialized. */
V3D_API int v3d_vp9_itxfm_add_frame(V3dContext *ctx, uint8_t *const planes[3],
                                    const ptrdiff_t strides[3], int width, int height,
                                    const V3dVp9TxBlock *blocks, size_t n_blocks,
                                    const int16_t *coeffs, size_t n_coeffs);

/* Several frames in one call: one frame of v3d_vp9_itxfm_add_frame each. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dVp9TxBlock *blocks;
  size_t n_blocks;
  const int16_t *coeffs;
  size_t n_coeffs;
} V3dVp9ItxFrame;

/* Applies n_frames frames, as n_frames calls of v3d_vp9_itxfm_add_frame would, but with up to 16
 * frames in flight on the GPU at once (one submission each), so the GPU's per-submission cost
 * overlaps. The frames must not share pixels. Every frame is validated before any is touched:
 * on invalid input returns its error code (v3d_last_error() names the frame and block) and no
 * frame is modified. Blocks until all are done. */
V3D_API int v3d_vp9_itxfm_add_frames(V3dContext *ctx, const V3dVp9ItxFrame *frames,
                                     size_t n_frames);

/* Checks a frame's blocks as v3d_vp9_itxfm_add_frame does, without touching any frame.
 * Returns 0 or the error code, with v3d_last_error() naming the first offending block. */
V3D_API int v3d_vp9_itxfm_validate(int width, int height, const V3dVp9TxBlock *blocks,
                                   size_t n_blocks, size_t n_coeffs);

/* ------------------------------------------------------------------------------------------ */
/* VP9 loop filter, one frame                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* One entry per 8x8 luma block (libvpx's "mi" unit). */
typedef struct {
  uint8_t filter_level;  /* 0..63; 0 = this block is not filtered */
  uint8_t block_size;    /* libvpx BLOCK_SIZE: 0 = 4X4, 1 = 4X8, 2 = 8X4, 3 = 8X8, ... 12 = 64X64 */
  uint8_t tx_size;       /* luma: 0 = 4X4 ... 3 = 32X32 */
  uint8_t skip_inter;    /* 1 if the block is inter-predicted and has no residual */
} V3dVp9LfInfo;

/* Applies the VP9 loop filter to a decoded 4:2:0 frame in place, bit-exact with libvpx's decoder
 * (64x64 superblocks in raster order; in each, per plane, the vertical edges then the horizontal
 * ones). grid: (height+7)/8 rows of grid_stride entries, (width+7)/8 used per row; the entries a
 * block covers carry that block's values (VP9 blocks are aligned to their size). filter_level is
 * what libvpx's get_filter_level returns (segment, reference and mode deltas applied; a frame
 * whose frame-level filter level is 0 is not filtered at all: do not call). skip_inter is
 * libvpx's mi->skip && is_inter_block(mi) after decoding (the decoder sets skip for blocks of
 * 8x8 and larger without coefficients; sub-8x8 blocks keep the bitstream's flag).
 * width, height: luma size. As in libvpx's decoder, the planes hold the frame rounded up to whole
 * 8x8 luma blocks (luma 8*ceil(width/8) x 8*ceil(height/8), chroma half that) and the process
 * works in whole 8x8 blocks: samples between the visible edge and that rounded-up edge are read
 * and may be written; nothing outside that area is touched. Returns 0, or a negative error code
 * for invalid input (sharpness outside 0..7, filter_level > 63, block_size > 12, a transform
 * larger than its block, a grid that is not a VP9 partition, grid_stride < (width+7)/8, a zero
 * size, NULL pointers, a stride below its plane's width), with the frame untouched and
 * v3d_last_error() naming the offending block. Blocks until the frame is done. Thread-safe; calls
 * on one context are serialized. Backends, all with the same result: "scalar" runs the scalar
 * references in sequence; "simd" the SIMD kernels on the context's CPU threads (a wavefront over
 * superblock rows); "gpu" a Vulkan compute job (one submission; superblocks in wavefront steps,
 * docs/architecture.md); "hybrid" gives the GPU some planes of the frame (chroma, luma or all,
 * chosen from measured throughput, never slower on average than the faster side alone) and
 * filters the others on the CPU meanwhile; "auto" runs the SIMD wavefront (on the Pi 5 the GPU
 * filters edges at a fraction of one NEON core's rate). Planes not in shared memory
 * (v3d_shared_alloc) are copied for the GPU (V3dStats.copies). If the GPU fails, the frame runs
 * on the CPU with a warning, except when the GPU had been writing it in place: then
 * V3D_ERROR_GPU (the frame may be partly filtered). */
V3D_API int v3d_vp9_loop_filter_frame(V3dContext *ctx, uint8_t *const planes[3],
                                      const ptrdiff_t strides[3], int width, int height,
                                      const V3dVp9LfInfo *grid, int grid_stride, int sharpness);

/* Copy and filter: the same result in planes as copying src's processed area (the frame rounded
 * up to whole 8x8 luma blocks, as above; src_strides[p] >= that width) into planes and then
 * calling v3d_vp9_loop_filter_frame on planes, but each superblock row is copied just before it
 * is filtered, while it stays in cache (a filter after a decoder that keeps its reference frames
 * must not write into them). src is only read; src and planes must not overlap. Same errors, and
 * NULL or short source planes refused, with nothing written. */
V3D_API int v3d_vp9_loop_filter_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                           const ptrdiff_t src_strides[3],
                                           uint8_t *const planes[3], const ptrdiff_t strides[3],
                                           int width, int height, const V3dVp9LfInfo *grid,
                                           int grid_stride, int sharpness);

/* Several frames in one call: one frame of v3d_vp9_loop_filter_frame each. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dVp9LfInfo *grid;
  int grid_stride;
  int sharpness;
} V3dVp9LfFrame;

/* Applies n_frames frames, as n_frames calls of v3d_vp9_loop_filter_frame would. On the GPU one
 * job covers up to 16 frames: one submission, and one dispatch per wavefront step serves the
 * superblocks of every frame of the job (frames whose planes lie in more than 6 distinct shared
 * allocations take one more dispatch per step per 6 allocations). Hybrid gives the GPU, in
 * proportion to the two sides' measured throughputs, the first frames and the planes nearest to
 * the rest of its share of the next frame (chroma or luma; the CPU filters that frame's other
 * planes), and nothing when the CPU time that share would save does not exceed the measured time
 * of preparing it (which the CPU waits for). On the CPU the frames' wavefronts run in one loop of the workers, so threads that one
 * frame's wavefront cannot keep busy work on the next. The frames must not share pixels. Every
 * frame is validated before any is touched: on invalid input returns its error code
 * (v3d_last_error() names the frame and block) and no frame is modified. Blocks until all are
 * done. n_frames 0 does nothing. */
V3D_API int v3d_vp9_loop_filter_frames(V3dContext *ctx, const V3dVp9LfFrame *frames,
                                       size_t n_frames);

/* ------------------------------------------------------------------------------------------ */
/* H.264 deblocking, one picture (clause 8.7 of ITU-T H.264)                                   */
/* ------------------------------------------------------------------------------------------ */

/* One macroblock's deblocking input. Frame macroblocks only (no MBAFF; a field picture is
 * deblocked as a picture of its own, each field's planes addressed with twice the stride). */
typedef struct {
  uint8_t qp;            /* QP_Y of the macroblock, 0..51 (0 for I_PCM macroblocks) */
  uint8_t transform_8x8; /* transform_size_8x8_flag: luma internal edges only at 8 (edges 1, 3
                            of each direction are not filtered); chroma (4:2:0) unaffected */
  uint16_t slice;        /* index into the picture's slices array */
  /* bS (0..4) of each 4-sample segment of the macroblock's luma edges: bs[dir][edge][segment].
   * dir 0: vertical edges, edge e at x = 4e (e = 0: the left macroblock edge), segment s = rows
   * 4s..4s+3; dir 1: horizontal edges, edge e at y = 4e (0: the top edge), segment s = columns
   * 4s..4s+3. Chroma (4:2:0) edges use the bS of luma edges 0 and 2, chroma sample i along the
   * edge that of luma segment i/2 (the standard's rule). bS of edges on the picture's border,
   * of internal edges 1 and 3 when transform_8x8, and of macroblocks in a slice with
   * disable_deblocking_filter_idc 1 are ignored. */
  uint8_t bs[2][4][4];
} V3dH264MbInfo;

/* Per slice: what the slice header (and its picture parameter set) says. The values of the slice
 * holding macroblock q (the current one) apply to each edge, as in the standard. */
typedef struct {
  int8_t disable_deblocking_filter_idc; /* 0, 1 (not filtered), 2 (no filtering across slice
                                           boundaries) */
  int8_t filter_offset_a;               /* FilterOffsetA = slice_alpha_c0_offset_div2 * 2, -12..12 */
  int8_t filter_offset_b;               /* FilterOffsetB = slice_beta_offset_div2 * 2, -12..12 */
  int8_t chroma_qp_index_offset;        /* Cb, -12..12 */
  int8_t second_chroma_qp_index_offset; /* Cr, -12..12 (= chroma_qp_index_offset when the PPS
                                           has none) */
  int8_t reserved[3];
} V3dH264SliceInfo;

/* Deblocks one decoded 4:2:0 8-bit picture in place, bit-exact with the standard's sequential
 * process (macroblocks in raster order; in each, luma vertical edges left to right, then
 * horizontal edges top to bottom, then chroma likewise).
 * planes: Y, Cb, Cr; width, height: luma size in pixels, any size >= 1 (chroma (width+1)/2 x
 * (height+1)/2). mbs: ceil(height/16) rows of mb_stride entries, ceil(width/16) used per row.
 * For pictures whose size is not a multiple of 16 (post-filter use), only samples inside the
 * picture are read or written: an edge segment is filtered on the lines along it that lie inside
 * the picture, and only where every sample the filter reads across it (4 each side for luma,
 * 2 for chroma) lies inside too. Returns 0, or a negative error code for invalid input (qp > 51,
 * bS > 4, slice >= n_slices, idc > 2, offsets outside -12..12 or odd filter offsets,
 * mb_stride < ceil(width/16), a stride below its plane's width, a zero size, NULL pointers),
 * with the picture untouched and v3d_last_error() naming the offending macroblock or slice.
 * Blocks until the picture is done. Thread-safe; calls on one context are serialized. */
V3D_API int v3d_h264_deblock_frame(V3dContext *ctx, uint8_t *const planes[3],
                                   const ptrdiff_t strides[3], int width, int height,
                                   const V3dH264MbInfo *mbs, int mb_stride,
                                   const V3dH264SliceInfo *slices, int n_slices);

/* Copy and deblock: the same result in planes as copying src's picture (width x height luma,
 * (width+1)/2 x (height+1)/2 chroma; src_strides[p] >= those widths) into planes and then
 * calling v3d_h264_deblock_frame on planes, but each macroblock row is copied just before it is
 * deblocked, while it stays in cache (a filter after a decoder that keeps its reference frames
 * must not write into them). src is only read; src and planes must not overlap. Runs on the CPU
 * workers on every backend. Same errors, and NULL or short source planes refused, with nothing
 * written. */
V3D_API int v3d_h264_deblock_frame_from(V3dContext *ctx, const uint8_t *const src[3],
                                        const ptrdiff_t src_strides[3], uint8_t *const planes[3],
                                        const ptrdiff_t strides[3], int width, int height,
                                        const V3dH264MbInfo *mbs, int mb_stride,
                                        const V3dH264SliceInfo *slices, int n_slices);
/* Several pictures in one call: one picture of v3d_h264_deblock_frame each. */
typedef struct {
  uint8_t *planes[3];
  ptrdiff_t strides[3];
  int width, height;
  const V3dH264MbInfo *mbs;
  int mb_stride;
  const V3dH264SliceInfo *slices;
  int n_slices;
} V3dH264Frame;

/* Deblocks n_frames pictures, as n_frames calls of v3d_h264_deblock_frame would (the pictures
 * must not share samples). Every picture is checked before any is touched: on invalid input
 * returns its error code, v3d_last_error() naming the picture ("frame i: ...") and its offending
 * macroblock or slice, and no picture is modified. On the CPU ("simd", and the CPU's pictures of
 * "hybrid" and "auto") the pictures' wavefronts run in one loop of the workers, so threads that
 * one picture's wavefront leaves waiting work on the next; "scalar" runs the references picture
 * after picture. "gpu" deblocks each picture on the GPU in turn. "hybrid" and "auto" give the GPU
 * whole pictures, the first ones, in proportion to both sides' measured throughputs (rounded
 * down: a GPU much slower than the workers gets none; one picture while either side is
 * unmeasured), deblocked one after another by a thread of their own while the workers run the
 * others; a picture the GPU could not deblock is deblocked on the CPU (one warning per context),
 * with the same result. n_frames 0 does nothing. Blocks until all are done. */
V3D_API int v3d_h264_deblock_frames(V3dContext *ctx, const V3dH264Frame *frames, size_t n_frames);

/* Backends of v3d_h264_deblock_frame: "scalar" runs the scalar references in sequence; "simd",
 * "gpu", "hybrid" and "auto" run the SIMD kernels on the context's CPU threads (a wavefront over
 * macroblock rows, same result); the GPU is not used by this entry point yet. */
/* Addition (GPU H.264 deblocking), superseding the last clause above for both entry points:
 * "gpu" runs all three planes on the GPU (one submission per picture, a wavefront of
 * macroblocks, same result); "hybrid" runs Cb and Cr on the GPU while the CPU wavefront does luma
 * (same result), and gives the GPU nothing once measured rates say it would finish chroma later
 * than the CPU alone finishes the picture (a fixed v3d_context_set_gpu_share below 1/6 also
 * gives it nothing); "auto" stays on the CPU. Without a usable GPU, or when a GPU job fails, the
 * planes are deblocked on the CPU with one warning per context; the output is the same. The
 * statistics count macroblocks weighted by plane (luma 4/6, each chroma plane 1/6). */

#ifdef __cplusplus
}
#endif

#endif /* V3D_V3D_H */
