#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A real VP9 stream decoded by v3dvp9dec and checked frame by frame against libvpx: makes a clip
# (videotestsrc pattern=ball ! y4menc), encodes it with vpxenc as IVF and as WebM (alternate
# reference frames, so hidden frames and superframes are in it), then decodes
#
#   filesrc clip.ivf ! ivfparse ! v3dvp9dec backend=BACKEND ! y4menc ! filesink
#   filesrc clip.webm ! matroskademux ! v3dvp9dec backend=BACKEND ! y4menc ! filesink
#
# and compares every frame's MD5 with `vpxdec --i420 --md5` (one MD5 per frame), printing the
# decoder's "v3d-stats" counters and the decoding time beside avdec_vp9's when that is there.
# Then checks the rank: playbin takes v3dvp9dec with GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX, and
# not without it when libvpx's vp9dec or avdec_vp9 is there.
#
# Usage: vp9-decode.sh [NUM_BUFFERS [WIDTH HEIGHT]]
# Environment (defaults): NUM_BUFFERS (60), WIDTH (640), HEIGHT (360), BACKEND (auto),
# VPXENC_OPTS ("--good --cpu-used=4 --auto-alt-ref=1 --lag-in-frames=16 --kf-max-dist=30"),
# GST_PLUGIN_PATH (the build's gst/ directory). WIDTH is rounded up to a multiple of 8 and
# HEIGHT to an even number (see below). VERIFY_BUFFERS is accepted and ignored (every
# frame is checked). Exit 77 (Meson's "skipped") when vpxenc or vpxdec is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

NUM_BUFFERS=${1:-${NUM_BUFFERS:-60}}
WIDTH=${2:-${WIDTH:-640}}
HEIGHT=${3:-${HEIGHT:-360}}
BACKEND=${BACKEND:-auto}
VPXENC_OPTS=${VPXENC_OPTS:---good --cpu-used=4 --auto-alt-ref=1 --lag-in-frames=16 --kf-max-dist=30}

# y4menc writes GStreamer's default I420 layout as it is: it is packed (what Y4M needs) only for
# widths that are multiples of 8 and even heights, so the clip is rounded up to those (odd sizes
# are covered by tests/test_gst_vp9dec.c).
if [ $((WIDTH % 8)) -ne 0 ] || [ $((HEIGHT % 2)) -ne 0 ]; then
  echo "note: ${WIDTH}x$HEIGHT rounded up to $(((WIDTH + 7) / 8 * 8))x$(((HEIGHT + 1) / 2 * 2))" \
       "(Y4M needs packed planes)"
  WIDTH=$(((WIDTH + 7) / 8 * 8))
  HEIGHT=$(((HEIGHT + 1) / 2 * 2))
fi

v3d_require_plugin
if ! gst-inspect-1.0 v3dvp9dec >/dev/null 2>&1; then
  echo "error: element v3dvp9dec not found" >&2
  exit 1
fi
for tool in vpxenc vpxdec; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not found (vpx-tools)"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# y4m_md5s FILE: the MD5 of each frame of a 4:2:0 Y4M file ("FRAME\n" and the packed planes).
y4m_md5s() {
  local f=$1 hdr w h size total n i
  hdr=$(head -n 1 "$f" | wc -c)
  w=$(head -n 1 "$f" | tr ' ' '\n' | sed -n 's/^W//p')
  h=$(head -n 1 "$f" | tr ' ' '\n' | sed -n 's/^H//p')
  size=$((w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2)))
  total=$(stat -c %s "$f")
  n=$(((total - hdr) / (size + 6)))
  for ((i = 0; i < n; i++)); do
    dd if="$f" bs=65536 iflag=skip_bytes,count_bytes skip=$((hdr + i * (size + 6) + 6)) \
       count="$size" status=none | md5sum | cut -d' ' -f1
  done
}

caps="video/x-raw,format=I420,width=$WIDTH,height=$HEIGHT,framerate=30/1"
v3d_run "$work/src.log" videotestsrc num-buffers="$NUM_BUFFERS" pattern=ball ! "$caps" ! \
  y4menc ! filesink location="$work/src.y4m"
# shellcheck disable=SC2086
vpxenc --codec=vp9 --quiet --limit="$NUM_BUFFERS" $VPXENC_OPTS --ivf -o "$work/clip.ivf" \
  "$work/src.y4m"
# shellcheck disable=SC2086
vpxenc --codec=vp9 --quiet --limit="$NUM_BUFFERS" $VPXENC_OPTS --webm -o "$work/clip.webm" \
  "$work/src.y4m"
echo "clip: ${WIDTH}x$HEIGHT, $NUM_BUFFERS frames, vpxenc $VPXENC_OPTS:" \
     "$(stat -c %s "$work/clip.ivf") bytes (IVF)"
vpxdec --i420 --md5 -o "$work/ref-%4.i420" "$work/clip.ivf" | awk '{print $1}' >"$work/ref.md5"
rm -f "$work"/ref-*.i420
nref=$(wc -l <"$work/ref.md5")

status=0
for input in ivf webm; do
  demux=ivfparse
  [ "$input" = webm ] && demux=matroskademux
  t0=$(date +%s.%N)
  v3d_run "$work/$input.log" filesrc location="$work/clip.$input" ! $demux ! \
    v3dvp9dec name=dec backend="$BACKEND" ! y4menc ! filesink location="$work/out-$input.y4m"
  t1=$(date +%s.%N)
  y4m_md5s "$work/out-$input.y4m" >"$work/out-$input.md5"
  line=$(v3d_stats_line "$work/$input.log" dec)
  echo "== filesrc ! $demux ! v3dvp9dec backend=$BACKEND ! y4menc =="
  echo "  backend used     : $(v3d_field "$line" backend) ($(v3d_field "$line" cpu-threads) CPU" \
       "worker threads, GPU: $(v3d_field "$line" gpu-device))"
  echo "  frames           : $(v3d_field "$line" frames-shown) shown, VP9 frames decoded" \
       "$(v3d_field "$line" vp9-frames) (hidden included), errors $(v3d_field "$line" errors)"
  awk -v t0="$t0" -v t1="$t1" -v n="$nref" 'BEGIN {
    printf "  pipeline time    : %.3f s, %.1f frames/s (Y4M writing included)\n", t1 - t0,
           (t1 > t0 ? n / (t1 - t0) : 0) }'
  if cmp -s "$work/ref.md5" "$work/out-$input.md5" && [ "$nref" -gt 0 ]; then
    echo "check: all $nref frames equal to vpxdec --i420 --md5, frame by frame"
  else
    first=$(paste "$work/ref.md5" "$work/out-$input.md5" | awk '$1 != $2 {print NR - 1; exit}')
    echo "FAIL: $input: $(wc -l <"$work/out-$input.md5") frames decoded, $nref from vpxdec;" \
         "first differing frame ${first:-none}" >&2
    status=1
  fi
done

# Rank: playbin leaves v3dvp9dec alone by default and takes it once its rank is raised.
uri="file://$work/clip.webm"
GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX gst-launch-1.0 -v playbin uri="$uri" \
  video-sink=fakesink audio-sink=fakesink >"$work/playbin-max.log" 2>&1 || true
if grep -q "GstV3dVp9Dec" "$work/playbin-max.log"; then
  echo "check: playbin decodes with v3dvp9dec under GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX"
else
  echo "FAIL: playbin did not use v3dvp9dec with GST_PLUGIN_FEATURE_RANK=v3dvp9dec:MAX" >&2
  status=1
fi
if gst-inspect-1.0 avdec_vp9 >/dev/null 2>&1 || gst-inspect-1.0 vp9dec >/dev/null 2>&1; then
  gst-launch-1.0 -v playbin uri="$uri" video-sink=fakesink audio-sink=fakesink \
    >"$work/playbin.log" 2>&1 || true
  if grep -q "GstV3dVp9Dec" "$work/playbin.log"; then
    echo "FAIL: playbin chose v3dvp9dec over the other VP9 decoders at its default rank" >&2
    status=1
  else
    echo "check: at its default rank playbin prefers the other VP9 decoders"
  fi
fi

if gst-inspect-1.0 avdec_vp9 >/dev/null 2>&1; then
  t0=$(date +%s.%N)
  v3d_run "$work/avdec.log" filesrc location="$work/clip.ivf" ! ivfparse ! avdec_vp9 ! \
    y4menc ! filesink location="$work/out-avdec.y4m"
  t1=$(date +%s.%N)
  awk -v t0="$t0" -v t1="$t1" -v n="$nref" 'BEGIN {
    printf "for comparison     : avdec_vp9 in the same pipeline: %.3f s, %.1f frames/s\n",
           t1 - t0, (t1 > t0 ? n / (t1 - t0) : 0) }'
fi
exit "$status"
