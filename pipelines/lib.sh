# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared helpers of the pipelines/*.sh scripts (sourced, not run). Needs bash, gst-launch-1.0,
# awk, md5sum. GST_PLUGIN_PATH is used as given (point it at the build's gst/ directory).

# Fails early, with a hint, when the v3d plugin cannot be found.
v3d_require_plugin() {
  if ! gst-inspect-1.0 v3dvp9idct >/dev/null 2>&1; then
    echo "error: element v3dvp9idct not found (GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-unset});" \
         "set GST_PLUGIN_PATH to the build's gst/ directory" >&2
    exit 1
  fi
}

# v3d_field LINE NAME: value of field NAME in a serialized GstStructure line (quotes and
# backslash escapes removed).
v3d_field() {
  printf '%s\n' "$1" | sed -n "s/.*[ ,]$2=([a-z0-9]*)\(\"\([^\"]*\)\"\|[^,;]*\).*/\1/p" |
    sed 's/^"//; s/"$//; s/\\//g'
}

# v3d_run LOG PIPELINE...: runs gst-launch-1.0 -m with the pipeline, output in LOG; fails with
# the log's tail on error.
v3d_run() {
  local log=$1
  shift
  if ! gst-launch-1.0 -m "$@" >"$log" 2>&1 || grep -q '^ERROR' "$log"; then
    echo "error: pipeline failed: gst-launch-1.0 $*" >&2
    tail -n 20 "$log" >&2
    return 1
  fi
}

# v3d_stats_line LOG [ELEMENT]: the v3d-stats element message the element posted at EOS.
v3d_stats_line() {
  grep "from element \"${2:-idct}\".*v3d-stats" "$1" | tail -n 1
}

# v3d_timing LINE: the element's time and the pipeline's rate, from the v3d-stats line of a
# filter element (fields frames, process-time, stream-time).
v3d_timing() {
  awk -v frames="$(v3d_field "$1" frames)" -v tproc="$(v3d_field "$1" process-time)" \
      -v tstream="$(v3d_field "$1" stream-time)" 'BEGIN {
    printf "  element          : %.3f s in the element, %.3f ms per frame, %.1f frames/s\n",
           tproc, 1000 * tproc / (frames > 0 ? frames : 1), (tproc > 0 ? frames / tproc : 0)
    if (frames > 1 && tstream > 0)
      printf "  pipeline         : %.1f frames/s (first to last frame, upstream included)\n",
             (frames - 1) / tstream
  }'
}

# v3d_report LABEL LOG FRAMES: prints what the element named "idct" did, from its stats message.
v3d_report() {
  local label=$1 log=$2 frames=$3 line
  line=$(v3d_stats_line "$log")
  if [ -z "$line" ]; then
    echo "error: no v3d-stats message in $log" >&2
    return 1
  fi
  awk -v label="$label" -v n="$frames" \
      -v frames="$(v3d_field "$line" frames)" -v blocks="$(v3d_field "$line" blocks)" \
      -v backend="$(v3d_field "$line" backend)" -v gpu="$(v3d_field "$line" gpu-device)" \
      -v threads="$(v3d_field "$line" cpu-threads)" \
      -v bcpu="$(v3d_field "$line" blocks-cpu)" -v bgpu="$(v3d_field "$line" blocks-gpu)" \
      -v tcpu="$(v3d_field "$line" cpu-time)" -v tgpu="$(v3d_field "$line" gpu-time)" \
      -v share="$(v3d_field "$line" gpu-share)" -v copies="$(v3d_field "$line" copies)" \
      -v pcopies="$(v3d_field "$line" padded-copies)" \
      -v subs="$(v3d_field "$line" gpu-submissions)" \
      -v tproc="$(v3d_field "$line" process-time)" \
      -v tstream="$(v3d_field "$line" stream-time)" 'BEGIN {
    f = frames > 0 ? frames : 1
    printf "== %s ==\n", label
    printf "  backend used     : %s (GPU: %s, %d CPU worker threads)\n", backend,
           (gpu == "" ? "none" : gpu), threads
    printf "  frames           : %d of %d, %d blocks (%.0f per frame)\n", frames, n, blocks,
           blocks / f
    printf "  blocks CPU / GPU : %d / %d (GPU fraction of blocks %.3f; last frame GPU share %.3f)\n",
           bcpu, bgpu, ((bcpu + bgpu) > 0 ? bgpu / (bcpu + bgpu) : 0), share
    printf "  time CPU side    : %.3f s total, %.3f ms per frame\n", tcpu, 1000 * tcpu / f
    printf "  time GPU side    : %.3f s total, %.3f ms per frame (%d submissions)\n", tgpu,
           1000 * tgpu / f, subs
    printf "  copies           : %d plane copies to GPU memory, %d padded copies\n", copies,
           pcopies
    printf "  element          : %.3f s in the element, %.3f ms per frame, %.1f frames/s\n",
           tproc, 1000 * tproc / f, (tproc > 0 ? frames / tproc : 0)
    if (frames > 1 && tstream > 0)
      printf "  pipeline         : %.1f frames/s (first to last frame, source included)\n",
             (frames - 1) / tstream
    if (frames != n) { print "error: frame count mismatch" > "/dev/stderr"; exit 1 }
  }'
}

# v3d_md5 LOG-DIR BACKEND CAPS SEED N: MD5 of the visible pixels of N frames of the source through
# v3dvp9idct backend=BACKEND (the element's checksum property: padding bytes, whose content is
# undefined, are left out).
v3d_md5() {
  local dir=$1 backend=$2 caps=$3 seed=$4 n=$5 line
  v3d_run "$dir/verify-$backend.log" \
    v3dvp9residualsrc num-buffers="$n" seed="$seed" density="${DENSITY:-0.6}" \
      tx-size="${TX_SIZE:-mixed}" ! "$caps" ! \
    v3dvp9idct name=idct backend="$backend" checksum=true ! fakesink
  line=$(v3d_stats_line "$dir/verify-$backend.log")
  line=$(v3d_field "$line" checksum)
  if [ -z "$line" ]; then
    echo "error: no checksum in the stats of backend=$backend" >&2
    return 1
  fi
  echo "$line"
}
