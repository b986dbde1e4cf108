/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v3d/cpu.h: the SIMD targets the CPU kernels can run on. Every kernel family keeps one table of
 * kernels per process, filled once for the best target this CPU supports; these functions list
 * the targets and let tests and benchmarks force a lower one.
 */
#ifndef V3D_CPU_H
#define V3D_CPU_H

#include "v3d/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes up to max pointers to the names of the SIMD targets compiled in and supported by this
 * CPU, best first and always ending with "scalar" (the references), e.g. "AVX3_DL", "AVX3",
 * "AVX2", "SSE4", "SSSE3", "NEON", "EMU128", "scalar". names may be NULL (with any max) to count
 * them. Returns how many there are (at least 1), which may exceed max. The strings are static.
 * Does not block; thread-safe. */
V3D_API int v3d_cpu_targets(const char **names, int max);

/* Makes every kernel table use the named target (one of v3d_cpu_targets()), as if the CPU had
 * nothing better; NULL or "" restores the best. Returns V3D_OK, or V3D_ERROR_UNAVAILABLE when
 * this CPU lacks that target (the tables are then unchanged). NOT thread-safe: call it only
 * while no other thread runs kernels or frame-level calls (tests, benchmarks). */
V3D_API int v3d_cpu_force_target(const char *name);

/* Returns the name of the target the kernel tables use now (a static string). Does not block;
 * thread-safe. */
V3D_API const char *v3d_cpu_target(void);

#ifdef __cplusplus
}
#endif

#endif /* V3D_CPU_H */
