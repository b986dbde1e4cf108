// SPDX-License-Identifier: LGPL-2.1-or-later
#include "gpu/vk_api.h"

#include <dlfcn.h>

#include <mutex>

#include "runtime/fault.h"

namespace v3d {
namespace {

// Names of the loader tried in order (the versioned name is the runtime package's).
constexpr const char *kLoaderNames[] = {"libvulkan.so.1", "libvulkan.so"};

PFN_vkGetInstanceProcAddr open_loader(std::string *error) {
  static std::once_flag once;
  static PFN_vkGetInstanceProcAddr gipa = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    if (fault_hit(Fault::kNoLoader)) {
      failure = "no Vulkan loader (injected: V3D_FAULT=no-loader)";
      return;
    }
    for (const char *name : kLoaderNames) {
      void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!lib) continue;
      gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(lib, "vkGetInstanceProcAddr"));
      if (gipa) return;
      dlclose(lib);
    }
    failure = "no Vulkan loader (libvulkan.so.1 not found: install libvulkan1)";
  });
  if (!gipa && error) *error = failure;
  return gipa;
}

}  // namespace

bool VkApi::load_global(std::string *error) {
  vkGetInstanceProcAddr = open_loader(error);
  if (!vkGetInstanceProcAddr) return false;
#define V3D_VK_LOAD(name) name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(nullptr, #name));
  V3D_VK_GLOBAL_FNS(V3D_VK_LOAD)
#undef V3D_VK_LOAD
  if (!vkCreateInstance || !vkEnumerateInstanceExtensionProperties ||
      !vkEnumerateInstanceLayerProperties) {
    if (error) *error = "the Vulkan loader lacks vkCreateInstance";
    return false;
  }
  if (!vkEnumerateInstanceVersion) {
    if (error) *error = "the Vulkan loader is older than Vulkan 1.1";
    return false;
  }
  return true;
}

bool VkApi::load_instance(VkInstance instance, std::string *error) {
#define V3D_VK_LOAD(name)                                                                 \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));            \
  if (!name) {                                                                            \
    if (error) *error = "the Vulkan instance lacks " #name;                               \
    return false;                                                                         \
  }
  V3D_VK_INSTANCE_FNS(V3D_VK_LOAD)
#undef V3D_VK_LOAD
#define V3D_VK_LOAD_OPTIONAL(name) \
  name = reinterpret_cast<PFN_##name>(vkGetInstanceProcAddr(instance, #name));
  V3D_VK_DEBUG_FNS(V3D_VK_LOAD_OPTIONAL)
#undef V3D_VK_LOAD_OPTIONAL
  return true;
}

bool VkApi::load_device(VkDevice device, std::string *error) {
#define V3D_VK_LOAD(name)                                                                 \
  name = reinterpret_cast<PFN_##name>(vkGetDeviceProcAddr(device, #name));                \
  if (!name) {                                                                            \
    if (error) *error = "the Vulkan device lacks " #name;                                 \
    return false;                                                                         \
  }
  V3D_VK_DEVICE_FNS(V3D_VK_LOAD)
#undef V3D_VK_LOAD
  return true;
}

const char *vk_result_name(VkResult r) {
  switch (r) {
#define V3D_VK_CASE(x) \
  case x:              \
    return #x;
    V3D_VK_CASE(VK_SUCCESS)
    V3D_VK_CASE(VK_NOT_READY)
    V3D_VK_CASE(VK_TIMEOUT)
    V3D_VK_CASE(VK_INCOMPLETE)
    V3D_VK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    V3D_VK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    V3D_VK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    V3D_VK_CASE(VK_ERROR_DEVICE_LOST)
    V3D_VK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    V3D_VK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    V3D_VK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    V3D_VK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    V3D_VK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    V3D_VK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
#undef V3D_VK_CASE
    default:
      return "VkResult error";
  }
}

}  // namespace v3d
