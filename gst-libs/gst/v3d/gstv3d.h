/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libgstv3d-1.0 (pkg-config gstreamer-v3d-1.0): what applications and decoders need to work
 * with the v3d elements without loading the plugin first.
 *
 * - the metas the elements consume: GstV3dVp9ResidualMeta (v3dvp9idct, v3dvp9meta.h),
 *   GstV3dVp9LfMeta (v3dvp9lpf, v3dvp9lfmeta.h), GstV3dH264DeblockMeta (v3dh264deblock,
 *   v3dh264meta.h);
 * - GstV3dAllocator and GstV3dBufferPool: memory shared by a V3dContext's CPU workers and GPU
 *   (v3dallocator.h, v3dpool.h);
 * - sharing a V3dContext with the elements through a GstContext of type "v3d.context"
 *   (v3dcontext.h).
 *
 * The kernel library's C API (V3dContext, the frame calls) is <v3d/v3d.h> (pkg-config
 * v3dkernels, required by this library's .pc file). No initialisation call: every type
 * registers itself on first use. Thread-safe where each header says so.
 */
#ifndef GST_V3D_H
#define GST_V3D_H

#include <gst/v3d/v3d-prelude.h>
#include <gst/v3d/v3dallocator.h>
#include <gst/v3d/v3dcontext.h>
#include <gst/v3d/v3dh264meta.h>
#include <gst/v3d/v3dpool.h>
#include <gst/v3d/v3dvp9lfmeta.h>
#include <gst/v3d/v3dvp9meta.h>

#endif /* GST_V3D_H */
