#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# VP9 inverse transforms split between the GPU and the CPU workers (backend=hybrid, adaptive
# split unless GPU_SHARE is set) in a GStreamer pipeline; prints the element's figures and
# frames per second, and with COMPARE=1 the same run on the CPU alone and on the GPU alone, so
# the hybrid gain can be read off. Checks, like vp9idct-gpu.sh, that VERIFY_BUFFERS frames are
# bit-identical to the scalar reference.
#
# Usage: vp9idct-hybrid.sh [NUM_BUFFERS [WIDTH HEIGHT]]
# Environment (defaults): NUM_BUFFERS (300; e.g. 5 as a smoke test), WIDTH (1920), HEIGHT (1088),
# SEED (1), DENSITY (0.6), TX_SIZE (mixed), CPU_THREADS (0 = online cores - 1), GPU_SHARE
# (unset = adaptive; 0..1 fixes it), COMPARE (1), VERIFY_BUFFERS (3; 0 = no check),
# GST_PLUGIN_PATH (the build's gst/ directory).
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
CPU_THREADS=${CPU_THREADS:-0}
GPU_SHARE=${GPU_SHARE:-}
COMPARE=${COMPARE:-1}
VERIFY_BUFFERS=${VERIFY_BUFFERS:-3}

v3d_require_plugin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caps="video/x-raw,format=I420,width=$WIDTH,height=$HEIGHT,framerate=30/1"
src="v3dvp9residualsrc num-buffers=$NUM_BUFFERS seed=$SEED density=$DENSITY tx-size=$TX_SIZE"

run_backend() {
  local backend=$1 extra=""
  [ "$backend" != hybrid ] || [ -z "$GPU_SHARE" ] || extra="gpu-share=$GPU_SHARE"
  echo "pipeline: $src ! $caps ! queue ! v3dvp9idct backend=$backend cpu-threads=$CPU_THREADS" \
       "$extra ! fakesink"
  # shellcheck disable=SC2086
  v3d_run "$work/$backend.log" $src ! "$caps" ! queue max-size-buffers=4 ! \
    v3dvp9idct name=idct backend="$backend" cpu-threads="$CPU_THREADS" $extra ! \
    fakesink sync=false
  v3d_report "v3dvp9idct backend=$backend, ${WIDTH}x$HEIGHT, $NUM_BUFFERS frames" \
    "$work/$backend.log" "$NUM_BUFFERS"
}

run_backend hybrid
if [ "$COMPARE" = 1 ]; then
  run_backend cpu
  if grep -q 'gpu-device=(string)""' "$work/hybrid.log"; then
    echo "(no GPU: hybrid ran on the CPU; skipping backend=gpu)"
  else
    run_backend gpu
  fi
  echo "== element frames/s (time inside v3dvp9idct) =="
  for b in hybrid cpu gpu; do
    [ -f "$work/$b.log" ] || continue
    line=$(v3d_stats_line "$work/$b.log")
    awk -v b="$b" -v f="$(v3d_field "$line" frames)" -v t="$(v3d_field "$line" process-time)" \
      'BEGIN { printf "  %-7s %8.1f\n", b, (t > 0 ? f / t : 0) }'
  done
fi

if [ "$VERIFY_BUFFERS" -gt 0 ]; then
  n=$VERIFY_BUFFERS
  [ "$n" -le "$NUM_BUFFERS" ] || n=$NUM_BUFFERS
  got=$(v3d_md5 "$work" hybrid "$caps" "$SEED" "$n")
  want=$(v3d_md5 "$work" scalar "$caps" "$SEED" "$n")
  if [ "$got" != "$want" ]; then
    echo "FAIL: $n frames through backend=hybrid differ from the scalar reference" \
         "(md5 $got vs $want)" >&2
    exit 1
  fi
  echo "check: $n frames through backend=hybrid are bit-identical to the scalar reference" \
       "(md5 $got)"
fi
