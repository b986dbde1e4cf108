/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/v3d.h: the public C API of v3dkernels, decoder kernels on SIMD CPU threads and on the GPU
 * through Vulkan compute; no GStreamer dependency. This umbrella header includes every part:
 *
 *   v3d/common.h        export macro, error codes and messages, the log callback
 *   v3d/cpu.h           the CPU's SIMD targets
 *   v3d/context.h       contexts (settings, open/close, references), statistics, shared memory
 *   v3d/vp9_itx.h       VP9 inverse transforms
 *   v3d/vp9_lpf.h       VP9 loop filter
 *   v3d/h264_deblock.h  H.264 deblocking
 *   v3d/vp9_decoder.h   the VP9 decoder (data in, pictures out)
 *
 * Each part may also be included on its own. docs/api.md has the error codes per entry point,
 * the environment variables and how the backends divide work.
 *
 * Naming:
 *   - Everything public starts with v3d_ (functions), V3d (types) or V3D_ (constants).
 *   - A kernel family is <codec>_<family>: vp9_itx, vp9_lpf, h264_deblock.
 *   - Frame-level calls, on a context: v3d_<codec>_<family>_frame (one frame), _frames (a batch
 *     of V3d<Codec><Family>Frame: V3dVp9ItxFrame, V3dVp9LpfFrame, V3dH264DeblockFrame) and,
 *     where a family offers it, _frame_from (copy and process) and _validate (check only).
 *   - One-unit kernels, without a context, keep the DSP names of libvpx and FFmpeg that they
 *     match (v3d_vp9_itxfm_add, v3d_vp9_loop_filter_edge, v3d_h264_loop_filter_luma, ...); a
 *     _ref suffix names the scalar reference of a kernel.
 *   - Contexts: v3d_default_settings, v3d_open and v3d_close; v3d_context_<what> for the rest.
 *   - Older names stay as aliases with the same behaviour: v3d_vp9_itxfm_add_frame(s) and
 *     v3d_vp9_itxfm_validate, v3d_vp9_loop_filter_frame(s) and _frame_from, V3dVp9LfFrame,
 *     V3dVp9LfInfo, V3dH264Frame, v3d_context_new(_with_options) and v3d_context_free (=
 *     v3d_context_unref).
 *
 * Unless its comment says otherwise, a function may be called from several threads at once;
 * frame-level calls block until their work is done and keep no pointer they were given.
 */
#ifndef V3D_V3D_H
#define V3D_V3D_H

#include "v3d/common.h"
#include "v3d/cpu.h"
#include "v3d/context.h"
#include "v3d/vp9_itx.h"
#include "v3d/vp9_lpf.h"
#include "v3d/h264_deblock.h"
#include "v3d/vp9_decoder.h"

#endif /* V3D_V3D_H */
