/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Element registrations of the v3d plugin, and the enum types the elements share. */
#ifndef GST_V3D_ELEMENTS_H
#define GST_V3D_ELEMENTS_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Where the kernels run. Maps to the backend names of v3d_context_new(). */
typedef enum {
  GST_V3D_BACKEND_AUTO = 0, /* "auto": GPU + CPU workers when a GPU is there, else CPU */
  GST_V3D_BACKEND_SCALAR,   /* "scalar": scalar reference code on the CPU workers (testing) */
  GST_V3D_BACKEND_CPU,      /* "simd": SIMD code on the CPU workers */
  GST_V3D_BACKEND_GPU,      /* "gpu": Vulkan compute only; fails without a GPU */
  GST_V3D_BACKEND_HYBRID,   /* "hybrid": each frame split between GPU and CPU workers */
} GstV3dBackend;

#define GST_TYPE_V3D_BACKEND (gst_v3d_backend_get_type ())
GType gst_v3d_backend_get_type (void);
/* The v3d_context_new() name of a backend ("auto", "scalar", "simd", "gpu", "hybrid"). */
const gchar *gst_v3d_backend_to_string (GstV3dBackend backend);

GST_ELEMENT_REGISTER_DECLARE (v3dvp9idct);
GST_ELEMENT_REGISTER_DECLARE (v3dvp9residualsrc);
GST_ELEMENT_REGISTER_DECLARE (v3dvp9lpf);
GST_ELEMENT_REGISTER_DECLARE (v3dh264deblock);
GST_ELEMENT_REGISTER_DECLARE (v3dvp9dec);

/* Routes the kernel library's log (v3d_set_log_func) into the "v3d" debug category. */
void gst_v3d_install_log_handler (void);

G_END_DECLS

#endif /* GST_V3D_ELEMENTS_H */
