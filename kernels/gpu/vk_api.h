// SPDX-License-Identifier: LGPL-2.1-or-later
// The Vulkan entry points the runtime uses, loaded at run time from the loader (libvulkan.so.1,
// dlopen) so that the library still loads, and gpu_open() fails with a reason, on machines
// without a Vulkan loader. No window-system functions.
//
// Ownership and threads: the loader library is opened once per process and never closed. A
// VkApi table is filled once (by the Gpu that owns it) and read-only afterwards.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace v3d {

#define V3D_VK_GLOBAL_FNS(X)                 \
  X(vkCreateInstance)                        \
  X(vkEnumerateInstanceVersion)              \
  X(vkEnumerateInstanceLayerProperties)      \
  X(vkEnumerateInstanceExtensionProperties)

#define V3D_VK_INSTANCE_FNS(X)                 \
  X(vkDestroyInstance)                         \
  X(vkEnumeratePhysicalDevices)                \
  X(vkGetPhysicalDeviceProperties)             \
  X(vkGetPhysicalDeviceProperties2)            \
  X(vkGetPhysicalDeviceFeatures2)              \
  X(vkGetPhysicalDeviceQueueFamilyProperties)  \
  X(vkGetPhysicalDeviceMemoryProperties)       \
  X(vkEnumerateDeviceExtensionProperties)      \
  X(vkCreateDevice)                            \
  X(vkGetDeviceProcAddr)

// Present only when VK_EXT_debug_utils is enabled (validation).
#define V3D_VK_DEBUG_FNS(X)           \
  X(vkCreateDebugUtilsMessengerEXT)   \
  X(vkDestroyDebugUtilsMessengerEXT)

#define V3D_VK_DEVICE_FNS(X)         \
  X(vkDestroyDevice)                 \
  X(vkGetDeviceQueue)                \
  X(vkDeviceWaitIdle)                \
  X(vkAllocateMemory)                \
  X(vkFreeMemory)                    \
  X(vkMapMemory)                     \
  X(vkCreateBuffer)                  \
  X(vkDestroyBuffer)                 \
  X(vkGetBufferMemoryRequirements)   \
  X(vkBindBufferMemory)              \
  X(vkCreateShaderModule)            \
  X(vkDestroyShaderModule)           \
  X(vkCreateDescriptorSetLayout)     \
  X(vkDestroyDescriptorSetLayout)    \
  X(vkCreatePipelineLayout)          \
  X(vkDestroyPipelineLayout)         \
  X(vkCreateComputePipelines)        \
  X(vkDestroyPipeline)               \
  X(vkCreateDescriptorPool)          \
  X(vkDestroyDescriptorPool)         \
  X(vkAllocateDescriptorSets)        \
  X(vkUpdateDescriptorSets)          \
  X(vkCreateCommandPool)             \
  X(vkDestroyCommandPool)            \
  X(vkAllocateCommandBuffers)        \
  X(vkResetCommandPool)              \
  X(vkBeginCommandBuffer)            \
  X(vkEndCommandBuffer)              \
  X(vkCmdBindPipeline)               \
  X(vkCmdBindDescriptorSets)         \
  X(vkCmdPushConstants)              \
  X(vkCmdDispatch)                   \
  X(vkCmdPipelineBarrier)            \
  X(vkCmdResetQueryPool)             \
  X(vkCmdWriteTimestamp)             \
  X(vkCreateQueryPool)               \
  X(vkDestroyQueryPool)              \
  X(vkGetQueryPoolResults)           \
  X(vkCreateFence)                   \
  X(vkDestroyFence)                  \
  X(vkResetFences)                   \
  X(vkWaitForFences)                 \
  X(vkGetFenceStatus)                \
  X(vkQueueSubmit)

struct VkApi {
#define V3D_VK_DECLARE(name) PFN_##name name = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  V3D_VK_GLOBAL_FNS(V3D_VK_DECLARE)
  V3D_VK_INSTANCE_FNS(V3D_VK_DECLARE)
  V3D_VK_DEBUG_FNS(V3D_VK_DECLARE)
  V3D_VK_DEVICE_FNS(V3D_VK_DECLARE)
#undef V3D_VK_DECLARE
  // VK_EXT_external_memory_host (optional: null when the device lacks the extension).
  PFN_vkGetMemoryHostPointerPropertiesEXT vkGetMemoryHostPointerPropertiesEXT = nullptr;

  // Opens the loader (once per process) and loads the global functions. False with *error set
  // when there is no loader or it is older than Vulkan 1.1.
  bool load_global(std::string *error);
  // Loads the instance-level functions (debug ones may stay null). False if one is missing.
  bool load_instance(VkInstance instance, std::string *error);
  // Loads the device-level functions. False if one is missing.
  bool load_device(VkDevice device, std::string *error);
};

// A zeroed Vulkan structure with its sType set.
template <typename T>
T vk_struct(VkStructureType type) {
  T v{};
  v.sType = type;
  return v;
}

// "VK_ERROR_DEVICE_LOST" etc., for messages.
const char *vk_result_name(VkResult r);

}  // namespace v3d
