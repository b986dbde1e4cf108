// SPDX-License-Identifier: LGPL-2.1-or-later
// Choice of the CPU SIMD target for every kernel table, made once at first use (or again by
// v3d_cpu_force_target(), which is not thread-safe).
#pragma once

namespace v3d {

// Ensures the kernel tables are initialised. Cheap after the first call; thread-safe.
void cpu_init();

}  // namespace v3d
