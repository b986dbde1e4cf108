/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GST_V3D_API marks the functions that libgstv3d-1.0 exports (the library is built with hidden
 * visibility; everything not marked stays inside it), as GST_VULKAN_API does for
 * gstreamer-vulkan-1.0.
 */
#ifndef GST_V3D_PRELUDE_H
#define GST_V3D_PRELUDE_H

#include <gst/gst.h>

#ifndef GST_V3D_API
# ifdef BUILDING_GST_V3D
#  define GST_V3D_API GST_API_EXPORT
# else
#  define GST_V3D_API GST_API_IMPORT
# endif
#endif

#endif /* GST_V3D_PRELUDE_H */
