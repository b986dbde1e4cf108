// SPDX-License-Identifier: LGPL-2.1-or-later
// The process-wide cache of open Gpus (one per device choice, shared by every context) and what
// the library releases when the process exits.
//
// Lifetime: a cached Gpu stays open while the process runs, even with no context left (opening
// and closing Vulkan instances over and over made the NVIDIA driver report no device after about
// ten rounds, seen on the device machine's H100). At exit (an atexit handler registered after
// the first device opened, so it runs before the Vulkan driver's own exit handlers) the cache
// and the cache of freed shared blocks (shared_alloc.cpp) drop their references; each Gpu is
// then destroyed with its last reference, i.e. at once unless a context, job or shared block
// that the program never freed still holds it (then it stays, with what holds it). A lost Gpu
// leaves the cache at once and is destroyed with its last reference (vk_device.cpp: a device
// whose failed jobs never finish is not destroyed).
//
// Threads: thread-safe (one mutex).
#pragma once

#include <memory>
#include <string>

#include "gpu/gpu.h"

namespace v3d {

// The shared Gpu for `device` (gpu_open's argument; nullptr/"" = default choice, which reads
// V3D_VULKAN_DEVICE), opening it on first use or when the cached one was lost. gpus_only: a
// default choice (no device named, here or in V3D_VULKAN_DEVICE) that would be a CPU-type device
// is refused (nullptr, *cpu_only set when not null): the choice of backend "auto"; on a machine
// without a GPU driver's device node it is refused without asking Vulkan. Returns
// nullptr with *error set when none can be opened. Blocks while a device is opened.
std::shared_ptr<Gpu> open_shared_gpu(const char *device, std::string *error,
                                     bool gpus_only = false, bool *cpu_only = nullptr);

// shared_alloc.cpp: frees every cached (freed, kept for reuse) shared block, and from then on
// frees blocks at once instead of caching them. Called at exit.
void shared_alloc_release_cache();
// shared_alloc.cpp: frees the cached blocks of one Gpu (a lost one leaving the cache).
void shared_alloc_release_kept(const Gpu &owner);

}  // namespace v3d
