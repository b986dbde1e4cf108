#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer) build and run of the whole
# meson test suite, GStreamer tests and pipeline smoke tests included (not the soak, suite
# 'soak': its LSan counterpart is the test pipeline_leaks). Called by tools/ci/test-all.sh; also by
# hand: tools/ci/asan.sh [BUILD_DIR (build-asan)].
#  - UBSan is fatal (-fno-sanitize-recover=undefined): any finding fails its test.
#  - Leaks: LeakSanitizer on every instrumented test program (kernel, GPU, fault and GstHarness
#    element tests, and pipeline_leaks), with the one-time allocations of foreign libraries
#    suppressed by tests/lsan.supp (never our own code).
#  - Pipeline smoke tests run gst-launch-1.0 (not instrumented) with the sanitizer runtimes
#    preloaded (a wrapper), leak detection off there: those processes are shell tools and
#    GStreamer's own programs, whose exit-time leaks are not ours.
#  - Unoptimized (-O0 -g): with -O2, gcc took over 10 CPU minutes for the Highway kernel files
#    alone under ASan + UBSan (measured: still compiling after 9 CPU minutes); -O0 builds the
#    whole tree in a few minutes, and the sanitizers check the same code.
#  - Lavapipe-heavy tests run fewer iterations (V3D_TEST_ITERS, default 0.25 here) so the run
#    fits CI's time.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
dir=${1:-build-asan}
jobs=$(nproc)
root=$PWD
meson setup "$dir" --wipe -Dvulkan=enabled -Dgst=enabled -Dtests=enabled -Dbench=disabled \
  -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=undefined -Dcpp_args=-fno-sanitize-recover=undefined \
  >/dev/null 2>&1 ||
  meson setup "$dir" -Dvulkan=enabled -Dgst=enabled -Dtests=enabled -Dbench=disabled \
    -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fno-sanitize-recover=undefined -Dcpp_args=-fno-sanitize-recover=undefined || exit 1
ninja -C "$dir" -j"$jobs" || exit 1

# verify_asan_link_order=0: keep_lvp.so (below) is preloaded ahead of the ASan runtime.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:verify_asan_link_order=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
export GST_REGISTRY_FORK=no       # scan plugins in the (instrumented) test process itself
export V3D_TEST_ITERS=${V3D_TEST_ITERS:-0.25}
export V3D_REQUIRE_GPU=1
# Element tests: only the system plugins they use ($plugins).
# shellcheck source=tools/ci/min_plugins.sh
. tools/ci/min_plugins.sh
# Lavapipe's library-lifetime block would read as a leak once the loader unloads the driver
# (tests/keep_lvp.c): preload a dlclose() that leaves that one driver mapped.
cc=$(meson introspect "$dir" --compilers 2>/dev/null | python3 -c \
  'import json,sys; print(json.load(sys.stdin)["host"]["c"]["exelist"][0])' 2>/dev/null || echo cc)
$cc -shared -fPIC -O2 -o "$dir/keep_lvp.so" tests/keep_lvp.c -ldl || exit 1
export LD_PRELOAD="$(realpath "$dir")/keep_lvp.so${LD_PRELOAD:+ $LD_PRELOAD}"
# The VP9 streams with size changes come from the native build's vp9-resize-enc (libvpx's
# encoder is not built for sanitizers: tests/meson.build).
[ -x build/tests/vp9-resize-enc ] && export V3D_VP9_RESIZE_ENC=$PWD/build/tests/vp9-resize-enc
fail=0
GST_PLUGIN_SYSTEM_PATH_1_0=$plugins \
  meson test -C "$dir" --print-errorlogs --num-processes 1 --no-suite pipelines --no-suite gst \
  --no-suite soak --logbase testlog-asan || fail=1
# GstHarness element tests (each check runs in a forked process, which LSan checks at its exit)
# and pipeline_leaks, leak detection on.
GST_PLUGIN_SYSTEM_PATH_1_0=$plugins \
  meson test -C "$dir" --print-errorlogs --num-processes 1 --suite gst \
  --logbase testlog-asan-gst || fail=1

# gst-launch-1.0 is not instrumented: preload the runtimes (ASan first) into the scripts.
unset LD_PRELOAD
preload="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0:verify_asan_link_order=0" \
  meson test -C "$dir" --print-errorlogs --num-processes 1 --suite pipelines \
  --wrapper "env LD_PRELOAD='$preload'" --logbase testlog-asan-pipelines || fail=1
exit $fail
