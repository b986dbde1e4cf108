#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Fault injection through the element: v3dvp9idct in a gst-launch-1.0 pipeline with a GPU fault
# injected in the middle of the stream (V3D_FAULT, kernels/core/fault.h). The element's running
# MD5 over every output frame (checksum=true) must equal the scalar backend's: a frame dropped,
# duplicated or corrupted changes it. The frame count must be complete and the library must log
# exactly one warning. Exit 77 (skipped) without a Vulkan device unless V3D_REQUIRE_GPU=1.
#   tests/fault_pipeline.sh            GST_PLUGIN_PATH: the build's gst/ directory
# Environment: NUM_BUFFERS (12), WIDTH (250), HEIGHT (130), SEED (3).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/../pipelines/lib.sh"
N=${NUM_BUFFERS:-12}
W=${WIDTH:-250}
H=${HEIGHT:-130}
SEED=${SEED:-3}
v3d_require_plugin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caps="video/x-raw,format=I420,width=$W,height=$H"
src="v3dvp9residualsrc num-buffers=$N seed=$SEED density=0.6 tx-size=mixed"

# run NAME BACKEND FAULT: prints the checksum, checks frames and warnings.
run() {
  local name=$1 backend=$2 fault=$3 line frames warnings extra=""
  # A fixed split: the adaptive one may leave the GPU idle on some frames.
  [ "$backend" != hybrid ] || extra="gpu-share=0.5"
  # shellcheck disable=SC2086
  V3D_FAULT=$fault GST_DEBUG=v3d:2 GST_DEBUG_NO_COLOR=1 v3d_run "$work/$name.log" $src ! "$caps" ! \
    v3dvp9idct name=idct backend="$backend" $extra checksum=true ! fakesink || return 1
  line=$(v3d_stats_line "$work/$name.log")
  frames=$(v3d_field "$line" frames)
  if [ "$frames" != "$N" ]; then
    echo "FAIL: $name: $frames frames of $N" >&2
    return 1
  fi
  warnings=$(grep -c 'WARN .* v3d ' "$work/$name.log" || true)
  if [ -n "$fault" ] && [ "$warnings" != 1 ]; then
    echo "FAIL: $name: $warnings warnings from the library, 1 expected:" >&2
    grep 'WARN .* v3d ' "$work/$name.log" >&2 || true
    return 1
  fi
  v3d_field "$line" checksum
}

if ! GST_DEBUG=0 gst-launch-1.0 -q $src num-buffers=1 ! "$caps" ! v3dvp9idct backend=gpu ! \
    fakesink >/dev/null 2>&1; then
  if [ "${V3D_REQUIRE_GPU:-0}" = 1 ]; then
    echo "FAIL: no Vulkan device although V3D_REQUIRE_GPU=1" >&2
    exit 1
  fi
  echo "SKIP: no Vulkan device"
  exit 77
fi
want=$(run scalar scalar "")
fail=0
for c in "gpu device-lost:3" "gpu submit-lost:2" "hybrid gpu-timeout:3" "gpu gpu-alloc:1"; do
  set -- $c
  got=$(run "$1-$2" "$1" "$2") || { fail=1; continue; }
  if [ "$got" = "$want" ]; then
    echo "ok: backend=$1 V3D_FAULT=$2: $N frames, one warning, checksum $got = scalar"
  else
    echo "FAIL: backend=$1 V3D_FAULT=$2: checksum $got, scalar $want" >&2
    fail=1
  fi
done
exit $fail
