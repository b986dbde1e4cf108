/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/common.h: what every part of the v3dkernels API shares: the export macro, the error codes
 * and their descriptions, the calling thread's last error message, and the log callback.
 * Included by every other v3d/ header; needs nothing but <stddef.h> and <stdint.h>.
 */
#ifndef V3D_COMMON_H
#define V3D_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef V3D_API
#if defined(_WIN32)
#define V3D_API __declspec(dllexport)
#else
#define V3D_API __attribute__((visibility("default")))
#endif
#endif

/* ------------------------------------------------------------------------------------------ */
/* Error codes                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Functions that return int return V3D_OK (0) on success and one of these negative codes on
 * failure; a code means the same in every family. A failing call leaves its output untouched
 * unless its comment says otherwise, and sets the calling thread's message
 * (v3d_last_error()), which names the offending frame, block, grid entry, macroblock or slice.
 * Which entry point returns which codes: each entry point's comment, and docs/api.md.
 *
 * The call itself:
 *   V3D_ERROR_INVALID_ARGUMENT   an argument of the call: NULL pointer, zero or negative size,
 *                                a stride below its plane's width, a count that does not match
 *                                its array, an unknown kernel family.
 *   V3D_ERROR_INVALID_SETTINGS   a field of V3dSettings outside its range (v3d_open).
 * The units a frame-level call describes (transform blocks, loop-filter grid entries,
 * macroblocks, slices):
 *   V3D_ERROR_BAD_PLANE          a unit names a plane that does not exist (> 2).
 *   V3D_ERROR_BLOCK_OUTSIDE      a unit starts outside its plane.
 *   V3D_ERROR_BLOCK_OVERLAP      two units of one plane cover the same pixel.
 *   V3D_ERROR_BAD_TRANSFORM      a transform size or type that is invalid, or too large for its
 *                                block.
 *   V3D_ERROR_BAD_EOB            an end-of-block position past the block's coefficients.
 *   V3D_ERROR_COEFFS_OUT_OF_RANGE  a block's coefficients run past the end of the array.
 *   V3D_ERROR_INVALID_DATA       a value of a unit outside the range its standard allows (a
 *                                filter level, block size, QP, bS, slice index, slice offset).
 *   V3D_ERROR_BAD_PARTITION      the units do not tile the frame as the codec requires (a loop
 *                                filter grid that is not a VP9 partition).
 * Compressed data (the VP9 decoder):
 *   V3D_ERROR_INVALID_DATA       corrupt or truncated data (the message names the frame).
 *   V3D_ERROR_UNSUPPORTED        valid data using what the decoder does not decode (a profile or
 *                                bit depth other than 8-bit 4:2:0; the message names it).
 *   V3D_ERROR_AGAIN              nothing to do now: drain the output first, or no output waits.
 * The machine:
 *   V3D_ERROR_NO_MEMORY          memory, or a thread, could not be allocated.
 *   V3D_ERROR_GPU                the GPU failed while it was writing the caller's memory in
 *                                place (the output may be partly processed).
 *   V3D_ERROR_UNAVAILABLE        the backend, device or SIMD target asked for can't be had.
 */
enum {
  V3D_OK = 0,
  V3D_ERROR_INVALID_ARGUMENT = -1,
  V3D_ERROR_BAD_PLANE = -2,
  V3D_ERROR_BLOCK_OUTSIDE = -3,
  V3D_ERROR_BLOCK_OVERLAP = -4,
  V3D_ERROR_BAD_TRANSFORM = -5,
  V3D_ERROR_BAD_EOB = -6,
  V3D_ERROR_COEFFS_OUT_OF_RANGE = -7,
  V3D_ERROR_NO_MEMORY = -8,
  V3D_ERROR_GPU = -9,
  V3D_ERROR_UNAVAILABLE = -10,
  V3D_ERROR_INVALID_DATA = -11,
  V3D_ERROR_BAD_PARTITION = -12,
  V3D_ERROR_INVALID_SETTINGS = -13,
  V3D_ERROR_UNSUPPORTED = -14,
  V3D_ERROR_AGAIN = -15,
};

/* Returns a static English description of code ("overlapping blocks", ...); "unknown error" for
 * a value that is not a code. Never NULL. Does not block; thread-safe. */
V3D_API const char *v3d_error_name(int code);

/* Returns the message of the calling thread's last failure (e.g. "block 17 (plane 0, x 64, y 32,
 * 8x8) overlaps block 3"), or "" when there was none. Frame-level calls and context creation
 * clear it when they begin, so after one of them succeeds it is "". The string belongs to the
 * library and stays valid until the thread's next call into the library. Does not block;
 * thread-safe (each thread has its own message). */
V3D_API const char *v3d_last_error(void);

/* ------------------------------------------------------------------------------------------ */
/* Log messages                                                                                */
/* ------------------------------------------------------------------------------------------ */

/* level: 0 error, 1 warning, 2 info, 3 debug. message: one line without a newline, valid only
 * during the call. Called from whichever thread logs (the caller's or a worker), possibly from
 * several at once: it must be thread-safe, must not block for long, and must not call back into
 * the library. */
typedef void (*V3dLogFunc)(int level, const char *message, void *user_data);

/* Sends every later message of the library, of every level, to func (with user_data); NULL
 * restores the default, which writes errors and warnings to stderr (the environment variable
 * V3D_DEBUG raises that level: docs/api.md). Messages already being delivered may still reach
 * the previous function. Does not block; thread-safe. */
V3D_API void v3d_set_log_func(V3dLogFunc func, void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* V3D_COMMON_H */
