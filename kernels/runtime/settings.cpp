// SPDX-License-Identifier: LGPL-2.1-or-later
// The dav1d-style way to make a context (v3d/context.h): V3dSettings with its defaults,
// v3d_open and v3d_close, and v3d_context_unref. v3d_open checks every setting itself, so that a
// bad one gets V3D_ERROR_INVALID_SETTINGS, and then creates the context through
// v3d_context_new_with_options, whose only failure left is a backend that can't be had.
#include <strings.h>

#include <cmath>
#include <new>
#include <system_error>

#include "runtime/log.h"
#include "v3d/context.h"

namespace {

// The backend names v3d_context_new_with_options accepts (case-insensitive; "cpu" is "simd";
// NULL or "" is "auto").
bool known_backend(const char *name) {
  if (!name || !*name) return true;
  static const char *const kNames[] = {"auto", "scalar", "simd", "cpu", "gpu", "hybrid"};
  for (const char *k : kNames)
    if (strcasecmp(name, k) == 0) return true;
  return false;
}

// V3D_OK, or V3D_ERROR_INVALID_SETTINGS naming the first field outside its range.
int check_settings(const V3dSettings &s) {
  using v3d::set_error;
  if (!known_backend(s.backend))
    return set_error(V3D_ERROR_INVALID_SETTINGS,
                     "settings: unknown backend '%s' (scalar, simd, gpu, hybrid or auto)",
                     s.backend);
  if (s.cpu_threads < 0 || s.cpu_threads > 1024)
    return set_error(V3D_ERROR_INVALID_SETTINGS, "settings: cpu_threads %d outside 0..1024",
                     s.cpu_threads);
  if (std::isnan(s.gpu_share) || s.gpu_share > 1)
    return set_error(V3D_ERROR_INVALID_SETTINGS,
                     "settings: gpu_share %g is not in 0..1 (or negative for measured)",
                     s.gpu_share);
  for (int r : s.reserved)
    if (r != 0)
      return set_error(V3D_ERROR_INVALID_SETTINGS,
                       "settings: reserved fields are not zero (use v3d_default_settings)");
  return V3D_OK;
}

}  // namespace

extern "C" {

void v3d_default_settings(V3dSettings *s) {
  if (!s) return;
  *s = V3dSettings{};
  s->backend = "auto";
  s->cpu_threads = 0;
  s->gpu_device = nullptr;
  s->gpu_share = -1;
}

int v3d_open(V3dContext **ctx, const V3dSettings *s) {
  using v3d::set_error;
  v3d::clear_error();
  if (ctx) *ctx = nullptr;
  if (!ctx || !s) return set_error(V3D_ERROR_INVALID_ARGUMENT, "NULL %s", !ctx ? "ctx" : "settings");
  if (const int rc = check_settings(*s)) {
    v3d::log(v3d::kLogError, "%s", v3d_last_error());
    return rc;
  }
  V3dContextOptions o{};
  o.backend = s->backend;
  o.cpu_threads = s->cpu_threads;
  o.gpu_device = s->gpu_device;
  o.gpu_share = s->gpu_share;
  try {
    *ctx = v3d_context_new_with_options(&o);
  } catch (const std::bad_alloc &) {
    return set_error(V3D_ERROR_NO_MEMORY, "out of memory while creating a context");
  } catch (const std::system_error &e) {
    return set_error(V3D_ERROR_NO_MEMORY, "could not start the worker threads: %s", e.what());
  }
  // The settings were sound: what is left is a backend or device that can't be had (the
  // message, already set and logged, says which).
  return *ctx ? V3D_OK : V3D_ERROR_UNAVAILABLE;
}

void v3d_close(V3dContext **ctx) {
  if (!ctx) return;
  v3d_context_free(*ctx);
  *ctx = nullptr;
}

void v3d_context_unref(V3dContext *ctx) { v3d_context_free(ctx); }

}  // extern "C"
