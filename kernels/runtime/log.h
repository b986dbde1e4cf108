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

// An integer setting from the environment: true and *value when the variable `name` holds a
// decimal number in lo..hi; false when it is unset or empty (silently) or holds anything else
// (with a warning naming the variable, its value and the range, ending with `otherwise`, e.g.
// "ignored").
bool env_int(const char *name, long lo, long hi, long *value, const char *otherwise);

}  // namespace v3d
