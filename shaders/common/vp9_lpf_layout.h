/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The interface between shaders/vp9_lpf.comp and its C++ host (kernels/vulkan/vp9_lpf_job.cpp,
 * kernels/vp9/lpf_gpu.cpp): binding numbers, push constants, the frame table, the superblock
 * record and its cell words, the workgroup shape. Included by both (GLSL sees GL_core_profile
 * defined), so a mismatch cannot arise silently.
 */
#ifndef V3D_VP9_LPF_LAYOUT_H
#define V3D_VP9_LPF_LAYOUT_H

/* Descriptor set 0, all storage buffers (7 of V3D's 8 per stage): V3D_LPF_NUM_WINDOWS "memory
 * windows" (uint8_t pixels: a shared allocation bound in place, or the job's staging buffer) and
 * the record buffer (uint words: frame table, then superblock records). */
#define V3D_LPF_NUM_WINDOWS 6
#define V3D_LPF_BINDING_RECORDS 6
#define V3D_LPF_NUM_BINDINGS 7

/* One workgroup filters one 64x64 superblock, all three planes: invocation i < 64 owns luma row
 * (vertical pass) then luma column (horizontal pass) i of the superblock, 64..95 those of U,
 * 96..127 those of V. Nothing depends on the subgroup size. */
#define V3D_LPF_INVOCATIONS 128

/*
 * Frame table, V3D_LPF_FRAME_WORDS uint per frame of the job, at word 0 of the record buffer:
 *   [4p + 0] window (binding) of plane p       [4p + 1] byte offset of its pixel (0, 0) there
 *   [4p + 2] row stride in bytes               [4p + 3] width | height << 16 (processed area)
 *   [12] planes to filter (bit p = plane p)    [13] sharpness (0..7)
 */
#define V3D_LPF_FRAME_WORDS 16
#define V3D_LPF_FT_PLANE_MASK 12
#define V3D_LPF_FT_SHARPNESS 13

/*
 * Superblock record, V3D_LPF_SB_WORDS uint: [0] frame index in the job, [1] sb_col | sb_row << 16,
 * [2], [3] zero, then V3D_LPF_CELLS cell words: 64 luma cells (8x8 pixels, raster order in the
 * superblock), then 16 chroma cells (8x8 chroma pixels, shared by U and V).
 * Cell word: what filters the cell's left edge (vertical) and top edge (horizontal) and its
 * internal 4x4 edges (4 pixels right of / below those), everything already decided on the CPU
 * (masks, picture edges, libvpx's pairings):
 *   bits 0-1 vertical edge width code (0 none, 1: 4, 2: 8, 3: 16), bits 2-7 its level;
 *   bits 8-9 horizontal edge width code, bits 10-15 its level;
 *   bits 16-21 the level of the internal edges; bit 22 internal vertical edge; bit 23 internal
 *   horizontal edge (both 4-wide).
 */
#define V3D_LPF_CELLS 80
#define V3D_LPF_SB_HEADER 4
#define V3D_LPF_SB_WORDS (V3D_LPF_SB_HEADER + V3D_LPF_CELLS)
#define V3D_LPF_CELL_V(code, level) ((code) | ((level) << 2))
#define V3D_LPF_CELL_H(code, level) (((code) | ((level) << 2)) << 8)
#define V3D_LPF_CELL_INT(level, v, h) (((level) << 16) | ((v) << 22) | ((h) << 23))

#ifdef GL_core_profile
layout(push_constant) uniform V3dLpfPush {
  uint sb_first; /* word offset of the dispatch's first superblock record in the record buffer */
  uint sb_count; /* superblocks (workgroups) in this dispatch */
} pc;
#else
#include <stdint.h>
typedef struct {
  uint32_t sb_first;
  uint32_t sb_count;
} V3dLpfPush;
#endif

#endif /* V3D_VP9_LPF_LAYOUT_H */
