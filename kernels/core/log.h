// SPDX-License-Identifier: LGPL-2.1-or-later
// Logging and per-thread error messages of the kernel library. Thread-safe.
#pragma once

#include <string>

namespace v3d {

enum LogLevel { kLogError = 0, kLogWarning = 1, kLogInfo = 2, kLogDebug = 3 };

// Sends a printf-style message to the log callback (v3d_set_log_func).
void log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

// Records the calling thread's last error (read back by v3d_last_error()) and returns code, so a
// failing function can `return set_error(V3D_ERROR_..., "...")`.
int set_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void clear_error();

}  // namespace v3d
