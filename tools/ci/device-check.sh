#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs on the device machine (a 16-core host with an NVIDIA GPU and no GStreamer, see
# docs/benchmarks.md): the kernel tests and v3d-bench from a build made elsewhere and carried
# there, with the Vulkan loader unpacked from .gl/*.deb when the host lacks one.
#
#   tools/ci/device-check.sh [--tests-only | --bench-only] [BUILD_DIR [v3d-bench options...]]
#
# BUILD_DIR (default build-dev) must be configured with -Dgst=disabled -Dvulkan=enabled. Output:
# the tests' last lines and v3d-bench's tables on stdout; $OUT/bench.json and $OUT/tests.txt when
# OUT is set (the device tool's output folder). Tests run with V3D_REQUIRE_GPU=1 (a missing GPU
# fails them) and V3D_TEST_THREADS = online cores - 1.
set -u
mode=all
case "${1:-}" in
  --tests-only) mode=tests; shift ;;
  --bench-only) mode=bench; shift ;;
esac
build=${1:-build-dev}
[ $# -gt 0 ] && shift
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

if ! ldconfig -p | grep -q libvulkan.so.1 && ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
if [ -z "${VK_DRIVER_FILES:-}" ] && [ ! -e /usr/share/vulkan/icd.d/nvidia_icd.json ] &&
   [ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export LD_LIBRARY_PATH="$PWD/$build/kernels${PWD:+:$PWD/.devlibs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
threads=$(( $(nproc) - 1 ))
[ "$threads" -ge 1 ] || threads=1
echo "host: $(nproc) cores; $(command -v nvidia-smi >/dev/null && nvidia-smi -L | head -n 1)"

status=0
if [ "$mode" != bench ]; then
  : >"$out/tests.txt"
  for t in "$build"/tests/test_*; do
    [ -f "$t" ] && [ -x "$t" ] || continue
    case "$t" in *gst*|*_real) continue ;; esac  # GStreamer tests; helpers run by scripts
    if [ "$(basename "$t")" = test_faults ]; then  # one run per injected fault
      for s in no-loader no-device device-lost device-lost-batch device-lost-meet device-lost-h264-batch device-lost-split submit-lost \
               gpu-timeout gpu-alloc thread side-thread host-uncached host-uncached-gpu shared-default \
               shared-plain; do
        V3D_REQUIRE_GPU=1 "$t" "$s" >"$out/faults-$s.log" 2>&1
        rc=$?
        printf '%-28s rc=%d  %s\n' "faults $s" "$rc" "$(tail -n 1 "$out/faults-$s.log")" |
          tee -a "$out/tests.txt"
        [ "$rc" -eq 0 ] || status=1
      done
      continue
    fi
    start=$(date +%s%N)
    V3D_REQUIRE_GPU=1 V3D_TEST_THREADS=$threads "$t" >"$out/$(basename "$t").log" 2>&1
    rc=$?
    line=$(grep -E "[0-9]+ passed, [0-9]+ failed" "$out/$(basename "$t").log" | tail -n 1)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf '%-28s rc=%d  %s  (%d ms)\n' "$(basename "$t")" "$rc" "$line" "$ms" |
      tee -a "$out/tests.txt"
    if [ "$rc" -ne 0 ]; then
      status=1
      grep -m 5 FAIL "$out/$(basename "$t").log"
    fi
  done
fi
if [ "$mode" != tests ]; then
  "$build/tools/v3d-bench" --json "$out/bench.json" "$@" || status=1
fi
exit "$status"
