#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# v3dh264deblock as a deblocking post-filter on real decoded video. Makes its own blocky clip
# (videotestsrc ! x264enc at a low bitrate with x264's in-loop deblocking off, or CODEC=mjpeg:
# jpegenc at a low quality), decodes it and deblocks it (no meta: properties), saves the result
# and a before/after side-by-side:
#
#   filesrc clip ! demux ! decoder ! v3dh264deblock PROPS backend=BACKEND ! y4menc ! deblocked.y4m
#   ... decoder ! tee ! compositor (left: as decoded, right: deblocked) ! x264enc ! side-by-side.mkv
#
# then prints what the element did (its "v3d-stats" message at EOS) and checks:
# - VERIFY_BUFFERS frames through BACKEND are identical to the scalar backend's (the element's
#   checksum property) and differ from the frames as decoded (qp=0 filters nothing);
# - real data (when the x264 and ffmpeg programs are there): all-intra Baseline H.264 streams
#   made by x264 at constant QP, decoded by FFmpeg with its loop filter skipped, become through
#   v3dh264deblock mode=intra with the streams' QP and offsets exactly FFmpeg's normal decode,
#   in I420 and NV12, through BACKEND and the scalar backend.
#
# Usage: h264-deblock.sh [NUM_BUFFERS [WIDTH HEIGHT]]
# Environment (defaults): NUM_BUFFERS (120; e.g. 4 as a smoke test), WIDTH (640), HEIGHT (360),
# CODEC (h264 | mjpeg), BITRATE (kbit/s for h264, 150), QUALITY (mjpeg, 8), FORMAT (I420 | NV12),
# PROPS ("mode=intra qp=36", e.g. "mode=inter bs=2 qp=40 transform-8x8=true"), BACKEND (auto),
# VERIFY_BUFFERS (3; 0 = no check), REAL_CHECK (1; 0 = skip the real-data check),
# OUT_DIR (a temporary directory removed at exit: set it to keep deblocked.y4m and
# side-by-side.mkv), GST_PLUGIN_PATH (the build's gst/ directory).
# Exit 77 (Meson's "skipped") when the encoder/decoder elements are missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=pipelines/lib.sh
. "$here/lib.sh"

NUM_BUFFERS=${1:-${NUM_BUFFERS:-120}}
WIDTH=${2:-${WIDTH:-640}}
HEIGHT=${3:-${HEIGHT:-360}}
CODEC=${CODEC:-h264}
BITRATE=${BITRATE:-150}
QUALITY=${QUALITY:-8}
FORMAT=${FORMAT:-I420}
PROPS=${PROPS:-mode=intra qp=36}
BACKEND=${BACKEND:-auto}
VERIFY_BUFFERS=${VERIFY_BUFFERS:-3}
REAL_CHECK=${REAL_CHECK:-1}

v3d_require_plugin
case $CODEC in
  h264) need="x264enc h264parse avdec_h264"
        enc="x264enc bitrate=$BITRATE speed-preset=ultrafast tune=zerolatency option-string=no-deblock ! h264parse"
        dec="h264parse ! avdec_h264" ;;
  mjpeg) need="jpegenc jpegdec"
         enc="jpegenc quality=$QUALITY"
         dec="jpegdec" ;;
  *) echo "error: CODEC must be h264 or mjpeg" >&2; exit 1 ;;
esac
for e in $need matroskamux matroskademux compositor y4menc x264enc; do
  if ! gst-inspect-1.0 "$e" >/dev/null 2>&1; then
    echo "SKIP: element $e is missing"
    exit 77
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=${OUT_DIR:-$work/out}
mkdir -p "$out"
caps="video/x-raw,format=I420,width=$WIDTH,height=$HEIGHT,framerate=30/1"
to_format="videoconvert ! video/x-raw,format=$FORMAT"

echo "clip: videotestsrc num-buffers=$NUM_BUFFERS pattern=zone-plate kx2=8 ky2=8 kt=2 ! $caps ! $enc ! matroskamux"
# shellcheck disable=SC2086
v3d_run "$work/encode.log" videotestsrc num-buffers="$NUM_BUFFERS" pattern=zone-plate kx2=8 ky2=8 kt=2 ! "$caps" ! \
  $enc ! matroskamux ! filesink location="$work/clip.mkv"
echo "clip: $(stat -c %s "$work/clip.mkv") bytes"
decode="filesrc location=$work/clip.mkv ! matroskademux ! $dec ! $to_format"

dbk="v3dh264deblock name=dbk $PROPS backend=$BACKEND"
echo "pipeline: $decode ! $dbk ! y4menc ! filesink location=$out/deblocked.y4m"
# shellcheck disable=SC2086
v3d_run "$work/run.log" $decode ! $dbk ! y4menc ! filesink location="$out/deblocked.y4m"
line=$(v3d_stats_line "$work/run.log" dbk)
if [ -z "$line" ]; then
  echo "error: no v3d-stats message from v3dh264deblock" >&2
  exit 1
fi
awk -v n="$NUM_BUFFERS" -v frames="$(v3d_field "$line" frames)" \
    -v mbs="$(v3d_field "$line" macroblocks)" -v chroma="$(v3d_field "$line" chroma-copies)" \
    -v backend="$(v3d_field "$line" backend)" -v threads="$(v3d_field "$line" cpu-threads)" \
    -v label="v3dh264deblock $PROPS backend=$BACKEND, $FORMAT ${WIDTH}x$HEIGHT" 'BEGIN {
  printf "== %s ==\n", label
  printf "  backend used     : %s (%d CPU worker threads)\n", backend, threads
  printf "  frames           : %d filtered of %d, %d macroblocks, %d NV12 chroma copies\n",
         frames, n, mbs, chroma
  if (frames != n) { print "error: frame count mismatch" > "/dev/stderr"; exit 1 }
}'
v3d_timing "$line"

# Before (left) and after (right), one video.
# shellcheck disable=SC2086
v3d_run "$work/side.log" $decode ! tee name=t \
  t. ! queue ! comp.sink_0 \
  t. ! queue ! v3dh264deblock $PROPS backend="$BACKEND" ! comp.sink_1 \
  compositor name=comp sink_1::xpos="$WIDTH" ! videoconvert ! \
  x264enc speed-preset=ultrafast pass=quant quantizer=12 ! matroskamux ! \
  filesink location="$out/side-by-side.mkv"
echo "saved: $out/deblocked.y4m ($(stat -c %s "$out/deblocked.y4m") bytes)," \
     "$out/side-by-side.mkv ($(stat -c %s "$out/side-by-side.mkv") bytes; left: as decoded," \
     "right: deblocked)"

if [ "$VERIFY_BUFFERS" -gt 0 ]; then
  n=$VERIFY_BUFFERS
  [ "$n" -le "$NUM_BUFFERS" ] || n=$NUM_BUFFERS
  md5_of() {  # BACKEND EXTRA-PROPS: the element's checksum of the first n frames
    local l
    # shellcheck disable=SC2086
    v3d_run "$work/verify.log" $decode ! identity eos-after="$n" ! \
      v3dh264deblock name=dbk $PROPS $2 backend="$1" checksum=true ! fakesink
    l=$(v3d_stats_line "$work/verify.log" dbk)
    v3d_field "$l" checksum
  }
  got=$(md5_of "$BACKEND" "")
  want=$(md5_of scalar "")
  raw=$(md5_of scalar "qp=0")
  if [ -z "$got" ] || [ "$got" != "$want" ]; then
    echo "FAIL: $n frames through backend=$BACKEND differ from the scalar backend" \
         "(md5 $got vs $want)" >&2
    exit 1
  fi
  if [ "$got" = "$raw" ]; then
    echo "FAIL: '$PROPS' left the $n frames unchanged" >&2
    exit 1
  fi
  echo "check: $n frames through backend=$BACKEND are bit-identical to the scalar backend" \
       "(md5 $got) and differ from the frames as decoded"
fi

if [ "$REAL_CHECK" = 1 ]; then
  if ! command -v x264 >/dev/null || ! command -v ffmpeg >/dev/null ||
     ! gst-inspect-1.0 rawvideoparse >/dev/null 2>&1; then
    echo "real data: SKIP (needs the x264 and ffmpeg programs and rawvideoparse)"
    exit 0
  fi
  # source size frames qp deblock(alpha/2:beta/2) chroma-qp-offset
  for c in "testsrc2 176x144 3 30 -2:1 2" "mandelbrot 176x144 2 42 2:-3 -4"; do
    read -r src size frames qp deblock cqp <<<"$c"
    w=${size%x*}
    h=${size#*x}
    a=$((2 * ${deblock%:*}))
    b=$((2 * ${deblock#*:}))
    ffmpeg -v error -f lavfi -i "$src=size=$size:rate=25" -frames:v "$frames" -pix_fmt yuv420p \
      -y "$work/real.y4m"
    x264 --quiet --qp "$qp" --aq-mode 0 --no-psy --ipratio 1 --keyint 1 --profile baseline \
      --deblock "$deblock" --chroma-qp-offset "$cqp" --threads 1 -o "$work/real.264" \
      "$work/real.y4m" 2>/dev/null
    ffmpeg -v error -skip_loop_filter all -i "$work/real.264" -f rawvideo -pix_fmt yuv420p \
      -y "$work/unfiltered.yuv"
    ffmpeg -v error -i "$work/real.264" -f rawvideo -pix_fmt yuv420p -y "$work/filtered.yuv"
    if cmp -s "$work/unfiltered.yuv" "$work/filtered.yuv"; then
      echo "FAIL: real data $src $size qp $qp: FFmpeg's loop filter changed nothing" >&2
      exit 1
    fi
    props="mode=intra qp=$qp alpha-offset=$a beta-offset=$b chroma-qp-offset=$cqp"
    for fmt in I420 NV12; do
      for be in "$BACKEND" scalar; do
        # shellcheck disable=SC2086
        v3d_run "$work/real.log" filesrc location="$work/unfiltered.yuv" ! \
          rawvideoparse width="$w" height="$h" format=i420 framerate=25/1 ! videoconvert ! \
          "video/x-raw,format=$fmt" ! v3dh264deblock $props backend="$be" ! videoconvert ! \
          video/x-raw,format=I420 ! filesink location="$work/deblocked.yuv"
        if ! cmp -s "$work/deblocked.yuv" "$work/filtered.yuv"; then
          echo "FAIL: real data $src $size qp $qp ($props), $fmt, backend=$be: not FFmpeg's" \
               "loop-filtered decode" >&2
          exit 1
        fi
      done
    done
    echo "real data: x264 all-intra $src $size, $frames frames, $props: FFmpeg's decode" \
         "without loop filter -> v3dh264deblock = FFmpeg's normal decode (I420, NV12;" \
         "backend=$BACKEND and scalar)"
  done
fi
