// SPDX-License-Identifier: LGPL-2.1-or-later
// Instance creation, device choice and logical-device setup (gpu_open and friends).
#include "gpu/vk_device.h"

#include <strings.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "runtime/fault.h"
#include "runtime/log.h"

namespace v3d {
namespace {

// Vendor ID of Broadcom, whose V3D GPU (Raspberry Pi, Mesa v3dv) is the product's target.
constexpr uint32_t kBroadcomVendorId = 0x14E4;
constexpr const char *kValidationLayer = "VK_LAYER_KHRONOS_validation";
// The newest API version the runtime asks for (it needs 1.1; 1.2 gives 8-bit storage in core).
constexpr uint32_t kMaxApiVersion = VK_API_VERSION_1_3;
// What the shaders need (shaders/common/vp9_itx_layout.h: 256 invocations, 16 KiB shared, 7
// storage buffers: V3D_ITX_NUM_BINDINGS, the transform and record-building shaders' set).
constexpr uint32_t kNeedInvocations = 256;
constexpr uint32_t kNeedSharedBytes = 16384;
constexpr uint32_t kNeedStorageBuffers = 7;
// How long a Gpu's destructor waits for jobs that failed (lost or timed out) before it leaves
// the device open instead: they already had their own bounded wait (10 s or more), so a job
// still pending is hung; 2 s only catches one that finishes late, without stalling exit long.
constexpr uint64_t kFailedJobDrainNs = 2ull * 1000 * 1000 * 1000;

bool env_is(const char *name, const char *value) {
  const char *e = getenv(name);
  return e && strcmp(e, value) == 0;
}

VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT *data,
                                              void *user) {
  Gpu *gpu = static_cast<Gpu *>(user);
  gpu->validation_messages++;
  log(severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? kLogError : kLogWarning,
      "Vulkan validation: %s", data && data->pMessage ? data->pMessage : "(no message)");
  return VK_FALSE;
}

bool has_layer(VkApi &vk, const char *name) {
  uint32_t n = 0;
  vk.vkEnumerateInstanceLayerProperties(&n, nullptr);
  std::vector<VkLayerProperties> layers(n);
  vk.vkEnumerateInstanceLayerProperties(&n, layers.data());
  for (const auto &l : layers)
    if (strcmp(l.layerName, name) == 0) return true;
  return false;
}

bool has_instance_ext(VkApi &vk, const char *layer, const char *name) {
  uint32_t n = 0;
  vk.vkEnumerateInstanceExtensionProperties(layer, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vk.vkEnumerateInstanceExtensionProperties(layer, &n, exts.data());
  for (const auto &e : exts)
    if (strcmp(e.extensionName, name) == 0) return true;
  return false;
}

bool has_device_ext(VkApi &vk, VkPhysicalDevice pd, const char *name) {
  uint32_t n = 0;
  vk.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vk.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  for (const auto &e : exts)
    if (strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// Creates the instance (validation layers when asked for and installed). gpu may be null (for
// listing devices): then no debug messenger.
bool create_instance(VkApi &vk, Gpu *gpu, VkInstance *out, std::string *error) {
  if (!vk.load_global(error)) return false;
  uint32_t loader_version = VK_API_VERSION_1_0;
  vk.vkEnumerateInstanceVersion(&loader_version);
  if (loader_version < VK_API_VERSION_1_1) {
    if (error) *error = "the Vulkan loader supports only Vulkan 1.0 (1.1 needed)";
    return false;
  }
  std::vector<const char *> layers, exts;
  bool debug_utils = false;
  if (gpu && env_is("V3D_VULKAN_VALIDATION", "1")) {
    if (has_layer(vk, kValidationLayer)) {
      layers.push_back(kValidationLayer);
      if (has_instance_ext(vk, nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
          has_instance_ext(vk, kValidationLayer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
        exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        debug_utils = true;
      }
    } else {
      log(kLogWarning, "V3D_VULKAN_VALIDATION=1 but %s is not installed", kValidationLayer);
    }
  }
  auto app = vk_struct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "v3dkernels";
  app.pEngineName = "v3dkernels";
  app.apiVersion = std::min(loader_version, kMaxApiVersion);
  auto ci = vk_struct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ci.pApplicationInfo = &app;
  ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
  ci.ppEnabledLayerNames = layers.data();
  ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  VkResult r = vk.vkCreateInstance(&ci, nullptr, out);
  if (r != VK_SUCCESS) {
    if (error)
      *error = r == VK_ERROR_INCOMPATIBLE_DRIVER
                   ? "no Vulkan device (the loader found no driver)"
                   : std::string("vkCreateInstance failed: ") + vk_result_name(r);
    return false;
  }
  if (!vk.load_instance(*out, error)) return false;
  if (debug_utils && vk.vkCreateDebugUtilsMessengerEXT) {
    auto mi = vk_struct<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    mi.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mi.pfnUserCallback = debug_callback;
    mi.pUserData = gpu;
    vk.vkCreateDebugUtilsMessengerEXT(*out, &mi, nullptr, &gpu->messenger);
    log(kLogInfo, "Vulkan validation layers enabled");
  }
  return true;
}

std::vector<VkPhysicalDevice> physical_devices(VkApi &vk, VkInstance instance) {
  if (fault_hit(Fault::kNoDevice)) return {};
  uint32_t n = 0;
  vk.vkEnumeratePhysicalDevices(instance, &n, nullptr);
  std::vector<VkPhysicalDevice> pds(n);
  if (n) vk.vkEnumeratePhysicalDevices(instance, &n, pds.data());
  pds.resize(n);
  return pds;
}

// What a physical device offers for the shaders.
struct Candidate {
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props{};
  std::string problem;  // empty = usable
  uint32_t queue_family = 0;
  uint32_t timestamp_bits = 0;
  bool ext_8bit = false;  // enable VK_KHR_8bit_storage (device API < 1.2)
  bool int16 = false;     // storageBuffer16BitAccess
  bool ssbo_array = false;  // shaderStorageBufferArrayDynamicIndexing (optional)
  int subgroup = 0;
  VkDeviceSize import_align = 0;  // VK_EXT_external_memory_host usable: its alignment; else 0
};

Candidate inspect(VkApi &vk, VkPhysicalDevice pd) {
  Candidate c;
  c.pd = pd;
  vk.vkGetPhysicalDeviceProperties(pd, &c.props);
  const VkPhysicalDeviceLimits &lim = c.props.limits;
  if (c.props.apiVersion < VK_API_VERSION_1_1) {
    c.problem = "supports only Vulkan 1.0";
    return c;
  }
  uint32_t nq = 0;
  vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> qf(nq);
  vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf.data());
  bool found = false;
  for (uint32_t i = 0; i < nq && !found; i++) {
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      c.queue_family = i;
      c.timestamp_bits = qf[i].timestampValidBits;
      found = true;
    }
  }
  if (!found) {
    c.problem = "has no compute queue";
    return c;
  }
  const bool core12 = c.props.apiVersion >= VK_API_VERSION_1_2;
  c.ext_8bit = !core12 && has_device_ext(vk, pd, VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  auto f8 = vk_struct<VkPhysicalDevice8BitStorageFeaturesKHR>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES_KHR);
  auto f16 = vk_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  auto f2 = vk_struct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f2.pNext = &f16;
  if (core12 || c.ext_8bit) f16.pNext = &f8;
  vk.vkGetPhysicalDeviceFeatures2(pd, &f2);
  c.ssbo_array = f2.features.shaderStorageBufferArrayDynamicIndexing &&
                 !env_is("V3D_VULKAN_NO_SSBO_ARRAY", "1");
  if (!f8.storageBuffer8BitAccess) {
    c.problem = "lacks storageBuffer8BitAccess (VK_KHR_8bit_storage)";
    return c;
  }
  c.int16 = f16.storageBuffer16BitAccess && !env_is("V3D_VULKAN_COEF32", "1");
  if (lim.maxComputeWorkGroupInvocations < kNeedInvocations ||
      lim.maxComputeWorkGroupSize[0] < kNeedInvocations) {
    c.problem = "allows fewer than 256 invocations per workgroup";
    return c;
  }
  if (lim.maxComputeSharedMemorySize < kNeedSharedBytes) {
    c.problem = "has less than 16 KiB of shared memory per workgroup";
    return c;
  }
  if (lim.maxPerStageDescriptorStorageBuffers < kNeedStorageBuffers) {
    c.problem = "allows fewer than 7 storage buffers per stage";
    return c;
  }
  auto sg = vk_struct<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto p2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  p2.pNext = &sg;
  vk.vkGetPhysicalDeviceProperties2(pd, &p2);
  c.subgroup = static_cast<int>(sg.subgroupSize);
  // Importing foreign frames (VK_EXT_external_memory_host) instead of copying them: only when the
  // import alignment is at most the CPU page size, so that rounding a frame's range out to it
  // stays inside pages the process has mapped. V3D_VULKAN_NO_IMPORT=1 turns it off.
  if (has_device_ext(vk, pd, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME) &&
      !env_is("V3D_VULKAN_NO_IMPORT", "1")) {
    auto hp = vk_struct<VkPhysicalDeviceExternalMemoryHostPropertiesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT);
    auto hp2 = vk_struct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    hp2.pNext = &hp;
    vk.vkGetPhysicalDeviceProperties2(pd, &hp2);
    const long page = sysconf(_SC_PAGESIZE);
    const VkDeviceSize a = hp.minImportedHostPointerAlignment;
    if (a > 0 && (a & (a - 1)) == 0 && page > 0 && a <= static_cast<VkDeviceSize>(page))
      c.import_align = a;
  }
  return c;
}

bool is_v3d(const VkPhysicalDeviceProperties &p) {
  if (p.vendorID == kBroadcomVendorId) return true;
  std::string n = p.deviceName;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return n.find("v3d") != std::string::npos;
}

// Index of the device named by `want` (all digits: an index; else a case-insensitive substring
// of the name), or -1.
int find_named(const std::vector<Candidate> &cands, const std::string &want) {
  bool digits = !want.empty() && std::all_of(want.begin(), want.end(), ::isdigit);
  if (digits) {
    long i = strtol(want.c_str(), nullptr, 10);
    return i >= 0 && i < static_cast<long>(cands.size()) ? static_cast<int>(i) : -1;
  }
  std::string w = want;
  std::transform(w.begin(), w.end(), w.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (size_t i = 0; i < cands.size(); i++) {
    std::string n = cands[i].props.deviceName;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char ch) { return std::tolower(ch); });
    if (n.find(w) != std::string::npos) return static_cast<int>(i);
  }
  return -1;
}

bool create_device(Gpu &g, const Candidate &c, std::string *error) {
  float priority = 1.0f;
  auto qi = vk_struct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qi.queueFamilyIndex = c.queue_family;
  qi.queueCount = 1;
  qi.pQueuePriorities = &priority;
  auto f8 = vk_struct<VkPhysicalDevice8BitStorageFeaturesKHR>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES_KHR);
  f8.storageBuffer8BitAccess = VK_TRUE;
  auto f16 = vk_struct<VkPhysicalDevice16BitStorageFeatures>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  f16.storageBuffer16BitAccess = c.int16 ? VK_TRUE : VK_FALSE;
  f16.pNext = &f8;
  std::vector<const char *> exts;
  if (c.ext_8bit) exts.push_back(VK_KHR_8BIT_STORAGE_EXTENSION_NAME);
  if (c.import_align) exts.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  auto ci = vk_struct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  ci.pNext = &f16;
  VkPhysicalDeviceFeatures core{};
  core.shaderStorageBufferArrayDynamicIndexing = c.ssbo_array ? VK_TRUE : VK_FALSE;
  ci.pEnabledFeatures = &core;
  ci.queueCreateInfoCount = 1;
  ci.pQueueCreateInfos = &qi;
  ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
  ci.ppEnabledExtensionNames = exts.data();
  VkResult r = g.vk.vkCreateDevice(c.pd, &ci, nullptr, &g.device);
  if (r != VK_SUCCESS) {
    *error = std::string("vkCreateDevice failed: ") + vk_result_name(r);
    return false;
  }
  if (!g.vk.load_device(g.device, error)) return false;
  g.vk.vkGetDeviceQueue(g.device, c.queue_family, 0, &g.queue);
  g.physical = c.pd;
  g.queue_family = c.queue_family;
  g.props = c.props;
  g.vk.vkGetPhysicalDeviceMemoryProperties(c.pd, &g.memory);
  g.name = c.props.deviceName;
  g.subgroup_size = c.subgroup;
  g.coef16 = c.int16;
  g.ssbo_array = c.ssbo_array;
  g.timestamp_bits = c.timestamp_bits;
  if (c.import_align) {
    g.vk.vkGetMemoryHostPointerPropertiesEXT = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
        g.vk.vkGetDeviceProcAddr(g.device, "vkGetMemoryHostPointerPropertiesEXT"));
    if (g.vk.vkGetMemoryHostPointerPropertiesEXT) g.import_align = c.import_align;
  }
  return true;
}

// The registered families, by slot.
std::vector<const GpuFamily *> &families() {
  static std::vector<const GpuFamily *> list;
  return list;
}

// Creates every registered family's state on g, the required ones first. False (with *error
// set) when a required one fails; an optional one that fails is left out with a warning.
bool create_families(Gpu &g, std::string *error) {
  const std::vector<const GpuFamily *> &fams = families();
  g.family_state.assign(fams.size(), nullptr);
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < fams.size(); i++) {
      if (fams[i]->required != (pass == 0)) continue;
      std::string err;
      g.family_state[i] = fams[i]->create(g, &err);
      if (g.family_state[i]) continue;
      if (fams[i]->required) {
        if (error) *error = std::string(fams[i]->what) + ": " + err;
        return false;
      }
      log(kLogWarning, "%s on %s: %s (it runs on the CPU)", fams[i]->what, g.name.c_str(),
          err.c_str());
    }
  }
  return true;
}

// Failed jobs (slots marked lost: device lost, or no completion within the job's bounded wait)
// may still be running. True when each has finished or the device reports itself lost (then
// every wait returns in finite time); false when one is still pending after timeout_ns.
bool failed_jobs_done(Gpu &g, uint64_t timeout_ns) {
  std::vector<VkFence> fences;
  const std::vector<const GpuFamily *> &fams = families();
  for (size_t i = 0; i < g.family_state.size(); i++)
    if (g.family_state[i] && fams[i]->lost_fences) fams[i]->lost_fences(g.family_state[i], &fences);
  if (fences.empty()) return true;
  const VkResult r = g.vk.vkWaitForFences(g.device, static_cast<uint32_t>(fences.size()),
                                          fences.data(), VK_TRUE, timeout_ns);
  return r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST;
}

}  // namespace

Gpu::~Gpu() {
  if (device && !failed_jobs_done(*this, kFailedJobDrainNs)) {
    // Never destroy a device under a running job: leave the device and its Vulkan objects to
    // the driver (they go with the process); only our own memory is freed.
    log(kLogWarning, "GPU %s: a failed job is still running; its device is left open",
        name.c_str());
    const std::vector<const GpuFamily *> &fams = families();
    for (size_t i = 0; i < family_state.size(); i++)
      if (family_state[i] && fams[i]->free_host) fams[i]->free_host(family_state[i]);
    return;
  }
  if (device) {
    vk.vkDeviceWaitIdle(device);
    const std::vector<const GpuFamily *> &fams = families();
    for (size_t i = 0; i < family_state.size(); i++)
      if (family_state[i]) fams[i]->destroy(*this, family_state[i]);
    vk.vkDestroyDevice(device, nullptr);
  }
  if (messenger && vk.vkDestroyDebugUtilsMessengerEXT)
    vk.vkDestroyDebugUtilsMessengerEXT(instance, messenger, nullptr);
  if (instance) vk.vkDestroyInstance(instance, nullptr);
  if (device) log(kLogInfo, "Vulkan device %s closed", name.c_str());
}

int Gpu::host_memory_type(uint32_t type_bits) const {
  const VkMemoryPropertyFlags need =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int best = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount; i++) {
    if (!(type_bits & (1u << i))) continue;
    VkMemoryPropertyFlags f = memory.memoryTypes[i].propertyFlags;
    if ((f & need) != need) continue;
    if (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) return static_cast<int>(i);
    if (best < 0) best = static_cast<int>(i);
  }
  return best;
}

std::shared_ptr<Gpu> gpu_open(const char *device, std::string *error, bool gpus_only,
                              bool *cpu_only) {
  if (cpu_only) *cpu_only = false;
  std::string err;
  auto gpu = std::make_shared<Gpu>();
  if (!create_instance(gpu->vk, gpu.get(), &gpu->instance, &err)) {
    if (error) *error = err;
    return nullptr;
  }
  std::vector<Candidate> cands;
  for (VkPhysicalDevice pd : physical_devices(gpu->vk, gpu->instance))
    cands.push_back(inspect(gpu->vk, pd));
  if (cands.empty()) {
    if (error) *error = "no Vulkan device";
    return nullptr;
  }
  std::string want = device ? device : "";
  if (want.empty() && getenv("V3D_VULKAN_DEVICE")) want = getenv("V3D_VULKAN_DEVICE");
  int pick = -1;
  if (!want.empty()) {
    pick = find_named(cands, want);
    if (pick < 0) {
      if (error) *error = "no Vulkan device matches '" + want + "'";
      return nullptr;
    }
    if (!cands[pick].problem.empty()) {
      if (error)
        *error = std::string("Vulkan device ") + cands[pick].props.deviceName + " " +
                 cands[pick].problem;
      return nullptr;
    }
  } else {
    // A V3D device first, then a device that is not the CPU's own, then (unless gpus_only) a
    // CPU-type one (lavapipe, llvmpipe: CPU threads competing with the workers).
    auto usable = [&](size_t i) { return cands[i].problem.empty(); };
    auto cpu_type = [&](size_t i) {
      return cands[i].props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    };
    for (size_t i = 0; i < cands.size() && pick < 0; i++)
      if (usable(i) && is_v3d(cands[i].props)) pick = static_cast<int>(i);
    for (size_t i = 0; i < cands.size() && pick < 0; i++)
      if (usable(i) && !cpu_type(i)) pick = static_cast<int>(i);
    for (size_t i = 0; i < cands.size() && pick < 0 && !gpus_only; i++)
      if (usable(i)) pick = static_cast<int>(i);
    if (pick < 0 && gpus_only) {
      bool any_cpu = false;
      for (size_t i = 0; i < cands.size(); i++) any_cpu = any_cpu || (usable(i) && cpu_type(i));
      if (any_cpu) {
        err = "only CPU-type Vulkan devices:";
        for (size_t i = 0; i < cands.size(); i++)
          if (usable(i)) err += std::string(" ") + cands[i].props.deviceName + ";";
        if (error) *error = err;
        if (cpu_only) *cpu_only = true;
        return nullptr;
      }
    }
    if (pick < 0) {
      err = "no usable Vulkan device:";
      for (const auto &c : cands) err += std::string(" ") + c.props.deviceName + " " + c.problem + ";";
      if (error) *error = err;
      return nullptr;
    }
  }
  if (!create_device(*gpu, cands[pick], &err)) {
    if (error) *error = err;
    return nullptr;
  }
  if (!create_families(*gpu, error)) return nullptr;
  log(kLogInfo, "Vulkan device %s (subgroup %d, %s coefficients)", gpu->name.c_str(),
      gpu->subgroup_size, gpu->coef16 ? "int16" : "uint32-pair");
  // The memory type shared memory and the jobs' buffers prefer (host_memory_type), and whether
  // the CPU caches it.
  const int host_type = gpu->host_memory_type(~0u);
  gpu->host_cached = host_type >= 0 &&
                     (gpu->memory.memoryTypes[host_type].propertyFlags &
                      VK_MEMORY_PROPERTY_HOST_CACHED_BIT) &&
                     !fault_hit(Fault::kHostUncached);
  {
    // Once per device: the memory types (L: device-local, V: host-visible, C: host-coherent, $: host-cached).
    std::string types;
    for (uint32_t i = 0; i < gpu->memory.memoryTypeCount; i++) {
      const VkMemoryPropertyFlags f = gpu->memory.memoryTypes[i].propertyFlags;
      types += " " + std::to_string(i) + ":" + (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT ? "L" : "") +
               (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? "V" : "") +
               (f & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT ? "C" : "") +
               (f & VK_MEMORY_PROPERTY_HOST_CACHED_BIT ? "$" : "") + "/heap" +
               std::to_string(gpu->memory.memoryTypes[i].heapIndex);
    }
    log(kLogDebug, "Vulkan device %s memory types:%s; host buffers use type %d", gpu->name.c_str(),
        types.c_str(), host_type);
  }
  if (!gpu->host_cached)
    log(kLogInfo, "Vulkan device %s: its host-visible memory is not cached by the CPU", gpu->name.c_str());
  return gpu;
}

int gpu_register_family(const GpuFamily *desc) {
  families().push_back(desc);
  return static_cast<int>(families().size() - 1);
}

void *gpu_family_state(const Gpu &gpu, int slot) {
  return static_cast<size_t>(slot) < gpu.family_state.size() ? gpu.family_state[slot] : nullptr;
}

const char *gpu_name(const Gpu &gpu) { return gpu.name.c_str(); }
int gpu_subgroup_size(const Gpu &gpu) { return gpu.subgroup_size; }
bool gpu_host_cached(const Gpu &gpu) { return gpu.host_cached; }
int gpu_validation_messages(const Gpu &gpu) { return gpu.validation_messages.load(); }
double gpu_last_job_seconds(const Gpu &gpu) { return gpu.last_job_seconds.load(); }
bool gpu_lost(const Gpu &gpu) { return gpu.lost.load(std::memory_order_acquire); }
bool gpu_cpu_type(const Gpu &gpu) { return gpu.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU; }

std::vector<std::string> gpu_list_devices(std::string *error) {
  VkApi vk;
  VkInstance instance = VK_NULL_HANDLE;
  std::vector<std::string> names;
  if (!create_instance(vk, nullptr, &instance, error)) return names;
  for (VkPhysicalDevice pd : physical_devices(vk, instance)) {
    VkPhysicalDeviceProperties p;
    vk.vkGetPhysicalDeviceProperties(pd, &p);
    names.push_back(p.deviceName);
  }
  vk.vkDestroyInstance(instance, nullptr);
  if (names.empty() && error) *error = "no Vulkan device";
  return names;
}

}  // namespace v3d
