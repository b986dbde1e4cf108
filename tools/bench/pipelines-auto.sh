#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Benchmark (not a test): each element in a 1920x1080 gst-launch pipeline with backend=auto
# against backend=cpu and backend=gpu, frames/s over the whole pipeline, best of REPEAT runs.
#   tools/bench/pipelines-auto.sh [BUILD_DIR] [FRAMES] [REPEAT]
# Prints a Markdown table: element, frames/s per backend, auto / faster single side.
set -euo pipefail
build=${1:-build}
frames=${2:-60}
repeat=${3:-3}
export GST_PLUGIN_PATH=$PWD/$build/gst
export GST_REGISTRY=${TMPDIR:-/tmp}/v3d-bench-registry.bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=1920 h=1080
raw=$tmp/in.i420
gst-launch-1.0 -q videotestsrc pattern=snow num-buffers="$frames" ! \
  video/x-raw,format=I420,width=$w,height=$h ! filesink location="$raw"
# Read once so that the file is in the page cache for every run.
cat "$raw" >/dev/null

src_raw="filesrc location=$raw blocksize=$((w * h * 3 / 2)) ! rawvideoparse width=$w height=$h format=i420 framerate=25/1"
run() {  # run BACKEND ELEMENT-LINE SOURCE -> frames/s (best of repeat)
  local best=0 t0 t1 fps
  for _ in $(seq "$repeat"); do
    t0=$(date +%s.%N)
    gst-launch-1.0 -q $3 ! $2 backend="$1" ! fakesink sync=false >/dev/null
    t1=$(date +%s.%N)
    fps=$(python3 -c "print(f'{$frames / ($t1 - $t0):.1f}')")
    best=$(python3 -c "print(max($best, $fps))")
  done
  echo "$best"
}
echo "| element | cpu | gpu | auto | auto / faster single side |"
echo "|---|---|---|---|---|"
for e in "v3dh264deblock qp=36" "v3dvp9lpf level=32" "v3dvp9idct"; do
  if [ "${e%% *}" = v3dvp9idct ]; then
    src="v3dvp9residualsrc num-buffers=$frames ! video/x-raw,width=$w,height=1088"
  else
    src=$src_raw
  fi
  c=$(run cpu "$e" "$src"); g=$(run gpu "$e" "$src"); a=$(run auto "$e" "$src")
  r=$(python3 -c "print(f'{$a / max($c, $g):.2f}')")
  echo "| ${e%% *} | $c | $g | $a | $r |"
done
