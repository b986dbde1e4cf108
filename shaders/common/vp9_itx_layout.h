/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interface between shaders/vp9_itx.comp and its C++ host (kernels/vulkan/vp9_itx_job.cpp):
 * binding numbers, push constants, the block record and the workgroup shape. Included by both
 * (GLSL sees GL_core_profile defined), so a mismatch cannot arise silently.
 */
#ifndef V3D_VP9_ITX_LAYOUT_H
#define V3D_VP9_ITX_LAYOUT_H

/* Descriptor set 0, all storage buffers (5 of V3D's 8 per stage). */
#define V3D_ITX_BINDING_PLANE0 0 /* uint8_t pixels of plane 0 (Y) */
#define V3D_ITX_BINDING_PLANE1 1 /* plane 1 (U) */
#define V3D_ITX_BINDING_PLANE2 2 /* plane 2 (V) */
#define V3D_ITX_BINDING_COEFFS 3 /* int16 coefficients (int16_t[] or pairs in uint[]) */
#define V3D_ITX_BINDING_BLOCKS 4 /* block records, uvec4 each (below) */
#define V3D_ITX_NUM_BINDINGS 5

/*
 * Block record, 4 x uint32:
 *   [0] index of the block's first coefficient (int16 units) in the coefficient buffer
 *   [1] byte offset of the block's top-left pixel in its plane's buffer
 *   [2] plane (bits 0-1) | tx_type (bits 2-4) | (clipped width - 1) << 8 | (clipped height - 1) << 16
 *   [3] row stride of the plane in bytes
 */
#define V3D_ITX_REC_PLANE(w) ((w) & 3u)
#define V3D_ITX_REC_TYPE(w) (((w) >> 2) & 7u)
#define V3D_ITX_REC_WIDTH(w) ((((w) >> 8) & 63u) + 1u)
#define V3D_ITX_REC_HEIGHT(w) ((((w) >> 16) & 63u) + 1u)
#define V3D_ITX_REC_PACK(plane, type, w, h) \
  ((plane) | ((type) << 2) | (((w) - 1u) << 8) | (((h) - 1u) << 16))

/*
 * Workgroup shape per transform size (log2 of n: 2..5). One lane per row (first pass), then per
 * column (second pass) of a block; invocations / n blocks per workgroup. 256 invocations (V3D's
 * maximum) except for 32x32, where the 16 KiB shared-memory limit (n * n int32 per block) allows
 * only 4 blocks: 128 invocations.
 */
#define V3D_ITX_INVOCATIONS(log2n) ((log2n) == 5 ? 128 : 256)
#define V3D_ITX_BLOCKS_PER_GROUP(log2n) (V3D_ITX_INVOCATIONS(log2n) >> (log2n))

#ifdef GL_core_profile
layout(push_constant) uniform V3dItxPush {
  uint block_first; /* first record of this dispatch in the block buffer */
  uint block_count; /* records in this dispatch */
} pc;
#else
#include <stdint.h>
typedef struct {
  uint32_t block_first;
  uint32_t block_count;
} V3dItxPush;
#endif

#endif /* V3D_VP9_ITX_LAYOUT_H */
