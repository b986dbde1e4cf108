#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs on the device machine (no vpxenc/vpxdec there): every IVF stream of STREAMS_DIR through
# v3d-vp9dec on each backend and thread count, its per-frame MD5s against NAME.md5 (vpxdec's,
# made where libvpx is installed), then frames/s and CPU time per frame of --null decodes.
#   device-vp9dec.sh BUILD_DIR STREAMS_DIR [THREADS...]
set -u
build=$1 dir=$2
shift 2
threads=${*:-1 2 $(nproc)}
dec=$build/tools/v3d-vp9dec
pass=0 fail=0
for ivf in "$dir"/*.ivf; do
  n=$(basename "$ivf" .ivf)
  for b in scalar cpu gpu hybrid auto; do
    for t in $threads; do
      [ "$b" = scalar ] && [ "$t" != 1 ] && continue
      if "$dec" --backend "$b" --threads "$t" --framemd5 "$ivf" 2>/tmp/err | grep -v '^#' | cut -f2 |
         cmp -s - "$dir/$n.md5"; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1)); echo "FAIL $n backend $b threads $t: $(head -c 200 /tmp/err)"
      fi
    done
  done
done
echo "exactness: $pass passed, $fail failed"
first=$(ls "$dir"/*.ivf | head -n 1)
for b in cpu hybrid auto; do
  t0=$(date +%s%N)
  "$dec" --backend "$b" --frames 1 --null "$first" >/dev/null 2>&1
  echo "start-up and one frame, backend $b: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
done
echo "| stream | backend | threads | frames/s | CPU ms/frame |"
echo "|---|---|---|---|---|"
for ivf in "$dir"/*.ivf; do
  n=$(basename "$ivf" .ivf)
  frames=$(wc -l <"$dir/$n.md5")
  for b in cpu hybrid auto; do
    for t in $threads; do
      best=0 cpu=0
      for _ in 1 2 3; do
        s=$(python3 - "$dec" "$b" "$t" "$ivf" <<'PY'
import resource, subprocess, sys, time
t0 = time.perf_counter()
subprocess.run([sys.argv[1], "--backend", sys.argv[2], "--threads", sys.argv[3], "--null", sys.argv[4]],
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
wall = time.perf_counter() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, ru.ru_utime + ru.ru_stime)
PY
)
        read -r wall c <<<"$s"
        best=$(python3 -c "w=$wall; b=$best; print(w if b == 0 or w < b else b)")
        [ "$best" = "$wall" ] && cpu=$c
      done
      python3 -c "print(f'| $n | $b | $t | {$frames / $best:.1f} | {1000 * $cpu / $frames:.2f} |')"
    done
  done
done
exit $((fail > 0))
