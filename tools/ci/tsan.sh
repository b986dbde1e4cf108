#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# ThreadSanitizer build (build-tsan, unoptimized: Highway code compiles in minutes, not tens of
# minutes) and run of the tests that exercise threads: the scheduler and frame-level tests
# (worker pool, hybrid CPU+GPU split, feeder thread, wavefronts) and the fault-injection tests;
# with --gst also the GStreamer element tests (streaming threads, shared context) and
# pipeline_leaks. By hand, not in CI. The element tests' reports are read by hand: GLib 2.74's
# GMutex/GCond/GAsyncQueue wait on futexes directly, which TSan does not see, so every buffer
# or meta handed from a streaming thread to the test through GLib shows up as a "race"
# (docs/reliability.md); tests/tsan.supp only hides lavapipe/LLVM.
#   tools/ci/tsan.sh [--gst] [TEST...]   default: the list below
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
dir=build-tsan
opts=(-Dvulkan=enabled -Dgst=enabled -Dtests=enabled -Dbench=disabled -Dbuildtype=debug
      -Db_sanitize=thread -Db_lundef=false)
if [ -d "$dir/meson-info" ]; then  # reuse the tree (a rebuild from scratch takes minutes)
  meson configure "$dir" "${opts[@]}" || exit 1
else
  meson setup "$dir" "${opts[@]}" || exit 1
fi
ninja -C "$dir" -j"$(nproc)" || exit 1
gst=()
if [ "${1:-}" = "--gst" ]; then
  gst=(gst_vp9idct gst_vp9lpf gst_h264deblock pipeline_leaks)
  shift
fi
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(threads_pool threads_wavefront vp9_itx_frame vp9_lpf_frame h264_deblock_frame sched_split_controller
                                  fault_thread fault_device_lost fault_gpu_timeout)
tests+=("${gst[@]}")
export TSAN_OPTIONS="halt_on_error=0:second_deadlock_stack=1:history_size=4:suppressions=$PWD/tests/tsan.supp"
export GST_REGISTRY_FORK=no
# Element tests: no fork per check (TSan's runtime does not survive gst-check's fork with
# threads running), and only the system plugins they use ($plugins).
export CK_FORK=no
# shellcheck source=tools/ci/min_plugins.sh
. tools/ci/min_plugins.sh
export GST_PLUGIN_SYSTEM_PATH_1_0=$plugins
export V3D_TEST_ITERS=${V3D_TEST_ITERS:-0.25}
export V3D_REQUIRE_GPU=1
meson test -C "$dir" --print-errorlogs --num-processes 1 --logbase testlog-tsan "${tests[@]}"
rc=$?
# TSan reports go to each test's output (testlog-tsan.txt); halt_on_error=0 lets a test finish.
echo "ThreadSanitizer reports: $(grep -c 'WARNING: ThreadSanitizer' "$dir/meson-logs/testlog-tsan.txt")"
grep -A12 'WARNING: ThreadSanitizer' "$dir/meson-logs/testlog-tsan.txt" | grep -E '^ +#[0-9] ' |
  sort | uniq -c | sort -rn | head -20
exit $rc
