#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The project's main job: VP9 inverse transforms on the GPU inside a real GStreamer pipeline.
#
#   v3dvp9residualsrc (prediction frames + a valid residual meta each)
#     ! v3dvp9idct backend=gpu (Vulkan compute; Mesa's lavapipe where there is no GPU)
#     ! fakesink
#
# then prints what the element did (frames, blocks, time on each side, split, copies) from the
# "v3d-stats" message it posts at EOS, and checks the result: VERIFY_BUFFERS frames through the
# GPU must be bit-identical to the same frames through the scalar reference backend. SNAPSHOT=path
# also writes the first output frame as PNG.
#
# Usage: vp9idct-gpu.sh [NUM_BUFFERS [WIDTH HEIGHT]]
# Environment (defaults): NUM_BUFFERS (300; use e.g. 5 as a smoke test), WIDTH (1920),
# HEIGHT (1088), SEED (1), DENSITY (0.6), TX_SIZE (mixed), VERIFY_BUFFERS (3; 0 = no check),
# SNAPSHOT (unset), BACKEND (gpu), GST_PLUGIN_PATH (the build's gst/ directory),
# V3D_REQUIRE_GPU (0: exit 77, Meson's "skipped", when the backend cannot be had; 1: fail).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

NUM_BUFFERS=${1:-${NUM_BUFFERS:-300}}
WIDTH=${2:-${WIDTH:-1920}}
HEIGHT=${3:-${HEIGHT:-1088}}
SEED=${SEED:-1}
DENSITY=${DENSITY:-0.6}
TX_SIZE=${TX_SIZE:-mixed}
VERIFY_BUFFERS=${VERIFY_BUFFERS:-3}
BACKEND=${BACKEND:-gpu}
SNAPSHOT=${SNAPSHOT:-}

v3d_require_plugin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caps="video/x-raw,format=I420,width=$WIDTH,height=$HEIGHT,framerate=30/1"
src="v3dvp9residualsrc num-buffers=$NUM_BUFFERS seed=$SEED density=$DENSITY tx-size=$TX_SIZE"

echo "pipeline: $src ! $caps ! queue ! v3dvp9idct backend=$BACKEND ! fakesink"
# shellcheck disable=SC2086
if ! v3d_run "$work/run.log" $src ! "$caps" ! queue max-size-buffers=4 ! \
    v3dvp9idct name=idct backend="$BACKEND" ! fakesink sync=false; then
  # No Vulkan device at all: Meson's skip code, unless the GPU is required (CI, main job).
  if grep -q "Could not set up the v3d \"$BACKEND\" backend" "$work/run.log" &&
     [ "${V3D_REQUIRE_GPU:-0}" != 1 ]; then
    echo "SKIP: backend=$BACKEND is not available here (set V3D_REQUIRE_GPU=1 to fail instead)"
    exit 77
  fi
  exit 1
fi
v3d_report "v3dvp9idct backend=$BACKEND, ${WIDTH}x$HEIGHT, $NUM_BUFFERS frames" \
  "$work/run.log" "$NUM_BUFFERS"

if [ "$VERIFY_BUFFERS" -gt 0 ]; then
  n=$VERIFY_BUFFERS
  [ "$n" -le "$NUM_BUFFERS" ] || n=$NUM_BUFFERS
  got=$(v3d_md5 "$work" "$BACKEND" "$caps" "$SEED" "$n")
  want=$(v3d_md5 "$work" scalar "$caps" "$SEED" "$n")
  if [ "$got" != "$want" ]; then
    echo "FAIL: $n frames through backend=$BACKEND differ from the scalar reference" \
         "(md5 $got vs $want)" >&2
    exit 1
  fi
  echo "check: $n frames through backend=$BACKEND are bit-identical to the scalar reference" \
       "(md5 $got)"
fi

if [ -n "$SNAPSHOT" ]; then
  v3d_run "$work/snapshot.log" v3dvp9residualsrc num-buffers=1 seed="$SEED" density="$DENSITY" ! \
    "$caps" ! v3dvp9idct backend="$BACKEND" ! videoconvert ! pngenc ! \
    filesink location="$SNAPSHOT"
  echo "snapshot: first frame written to $SNAPSHOT"
fi
