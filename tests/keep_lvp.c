/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into the LeakSanitizer runs (tools/ci/asan.sh): a dlclose() that leaves Mesa's lavapipe
 * driver (libvulkan_lvp.so) mapped. The Vulkan loader unloads its drivers when the last instance
 * is destroyed; lavapipe keeps a block of its own (128 bytes in Mesa 22.3.6-1+deb12u2) in its
 * static data for the life of the library, and once the library is unmapped LeakSanitizer sees
 * that block as leaked, with no module left to name it (so tests/lsan.supp cannot match it).
 * Left mapped, the block stays reachable, and leaks anywhere else are still reported. Every
 * other library is closed as usual. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <string.h>

int dlclose(void *handle) {
  static int (*real_dlclose)(void *);
  if (!real_dlclose) real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
  struct link_map *map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
      strstr(map->l_name, "libvulkan_lvp.so"))
    return 0;
  return real_dlclose(handle);
}
