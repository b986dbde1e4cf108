#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: deblocking real decoded video end to end. Makes a blocky low-bitrate MPEG-2 clip
# (ffmpeg's mandelbrot zoom, 8x8 DCT blocks, as from an old broadcast or DVD), decodes it with
# avdec_mpeg2video straight into the v3d pool and deblocks it with v3dvp9lpf (VP9 loop filter as
# a post-filter) and, when the plugin has it, v3dh264deblock (H.264 deblocking as a post-filter):
#
#   filesrc ! mpegvideoparse ! avdec_mpeg2video ! v3dvp9lpf backend=B ! fakesink
#
# For each element and backend it prints frames/s, CPU time per frame (the whole process: decoder,
# GStreamer, the element and, with lavapipe, the "GPU"), the element's own time per frame and the
# GPU's share; checks that every backend's first VERIFY_BUFFERS frames are bit-identical to the
# scalar backend's and differ from the unfiltered ones; writes OUT_DIR/before-after.png (a zoomed
# crop of one frame: decoded | v3dvp9lpf | v3dh264deblock) and OUT_DIR/deblocked.mkv (the
# v3dvp9lpf result re-encoded nearly losslessly with x264 to be viewable).
#
# Usage: deblock-showcase.sh [OUT_DIR]       (default: ./showcase-out)
# Environment (defaults): NUM_BUFFERS (120), WIDTH (1920), HEIGHT (1080), BITRATE (ffmpeg -b:v,
# 1200k: blocky at 1080p), LEVEL (v3dvp9lpf level, 36), QP (v3dh264deblock qp, 36),
# BACKENDS ("cpu gpu hybrid hybrid:4 auto"; B:N = backend B with max-frames-in-flight=N),
# VERIFY_BUFFERS (4), PNG_FRAME (frame shown, 12),
# WRITE_RESULT (1; 0 = no mkv), GST_PLUGIN_PATH (the build's gst/ directory).
# Exit 77 (Meson's "skipped") when ffmpeg, mpegvideoparse or avdec_mpeg2video is missing; a
# backend that needs a GPU is skipped (and said so) when there is none, unless V3D_REQUIRE_GPU=1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

OUT_DIR=${1:-${OUT_DIR:-showcase-out}}
NUM_BUFFERS=${NUM_BUFFERS:-120}
WIDTH=${WIDTH:-1920}
HEIGHT=${HEIGHT:-1080}
BITRATE=${BITRATE:-1200k}
LEVEL=${LEVEL:-36}
QP=${QP:-36}
BACKENDS=${BACKENDS:-cpu gpu hybrid hybrid:4 auto}

# backend_props B[:N]: the element properties of a BACKENDS entry.
backend_props() {
  case "$1" in
    *:*) echo "backend=${1%%:*} max-frames-in-flight=${1#*:}" ;;
    *) echo "backend=$1" ;;
  esac
}
VERIFY_BUFFERS=${VERIFY_BUFFERS:-4}
PNG_FRAME=${PNG_FRAME:-12}
WRITE_RESULT=${WRITE_RESULT:-1}

v3d_require_plugin
if ! command -v ffmpeg >/dev/null 2>&1; then
  echo "SKIP: ffmpeg is missing (it makes the MPEG-2 clip)"
  exit 77
fi
for e in mpegvideoparse avdec_mpeg2video compositor videocrop videoscale pngenc; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "SKIP: element $e is missing (gstreamer1.0-plugins-bad / -libav / -base / -good)"
    exit 77
  fi
done
mkdir -p "$OUT_DIR"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "$PNG_FRAME" -lt "$NUM_BUFFERS" ] || PNG_FRAME=$((NUM_BUFFERS - 1))

# ---- the clip ----
ffmpeg -nostdin -loglevel error -y -f lavfi -i "mandelbrot=size=${WIDTH}x${HEIGHT}:rate=30" \
  -frames:v "$NUM_BUFFERS" -c:v mpeg2video -b:v "$BITRATE" -g 30 -bf 2 "$work/clip.m2v"
echo "clip: ${WIDTH}x$HEIGHT, $NUM_BUFFERS frames of mandelbrot, MPEG-2 at $BITRATE:" \
     "$(stat -c %s "$work/clip.m2v") bytes"
decode="filesrc location=$work/clip.m2v ! mpegvideoparse ! avdec_mpeg2video"

elements=("v3dvp9lpf level=$LEVEL")
if gst-inspect-1.0 v3dh264deblock >/dev/null 2>&1; then
  elements+=("v3dh264deblock mode=intra qp=$QP transform-8x8=true")
else
  echo "note: v3dh264deblock is not in this build; showing v3dvp9lpf only"
fi
have_gpu=1
if ! gst-launch-1.0 -q videotestsrc num-buffers=1 ! video/x-raw,width=64,height=64 ! \
     v3dvp9lpf backend=gpu ! fakesink >/dev/null 2>&1; then
  have_gpu=0
  if [ "${V3D_REQUIRE_GPU:-0}" = 1 ]; then
    echo "error: V3D_REQUIRE_GPU=1 but backend=gpu cannot run (no Vulkan device)" >&2
    exit 1
  fi
  echo "note: no usable Vulkan device: the gpu and hybrid rows are skipped"
fi

# timed LOG PIPELINE...: runs gst-launch-1.0 -m; "real user sys" seconds go to LOG.time.
timed() {
  local log=$1
  shift
  local TIMEFORMAT='%R %U %S'
  { time v3d_run "$log" "$@"; } 2>"$log.time"
}

# ---- speed per backend ----
# twice: the first run warms the caches
# shellcheck disable=SC2086
timed "$work/decode.log" $decode ! fakesink sync=false
# shellcheck disable=SC2086
timed "$work/decode.log" $decode ! fakesink sync=false
read -r dreal duser dsys <"$work/decode.log.time"
printf '\n%-40s %-14s %8s %11s %13s %11s %10s %9s %9s\n' \
  "element (${WIDTH}x$HEIGHT, $NUM_BUFFERS frames)" backend "frames/s" "CPU ms/fr" "CPU ms/fr +" \
  "element ms" "kernel ms" "overhead" "GPU share"
printf '%-40s %-14s %8s %11s %13s %11s %10s %9s %9s\n' "" "" "" "(process)" "over decode" \
  "per frame" "per frame" "" ""
awk -v n="$NUM_BUFFERS" -v r="$dreal" -v u="$duser" -v s="$dsys" 'BEGIN {
  printf "%-40s %-14s %8.1f %11.2f %13s %11s %10s %9s %9s\n", "(decode only)", "-", n / r,
         1000 * (u + s) / n, "-", "-", "-", "-", "-" }'
for el in "${elements[@]}"; do
  for b in $BACKENDS; do
    if [ "$have_gpu" = 0 ] && { [ "${b%%:*}" = gpu ] || [ "${b%%:*}" = hybrid ]; }; then continue; fi
    # shellcheck disable=SC2086
    timed "$work/run-$b.log" $decode ! $el name=el $(backend_props "$b") ! fakesink sync=false
    read -r real user sys <"$work/run-$b.log.time"
    line=$(v3d_stats_line "$work/run-$b.log" el)
    if [ -z "$line" ]; then
      echo "error: no v3d-stats message from ${el%% *} backend=$b" >&2
      exit 1
    fi
    awk -v n="$NUM_BUFFERS" -v r="$real" -v u="$user" -v s="$sys" -v du="$duser" -v ds="$dsys" \
        -v el="$el" -v b="$b" -v used="$(v3d_field "$line" backend)" \
        -v frames="$(v3d_field "$line" frames)" -v tproc="$(v3d_field "$line" process-time)" \
        -v bcpu="$(v3d_field "$line" blocks-cpu)" -v bgpu="$(v3d_field "$line" blocks-gpu)" \
        -v tcpu="$(v3d_field "$line" cpu-time)" -v tgpu="$(v3d_field "$line" gpu-time)" \
        -v cframes="$(v3d_field "$line" context-frames)" \
        -v tcopy="$(v3d_field "$line" input-copy-time)" 'BEGIN {
      f = frames > 0 ? frames : 1
      cf = cframes > 0 ? cframes : 1
      share = (bcpu + bgpu) > 0 ? bgpu / (bcpu + bgpu) : 0
      split(b, parts, ":")
      label = (used != parts[1] ? b "->" used : b)
      # Kernel time: the longer side of each frame (the two sides overlap), from the context.
      kernel = (tcpu > tgpu ? tcpu : tgpu) / cf
      over = (tproc + tcopy) / f - kernel
      printf "%-40s %-14s %8.1f %11.2f %13.2f %11.3f %10.3f %8.1f%% %9.2f\n", el, label, n / r,
             1000 * (u + s) / n, 1000 * ((u + s) - (du + ds)) / n, 1000 * tproc / f,
             1000 * kernel, (kernel > 0 ? 100 * over / kernel : 0), share
      if (frames != n) { print "error: " frames " of " n " frames filtered" > "/dev/stderr"; exit 1 }
    }'
  done
done
echo "(CPU ms/fr: user+sys time of the whole gst-launch-1.0 process per frame; with lavapipe the"
echo " \"GPU\" is CPU threads too. element ms: time inside the element's transform per frame;"
echo " kernel ms: time inside the library's frame function (the longer of its CPU and GPU sides);"
echo " overhead: (element + input copy - kernel) / kernel: GStreamer, mapping, the copy of read-only"
echo " decoder frames (references the decoder keeps) into the element's pool, scheduling.)"

# ---- exactness: every backend equals the scalar backend, end to end ----
if [ "$VERIFY_BUFFERS" -gt 0 ]; then
  n=$VERIFY_BUFFERS
  [ "$n" -le "$NUM_BUFFERS" ] || n=$NUM_BUFFERS
  md5_of() {  # ELEMENT BACKEND
    # shellcheck disable=SC2086
    v3d_run "$work/verify.log" $decode ! identity eos-after="$n" ! $1 $(backend_props "$2") ! \
      videoconvert ! video/x-raw,format=RGBA ! filesink location="$work/out.rgba"
    md5sum <"$work/out.rgba" | cut -d' ' -f1
  }
  # shellcheck disable=SC2086
  v3d_run "$work/verify.log" $decode ! identity eos-after="$n" ! videoconvert ! \
    video/x-raw,format=RGBA ! filesink location="$work/out.rgba"
  raw=$(md5sum <"$work/out.rgba" | cut -d' ' -f1)
  for el in "${elements[@]}"; do
    want=$(md5_of "$el" scalar)
    if [ "$want" = "$raw" ]; then
      echo "FAIL: ${el%% *} left the first $n frames unchanged" >&2
      exit 1
    fi
    for b in $BACKENDS; do
      if [ "$have_gpu" = 0 ] && { [ "${b%%:*}" = gpu ] || [ "${b%%:*}" = hybrid ]; }; then continue; fi
      got=$(md5_of "$el" "$b")
      if [ "$got" != "$want" ]; then
        echo "FAIL: $n frames through ${el%% *} backend=$b differ from the scalar backend" >&2
        exit 1
      fi
    done
    echo "check: ${el%% *}: $n decoded frames bit-identical on backends scalar $BACKENDS," \
         "and changed by the filter"
  done
fi

# ---- before/after picture: a 2x zoom of a crop of frame PNG_FRAME ----
cw=$((WIDTH / 4 / 2 * 2))
ch=$((HEIGHT / 4 / 2 * 2))
left=$(((WIDTH - cw) / 2 / 2 * 2))
top=$(((HEIGHT - ch) / 2 / 2 * 2))
crop="videocrop left=$left top=$top right=$((WIDTH - cw - left)) bottom=$((HEIGHT - ch - top))"
zoom="videoscale method=nearest-neighbour ! video/x-raw,width=$((2 * cw)),height=$((2 * ch))"
branches="t. ! queue ! $crop ! $zoom ! comp.sink_0"
i=1
for el in "${elements[@]}"; do
  branches="$branches t. ! queue ! $el backend=auto ! $crop ! $zoom ! comp.sink_$i"
  pads="${pads:-} sink_$i::xpos=$((i * 2 * cw))"
  i=$((i + 1))
done
# shellcheck disable=SC2086
v3d_run "$work/png.log" $decode ! identity eos-after=$((PNG_FRAME + 1)) ! tee name=t \
  compositor name=comp $pads ! videoconvert ! video/x-raw,format=RGB ! pngenc ! \
  multifilesink location="$work/frame-%03d.png" \
  $branches
last=$(ls "$work"/frame-*.png | tail -n 1)
cp "$last" "$OUT_DIR/before-after.png"
echo "picture: $OUT_DIR/before-after.png (frame $PNG_FRAME, ${cw}x$ch crop zoomed 2x:" \
     "decoded | ${elements[*]%% *})"

# ---- the deblocked clip ----
if [ "$WRITE_RESULT" = 1 ] && gst-inspect-1.0 x264enc >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  v3d_run "$work/result.log" $decode ! ${elements[0]} backend=auto ! videoconvert ! \
    x264enc pass=quant quantizer=10 speed-preset=ultrafast ! h264parse ! matroskamux ! \
    filesink location="$OUT_DIR/deblocked.mkv"
  echo "result: $OUT_DIR/deblocked.mkv (${elements[0]%% *}, re-encoded with x264 at quantizer 10)"
fi
