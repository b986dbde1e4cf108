// SPDX-License-Identifier: LGPL-2.1-or-later
#include "runtime/log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "v3d/v3d.h"

namespace v3d {
namespace {

std::mutex g_log_mutex;
V3dLogFunc g_log_func = nullptr;
void *g_log_user = nullptr;
std::atomic<bool> g_has_func{false};  // g_log_func is set (read without the lock)
thread_local std::string t_last_error;

int debug_level_from_env() {
  const char *e = getenv("V3D_DEBUG");
  return e ? atoi(e) : kLogWarning;
}

}  // namespace

bool env_int(const char *name, long lo, long hi, long *value, const char *otherwise) {
  const char *e = getenv(name);
  if (!e || !*e) return false;
  char *end = nullptr;
  const long v = strtol(e, &end, 10);
  if (end == e || *end || v < lo || v > hi) {
    log(kLogWarning, "%s=%s is not a number in %ld..%ld: %s", name, e, lo, hi, otherwise);
    return false;
  }
  *value = v;
  return true;
}

void log(int level, const char *fmt, ...) {
  // Without a callback, a message above V3D_DEBUG's level is dropped before it is formatted:
  // frame-level calls log a debug line per frame (formatting it cost a few microseconds of every
  // frame's call).
  static const int max_level = debug_level_from_env();
  if (level > max_level && !g_has_func.load(std::memory_order_relaxed)) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  V3dLogFunc func;
  void *user;
  {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    func = g_log_func;
    user = g_log_user;
  }
  if (func) {
    func(level, buf, user);
    return;
  }
  if (level > max_level) return;
  static const char *names[] = {"ERROR", "WARNING", "INFO", "DEBUG"};
  fprintf(stderr, "v3d %s: %s\n", names[level < 0 ? 0 : level > 3 ? 3 : level], buf);
}

int set_error(int code, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  t_last_error = buf;
  log(kLogDebug, "%s (%s)", buf, v3d_error_name(code));
  return code;
}

void clear_error() { t_last_error.clear(); }

}  // namespace v3d

extern "C" {

const char *v3d_error_name(int code) {
  switch (code) {
    case V3D_OK: return "success";
    case V3D_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case V3D_ERROR_BAD_PLANE: return "bad plane index";
    case V3D_ERROR_BLOCK_OUTSIDE: return "block outside its plane";
    case V3D_ERROR_BLOCK_OVERLAP: return "overlapping blocks";
    case V3D_ERROR_BAD_TRANSFORM: return "invalid transform size/type";
    case V3D_ERROR_BAD_EOB: return "eob larger than the block";
    case V3D_ERROR_COEFFS_OUT_OF_RANGE: return "coefficients past the end of the array";
    case V3D_ERROR_NO_MEMORY: return "out of memory";
    case V3D_ERROR_GPU: return "GPU failure";
    case V3D_ERROR_UNAVAILABLE: return "unavailable";
    case V3D_ERROR_INVALID_DATA: return "invalid data";
    case V3D_ERROR_BAD_PARTITION: return "units do not tile the frame";
    case V3D_ERROR_INVALID_SETTINGS: return "invalid settings";
    case V3D_ERROR_UNSUPPORTED: return "unsupported";
    case V3D_ERROR_AGAIN: return "try again";
    default: return "unknown error";
  }
}

const char *v3d_last_error(void) { return v3d::t_last_error.c_str(); }

void v3d_set_log_func(V3dLogFunc func, void *user_data) {
  std::lock_guard<std::mutex> lock(v3d::g_log_mutex);
  v3d::g_log_func = func;
  v3d::g_log_user = user_data;
  v3d::g_has_func.store(func != nullptr, std::memory_order_relaxed);
}

}  // extern "C"
