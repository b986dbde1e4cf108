// SPDX-License-Identifier: LGPL-2.1-or-later
#include "gpu/vk_memory.h"

#include <map>
#include <mutex>

#include "runtime/fault.h"
#include "runtime/log.h"

namespace v3d {
namespace {

// Usage of every buffer: storage for the shaders, transfer for possible future copies on the GPU.
constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT;

struct SharedAlloc {
  std::shared_ptr<Gpu> gpu;
  HostBuffer buf;
};

// Registry of shared allocations, keyed by mapped address. Never destroyed: blocks are freed
// during exit (gpu/gpu_cache.h), after static destructors may have run; a destroyed map would
// also make the allocations it points to unreachable while they are still live.
std::mutex &registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<uintptr_t, SharedAlloc *> &registry() {
  static auto *r = new std::map<uintptr_t, SharedAlloc *>;
  return *r;
}

}  // namespace

bool host_buffer_create(Gpu &gpu, VkDeviceSize size, HostBuffer *out, std::string *error) {
  const VkApi &vk = gpu.vk;
  *out = HostBuffer{};
  auto bi = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  // Whole 64-byte units: the shaders read uint words, which must not reach past the buffer.
  bi.size = size ? (size + 63) / 64 * 64 : 64;
  bi.usage = kUsage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkResult r = vk.vkCreateBuffer(gpu.device, &bi, nullptr, &out->buffer);
  if (r != VK_SUCCESS) {
    *error = std::string("vkCreateBuffer: ") + vk_result_name(r);
    return false;
  }
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(gpu.device, out->buffer, &req);
  int type = gpu.host_memory_type(req.memoryTypeBits);
  if (type < 0) {
    *error = "no host-visible, host-coherent memory type for storage buffers";
    host_buffer_destroy(gpu, out);
    return false;
  }
  auto ai = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = static_cast<uint32_t>(type);
  r = fault_hit(Fault::kGpuAlloc) ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                                  : vk.vkAllocateMemory(gpu.device, &ai, nullptr, &out->memory);
  if (r == VK_SUCCESS) r = vk.vkBindBufferMemory(gpu.device, out->buffer, out->memory, 0);
  void *map = nullptr;
  if (r == VK_SUCCESS) r = vk.vkMapMemory(gpu.device, out->memory, 0, VK_WHOLE_SIZE, 0, &map);
  if (r != VK_SUCCESS) {
    *error = std::string("allocating ") + std::to_string(req.size) +
             " bytes of host-visible memory: " + vk_result_name(r);
    host_buffer_destroy(gpu, out);
    return false;
  }
  out->map = static_cast<uint8_t *>(map);
  out->size = bi.size;
  return true;
}

void host_buffer_destroy(Gpu &gpu, HostBuffer *buf) {
  // Freeing the memory unmaps it.
  if (buf->buffer) gpu.vk.vkDestroyBuffer(gpu.device, buf->buffer, nullptr);
  if (buf->memory) gpu.vk.vkFreeMemory(gpu.device, buf->memory, nullptr);
  *buf = HostBuffer{};
}

bool host_buffer_reserve(Gpu &gpu, HostBuffer *buf, VkDeviceSize size, std::string *error) {
  if (buf->buffer && buf->size >= size) return true;
  host_buffer_destroy(gpu, buf);
  return host_buffer_create(gpu, size + size / 2, buf, error);
}

bool shared_lookup(const Gpu &gpu, const void *ptr, size_t size, SharedSpan *out) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto &reg = registry();
  auto it = reg.upper_bound(p);
  if (it == reg.begin()) return false;
  --it;
  const SharedAlloc *a = it->second;
  if (a->gpu.get() != &gpu) return false;
  const uintptr_t base = it->first;
  if (p + size > base + a->buf.size) return false;
  out->buffer = a->buf.buffer;
  out->offset = p - base;
  out->buffer_size = a->buf.size;
  return true;
}

void *gpu_shared_alloc(const std::shared_ptr<Gpu> &gpu, size_t size) {
  if (!gpu || !size || gpu_lost(*gpu)) return nullptr;
  auto *a = new SharedAlloc;
  a->gpu = gpu;
  std::string err;
  if (!host_buffer_create(*gpu, size, &a->buf, &err)) {
    log(kLogDebug, "gpu_shared_alloc(%zu): %s", size, err.c_str());  // the caller warns
    delete a;
    return nullptr;
  }
  // Mapped memory is aligned to minMemoryMapAlignment (>= 64 on every driver; checked here).
  if (reinterpret_cast<uintptr_t>(a->buf.map) & 63) {
    log(kLogWarning, "gpu_shared_alloc: mapped memory not 64-byte aligned");
    host_buffer_destroy(*gpu, &a->buf);
    delete a;
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[reinterpret_cast<uintptr_t>(a->buf.map)] = a;
  return a->buf.map;
}

bool gpu_shared_free(void *ptr) {
  SharedAlloc *a = nullptr;
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    auto it = registry().find(reinterpret_cast<uintptr_t>(ptr));
    if (it == registry().end()) return false;
    a = it->second;
    registry().erase(it);
  }
  host_buffer_destroy(*a->gpu, &a->buf);
  delete a;  // may drop the last reference to the Gpu
  return true;
}

bool host_import(Gpu &gpu, const void *ptr, size_t size, ImportedSpan *out) {
  *out = ImportedSpan{};
  const VkApi &vk = gpu.vk;
  if (!gpu.import_align || !vk.vkGetMemoryHostPointerPropertiesEXT || !ptr || !size) return false;
  const uintptr_t a = static_cast<uintptr_t>(gpu.import_align);
  const uintptr_t begin = reinterpret_cast<uintptr_t>(ptr) / a * a;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(ptr) + size + a - 1) / a * a;
  void *base = reinterpret_cast<void *>(begin);
  auto props = vk_struct<VkMemoryHostPointerPropertiesEXT>(
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT);
  if (vk.vkGetMemoryHostPointerPropertiesEXT(gpu.device,
          VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, base, &props) != VK_SUCCESS)
    return false;
  auto ext = vk_struct<VkExternalMemoryBufferCreateInfo>(
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO);
  ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  auto bi = vk_struct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bi.pNext = &ext;
  bi.size = end - begin;
  bi.usage = kUsage;
  bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (vk.vkCreateBuffer(gpu.device, &bi, nullptr, &out->buffer) != VK_SUCCESS) {
    out->buffer = VK_NULL_HANDLE;
    return false;
  }
  VkMemoryRequirements req;
  vk.vkGetBufferMemoryRequirements(gpu.device, out->buffer, &req);
  // The CPU keeps working on the same pages (hybrid splits, other planes): coherent types only.
  const int type = gpu.host_memory_type(req.memoryTypeBits & props.memoryTypeBits);
  auto imp = vk_struct<VkImportMemoryHostPointerInfoEXT>(
      VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT);
  imp.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  imp.pHostPointer = base;
  auto ai = vk_struct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  ai.pNext = &imp;
  ai.allocationSize = end - begin;
  ai.memoryTypeIndex = static_cast<uint32_t>(type);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  if (type < 0 || req.size > end - begin ||
      vk.vkAllocateMemory(gpu.device, &ai, nullptr, &memory) != VK_SUCCESS) {
    host_import_release(gpu, out);
    return false;
  }
  out->memory = memory;
  if (vk.vkBindBufferMemory(gpu.device, out->buffer, out->memory, 0) != VK_SUCCESS) {
    host_import_release(gpu, out);
    return false;
  }
  out->offset = reinterpret_cast<uintptr_t>(ptr) - begin;
  out->buffer_size = end - begin;
  return true;
}

void host_import_release(Gpu &gpu, ImportedSpan *span) {
  if (span->buffer) gpu.vk.vkDestroyBuffer(gpu.device, span->buffer, nullptr);
  if (span->memory) gpu.vk.vkFreeMemory(gpu.device, span->memory, nullptr);
  *span = ImportedSpan{};
}

}  // namespace v3d
