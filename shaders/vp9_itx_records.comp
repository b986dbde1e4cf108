// SPDX-License-Identifier: LGPL-2.1-or-later
// Builds the VP9 transform job's block records on the GPU, so the host does no per-block work
// for them: one invocation per entry of the job's block list (V3dVp9TxBlock, 16 bytes), which
// writes the block's record (vp9_itx_layout.h) at the next free place of its (size, type)
// bucket. The host gives each bucket's first place (base[]) from its counts and zeroes fill[];
// places within a bucket are taken in whatever order the invocations arrive, which changes
// nothing in the result (a job's blocks never overlap). Blocks with eob 0 get no record.
#version 450
#extension GL_GOOGLE_include_directive : require

#define V3D_ITX_RECORDS 1
#include "vp9_itx_layout.h"

layout(local_size_x = V3D_ITX_RECORDS_GROUP) in;

layout(std430, set = 0, binding = V3D_ITX_BINDING_BLOCKS) writeonly buffer Blocks { uvec4 rec[]; } blocks;
layout(std430, set = 0, binding = V3D_ITX_BINDING_LIST) readonly buffer List { uvec4 b[]; } list;
layout(std430, set = 0, binding = V3D_ITX_BINDING_BUCKETS) buffer Buckets {
  uint base[V3D_ITX_NUM_BUCKETS];
  uint fill[V3D_ITX_NUM_BUCKETS];
} buckets;

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.block_count) return;  // no barrier in this shader
  // V3dVp9TxBlock: uint16 x, y | uint8 plane, tx_size, tx_type, reserved | uint32 eob |
  // uint32 coeff_offset (little-endian).
  const uvec4 b = list.b[pc.block_first + i];
  if (b.z == 0u) return;  // eob 0: nothing to add
  const uint x = b.x & 0xFFFFu, y = b.x >> 16;
  const uint plane = b.y & 0xFFu, tx_size = (b.y >> 8) & 0xFFu, tx_type = (b.y >> 16) & 0xFFu;
  const uint n = 4u << tx_size;
  const uint w = min(n, pc.plane_width[plane] - x), h = min(n, pc.plane_height[plane] - y);
  const uint bucket = tx_size * 5u + tx_type;
  const uint at = buckets.base[bucket] + atomicAdd(buckets.fill[bucket], 1u);
  blocks.rec[at] = uvec4(b.w + pc.coeff_add, pc.plane_base[plane] + y * pc.plane_stride[plane] + x,
                         V3D_ITX_REC_PACK(plane, tx_type, w, h), pc.plane_stride[plane]);
}
