// SPDX-License-Identifier: LGPL-2.1-or-later
// The v3d plugin (libgstv3d.so): VP9 and H.264 decoder kernels on SIMD CPU threads and Vulkan
// compute.
#include <gst/gst.h>
#include <v3d/v3d.h>

#include "gstv3delements.h"

GST_DEBUG_CATEGORY_STATIC(gst_v3d_lib_debug);

static void log_to_gst(int level, const char *message, void *) {
  switch (level) {
    case 0: GST_CAT_ERROR(gst_v3d_lib_debug, "%s", message); break;
    case 1: GST_CAT_WARNING(gst_v3d_lib_debug, "%s", message); break;
    case 2: GST_CAT_INFO(gst_v3d_lib_debug, "%s", message); break;
    default: GST_CAT_DEBUG(gst_v3d_lib_debug, "%s", message); break;
  }
}

void gst_v3d_install_log_handler(void) {
  static gsize done = 0;
  if (g_once_init_enter(&done)) {
    GST_DEBUG_CATEGORY_INIT(gst_v3d_lib_debug, "v3d", 0, "v3d kernel library");
    v3d_set_log_func(log_to_gst, nullptr);
    g_once_init_leave(&done, 1);
  }
}

GType gst_v3d_backend_get_type(void) {
  static gsize type = 0;
  static const GEnumValue values[] = {
      {GST_V3D_BACKEND_AUTO, "GPU and CPU workers when a GPU is there, else CPU (V3D_BACKEND "
                             "overrides)", "auto"},
      {GST_V3D_BACKEND_SCALAR, "Scalar reference code on the CPU workers (testing)", "scalar"},
      {GST_V3D_BACKEND_CPU, "SIMD code on the CPU workers", "cpu"},
      {GST_V3D_BACKEND_GPU, "Vulkan compute on the GPU only (fails without a GPU)", "gpu"},
      {GST_V3D_BACKEND_HYBRID, "Each frame split between the GPU and the CPU workers", "hybrid"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) {
    GType t = g_enum_register_static("GstV3dBackend", values);
    g_once_init_leave(&type, t);
  }
  return static_cast<GType>(type);
}

const gchar *gst_v3d_backend_to_string(GstV3dBackend backend) {
  switch (backend) {
    case GST_V3D_BACKEND_SCALAR: return "scalar";
    case GST_V3D_BACKEND_CPU: return "simd";
    case GST_V3D_BACKEND_GPU: return "gpu";
    case GST_V3D_BACKEND_HYBRID: return "hybrid";
    case GST_V3D_BACKEND_AUTO: break;
  }
  return "auto";
}

static gboolean plugin_init(GstPlugin *plugin) {
  gst_v3d_install_log_handler();
  gboolean ok = FALSE;
  ok |= GST_ELEMENT_REGISTER(v3dvp9idct, plugin);
  ok |= GST_ELEMENT_REGISTER(v3dvp9residualsrc, plugin);
  ok |= GST_ELEMENT_REGISTER(v3dvp9lpf, plugin);
  ok |= GST_ELEMENT_REGISTER(v3dh264deblock, plugin);
  ok |= GST_ELEMENT_REGISTER(v3dvp9dec, plugin);
  return ok;
}

#ifndef PACKAGE
#define PACKAGE "gst-v3d"
#endif
#ifndef VERSION
#define VERSION "0.1.0"
#endif

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, v3d,
                  "VP9 and H.264 decoder kernels on SIMD CPU threads and Vulkan compute", plugin_init,
                  VERSION, "LGPL", PACKAGE, "https://example.invalid/gst-v3d")
