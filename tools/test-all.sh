#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Installs, builds and runs the whole test suite: the native build (kernels, Vulkan on whatever
# device is present — lavapipe without a GPU —, the GStreamer plugin, pipelines as smoke tests)
# and the aarch64 build of the kernel library and its tests under qemu-aarch64 (the NEON path).
# Ends with one line "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh --cross || exit 1
jobs=$(nproc)
fail=0

# Native: GPU tests must run (lavapipe is always installed here).
meson setup build --wipe -Dvulkan=enabled -Dgst=enabled -Dtests=enabled >/dev/null 2>&1 ||
  meson setup build -Dvulkan=enabled -Dgst=enabled -Dtests=enabled || exit 1
ninja -C build -j"$jobs" || exit 1
V3D_REQUIRE_GPU=1 meson test -C build --print-errorlogs --num-processes 1 || fail=1

# aarch64 under qemu: the kernel library and its tests (NEON), no GStreamer, no Vulkan.
meson setup build-aarch64 --wipe --cross-file .ci/aarch64-linux-gnu.ini -Dgst=disabled \
  -Dvulkan=disabled -Dbench=disabled >/dev/null 2>&1 ||
  meson setup build-aarch64 --cross-file .ci/aarch64-linux-gnu.ini -Dgst=disabled \
    -Dvulkan=disabled -Dbench=disabled || exit 1
ninja -C build-aarch64 -j"$jobs" || exit 1
meson test -C build-aarch64 --print-errorlogs --num-processes 1 || fail=1

python3 - build/meson-logs/testlog.json build-aarch64/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        res = r.get("result")
        if res == "OK" or res == "EXPECTEDFAIL": passed += 1
        elif res == "SKIP": skipped += 1
        else: failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $fail
