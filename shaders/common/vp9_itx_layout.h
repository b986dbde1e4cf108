/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interface between shaders/vp9_itx.comp and its C++ host (kernels/vulkan/vp9_itx_job.cpp):
 * binding numbers, push constants, the block record and the workgroup shape. Included by both
 * (GLSL sees GL_core_profile defined), so a mismatch cannot arise silently.
 */
#ifndef V3D_VP9_ITX_LAYOUT_H
#define V3D_VP9_ITX_LAYOUT_H

/*
 * Descriptor set 0, all storage buffers (7 of V3D's 8 per stage), shared by the transform shader
 * (vp9_itx.comp: bindings 0-4) and the record builder (vp9_itx_records.comp: 4-6), which runs
 * first in the same command buffer and turns the job's block list into the block records,
 * bucketed by (size, type).
 */
#define V3D_ITX_BINDING_PLANE0 0 /* uint8_t pixels of plane 0 (Y) */
#define V3D_ITX_BINDING_PLANE1 1 /* plane 1 (U) */
#define V3D_ITX_BINDING_PLANE2 2 /* plane 2 (V) */
#define V3D_ITX_BINDING_COEFFS 3 /* int16 coefficients (int16_t[] or pairs in uint[]) */
#define V3D_ITX_BINDING_BLOCKS 4 /* block records, uvec4 each (below) */
#define V3D_ITX_BINDING_LIST 5   /* the job's blocks: V3dVp9TxBlock (16 bytes) as uvec4 each */
#define V3D_ITX_BINDING_BUCKETS 6 /* uint base[20], then uint fill[20] (atomic counters) */
#define V3D_ITX_NUM_BINDINGS 7
/* Buckets: (tx_size, tx_type) -> tx_size * 5 + tx_type. */
#define V3D_ITX_NUM_BUCKETS 20
/* Invocations per workgroup of the record builder (one block each). */
#define V3D_ITX_RECORDS_GROUP 64

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

/*
 * Push constants. The transform shader reads V3dItxPush; the record builder V3dItxRecordsPush,
 * which starts with the same two words (first list entry and count of its dispatch) and adds the
 * frame's geometry: where each plane's pixel (0, 0) lies in its binding, its row stride and its
 * processed width and height (blocks reaching past them are clipped), and what to add to a
 * block's coeff_offset to get its first coefficient in the coefficient binding.
 */
#ifdef GL_core_profile
#ifdef V3D_ITX_RECORDS
layout(push_constant) uniform V3dItxRecordsPush {
  uint block_first;
  uint block_count;
  uint coeff_add;
  uint plane_base[3];
  uint plane_stride[3];
  uint plane_width[3];
  uint plane_height[3];
} pc;
#else
layout(push_constant) uniform V3dItxPush {
  uint block_first; /* first record of this dispatch in the block buffer */
  uint block_count; /* records in this dispatch */
} pc;
#endif
#else
#include <stdint.h>
typedef struct {
  uint32_t block_first;
  uint32_t block_count;
} V3dItxPush;
typedef struct {
  uint32_t block_first;
  uint32_t block_count;
  uint32_t coeff_add;
  uint32_t plane_base[3];
  uint32_t plane_stride[3];
  uint32_t plane_width[3];
  uint32_t plane_height[3];
} V3dItxRecordsPush;
#endif

#endif /* V3D_VP9_ITX_LAYOUT_H */
