/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Layout of the H.264 deblocking job (shaders/h264_deblock.comp), shared by GLSL and C++
 * (kernels/h264/deblock_gpu.cpp builds it, kernels/vulkan/h264_deblock_job.cpp submits it).
 *
 * Binding 0: the samples of the job's planes (8-bit, one buffer). Binding 1: the records, uint
 * words: first the plane table (V3D_H264_PLANE_WORDS words per plane: byte offset of sample (0,0)
 * in binding 0, stride, width, height), then one record of V3D_H264_REC_WORDS words per
 * (macroblock, plane) that has something to filter, ordered by wavefront step:
 *   word 0: macroblock column | row << 16; word 1: plane (0 luma, 1 Cb, 2 Cr);
 *   then per edge i = dir * 4 + e (dir 0 vertical, 1 horizontal; e = edge index 0..3 in 4-sample
 *   luma units: chroma uses e 0 and 2, at 0 and 4 samples) two words:
 *     A = alpha | beta << 8 | bS of segment s (3 bits) << (16 + 3 s)   (A == 0: edge not filtered)
 *     B = tC0 of segment s (0..25, byte s; unused for bS 4)
 *   A segment is 4 luma / 2 chroma lines along the edge. Every decision of clause 8.7 (which edges,
 *   qPav, indexA/B, alpha, beta, tC0, edges whose taps leave the plane) is made by the CPU. */
#ifndef V3D_H264_DEBLOCK_LAYOUT_H
#define V3D_H264_DEBLOCK_LAYOUT_H

#define V3D_H264_PLANE_WORDS 4
#define V3D_H264_TABLE_WORDS (3 * V3D_H264_PLANE_WORDS)
#define V3D_H264_REC_HEADER 2
#define V3D_H264_REC_WORDS (V3D_H264_REC_HEADER + 16)
#define V3D_H264_INVOCATIONS 16

#ifdef GL_core_profile
layout(push_constant) uniform V3dH264Push {
  uint rec_first; /* word offset of the dispatch's first record */
  uint rec_count; /* records (workgroups) in this dispatch */
} pc;
#else
#include <stdint.h>
typedef struct {
  uint32_t rec_first;
  uint32_t rec_count;
} V3dH264Push;
#endif

#endif /* V3D_H264_DEBLOCK_LAYOUT_H */
