#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# v3dvp9lpf as a deblocking post-filter on real decoded video: makes its own low-bitrate VP9
# clip (videotestsrc ! vp9enc, libvpx from gst-plugins-good), decodes it with vp9dec and filters
# it with v3dvp9lpf (no meta: uniform grid from the level/block-size/tx-size properties):
#
#   filesrc clip.webm ! matroskademux ! vp9dec ! v3dvp9lpf level=LEVEL backend=BACKEND ! fakesink
#
# then prints what the element did (its "v3d-stats" message at EOS) and checks that
# VERIFY_BUFFERS frames through BACKEND are identical to the scalar backend's, and differ from
# the unfiltered frames (the filter did something).
#
# Usage: vp9-decode-lpf.sh [NUM_BUFFERS [WIDTH HEIGHT]]
# Environment (defaults): NUM_BUFFERS (120; e.g. 4 as a smoke test), WIDTH (640), HEIGHT (360),
# LEVEL (32), SHARPNESS (0), BLOCK_SIZE (8x8), TX_SIZE (8x8), BITRATE (bits/s, 60000: blocky),
# BACKEND (auto), VERIFY_BUFFERS (3; 0 = no check), GST_PLUGIN_PATH (the build's gst/ directory).
# Exit 77 (Meson's "skipped") when vp9enc/vp9dec/webmmux are missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

NUM_BUFFERS=${1:-${NUM_BUFFERS:-120}}
WIDTH=${2:-${WIDTH:-640}}
HEIGHT=${3:-${HEIGHT:-360}}
LEVEL=${LEVEL:-32}
SHARPNESS=${SHARPNESS:-0}
BLOCK_SIZE=${BLOCK_SIZE:-8x8}
TX_SIZE=${TX_SIZE:-8x8}
BITRATE=${BITRATE:-60000}
BACKEND=${BACKEND:-auto}
VERIFY_BUFFERS=${VERIFY_BUFFERS:-3}

v3d_require_plugin
for e in vp9enc vp9dec webmmux matroskademux; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "SKIP: element $e is missing (gstreamer1.0-plugins-good with libvpx)"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caps="video/x-raw,format=I420,width=$WIDTH,height=$HEIGHT,framerate=30/1"

echo "clip: videotestsrc num-buffers=$NUM_BUFFERS ! $caps ! vp9enc target-bitrate=$BITRATE" \
     "deadline=1 ! webmmux"
v3d_run "$work/encode.log" videotestsrc num-buffers="$NUM_BUFFERS" pattern=ball ! "$caps" ! \
  vp9enc target-bitrate="$BITRATE" deadline=1 cpu-used=8 end-usage=cbr ! webmmux ! \
  filesink location="$work/clip.webm"
echo "clip: $(stat -c %s "$work/clip.webm") bytes"

lpf="v3dvp9lpf name=lpf level=$LEVEL sharpness=$SHARPNESS block-size=$BLOCK_SIZE tx-size=$TX_SIZE"
echo "pipeline: filesrc ! matroskademux ! vp9dec ! $lpf backend=$BACKEND ! fakesink"
# shellcheck disable=SC2086
v3d_run "$work/run.log" filesrc location="$work/clip.webm" ! matroskademux ! vp9dec ! \
  $lpf backend="$BACKEND" ! fakesink sync=false
line=$(v3d_stats_line "$work/run.log" lpf)
if [ -z "$line" ]; then
  echo "error: no v3d-stats message from v3dvp9lpf" >&2
  exit 1
fi
awk -v n="$NUM_BUFFERS" -v frames="$(v3d_field "$line" frames)" \
    -v post="$(v3d_field "$line" frames-post-filter)" \
    -v pass="$(v3d_field "$line" frames-passthrough)" \
    -v pcopies="$(v3d_field "$line" padded-copies)" \
    -v backend="$(v3d_field "$line" backend)" -v threads="$(v3d_field "$line" cpu-threads)" \
    -v label="v3dvp9lpf level=$LEVEL backend=$BACKEND, ${WIDTH}x$HEIGHT" 'BEGIN {
  printf "== %s ==\n", label
  printf "  backend used     : %s (%d CPU worker threads)\n", backend, threads
  printf "  frames           : %d filtered of %d (%d post-filter, %d passed through), %d padded copies\n",
         frames, n, post, pass, pcopies
  if (frames + pass != n) { print "error: frame count mismatch" > "/dev/stderr"; exit 1 }
}'
v3d_timing "$line"

if [ "$VERIFY_BUFFERS" -gt 0 ]; then
  n=$VERIFY_BUFFERS
  [ "$n" -le "$NUM_BUFFERS" ] || n=$NUM_BUFFERS
  # RGBA rows have no padding: the file holds exactly the visible pixels.
  md5_of() {  # BACKEND LEVEL
    # shellcheck disable=SC2086
    v3d_run "$work/verify-$1-$2.log" filesrc location="$work/clip.webm" ! matroskademux ! \
      vp9dec ! identity eos-after="$n" ! \
      v3dvp9lpf level="$2" sharpness="$SHARPNESS" block-size="$BLOCK_SIZE" tx-size="$TX_SIZE" \
        backend="$1" ! videoconvert ! video/x-raw,format=RGBA ! \
      filesink location="$work/out-$1-$2.rgba"
    md5sum <"$work/out-$1-$2.rgba" | cut -d' ' -f1
  }
  got=$(md5_of "$BACKEND" "$LEVEL")
  want=$(md5_of scalar "$LEVEL")
  raw=$(md5_of scalar 0)
  if [ "$got" != "$want" ]; then
    echo "FAIL: $n frames through backend=$BACKEND differ from the scalar backend" \
         "(md5 $got vs $want)" >&2
    exit 1
  fi
  if [ "$LEVEL" -gt 0 ] && [ "$got" = "$raw" ]; then
    echo "FAIL: level=$LEVEL left the $n frames unchanged" >&2
    exit 1
  fi
  echo "check: $n frames through backend=$BACKEND are bit-identical to the scalar backend" \
       "(md5 $got) and differ from the unfiltered frames"
fi
