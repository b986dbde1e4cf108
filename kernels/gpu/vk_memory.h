// SPDX-License-Identifier: LGPL-2.1-or-later
// Host-visible, host-coherent buffers: the runtime's persistent per-job buffers (HostBuffer) and
// the shared allocations of gpu_shared_alloc() with their registry, which maps a pointer inside
// one to its (VkBuffer, offset) so frames in shared memory reach the GPU without copies.
//
// Ownership and threads: a HostBuffer belongs to whoever created it (a job slot) and is not
// thread-safe. The shared-allocation registry is process-wide and thread-safe (one mutex); each
// allocation holds a reference to its Gpu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "gpu/vk_device.h"

namespace v3d {

struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint8_t *map = nullptr;  // persistently mapped
  VkDeviceSize size = 0;
};

// Creates a storage (and transfer) buffer of `size` bytes in mapped host-coherent memory.
bool host_buffer_create(Gpu &gpu, VkDeviceSize size, HostBuffer *out, std::string *error);
void host_buffer_destroy(Gpu &gpu, HostBuffer *buf);
// Makes buf at least `size` bytes, recreating it (contents lost) with 1.5x headroom if smaller,
// so steady-state frames allocate nothing.
bool host_buffer_reserve(Gpu &gpu, HostBuffer *buf, VkDeviceSize size, std::string *error);

// Where [ptr, ptr + size) lies in a shared allocation of `gpu`: its buffer and the byte offset of
// ptr. False if it does not lie entirely inside one (then the caller copies).
struct SharedSpan {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  VkDeviceSize buffer_size = 0;
};
bool shared_lookup(const Gpu &gpu, const void *ptr, size_t size, SharedSpan *out);

// Host memory imported for one job (VK_EXT_external_memory_host): a buffer over the pages that
// hold [ptr, ptr + size), so a frame outside shared memory reaches the GPU without a copy.
// The caller keeps that memory alive and unchanged by others until the GPU is done, then calls
// host_import_release (which must happen before the host memory is freed).
struct ImportedSpan {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;       // of ptr in the buffer
  VkDeviceSize buffer_size = 0;
};
// False (nothing to release) when the device cannot import (gpu.import_align == 0) or the driver
// refuses this range; then the caller copies.
bool host_import(Gpu &gpu, const void *ptr, size_t size, ImportedSpan *out);
void host_import_release(Gpu &gpu, ImportedSpan *span);

}  // namespace v3d
