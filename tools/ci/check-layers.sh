#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Checks the kernel library's layering (docs/architecture.md, "Layers"):
#   runtime/ <- threads/ <- gpu/ <- sched/ <- families (vp9/itx/, vp9/lpf/, vp9/ipred/, vp9/mc/,
#   h264/deblock/) <- decoders (vp9/dec/)
# A file may include headers of its own layer and of the layers below it only; no file outside a
# codec folder names a codec header; a family includes no other family's headers (shared SIMD
# helpers live in simd/, which families alone use); a decoder includes only its own codec's
# families; no source file in kernels/ is over 700 lines.
# Usage: check-layers.sh [KERNELS_DIR]. Prints every violation; exit 1 if any, else 0.
set -u
dir=${1:-$(dirname "$0")/../kernels}
cd "$dir" || exit 2

rank() {  # the layer of a path inside kernels/ (include "x/y.h" or a file x/y.cpp)
  case $1 in
    runtime/*) echo 0 ;; threads/*) echo 1 ;; gpu/*) echo 2 ;; sched/*) echo 3 ;;
    simd/*) echo 4 ;; vp9/dec/*) echo 6 ;; vp9/*|h264/*) echo 5 ;; *) echo -1 ;;
  esac
}
family() {  # vp9/itx/a.h -> vp9/itx; empty outside the families
  case $1 in vp9/*|h264/*) echo "${1%/*}" ;; *) echo "" ;; esac
}

bad=0
while IFS= read -r f; do
  fr=$(rank "$f")
  fam=$(family "$f")
  [ "$fr" -lt 0 ] && continue
  while IFS= read -r inc; do
    ir=$(rank "$inc")
    [ "$ir" -lt 0 ] && continue   # v3d/v3d.h, shader headers, system headers
    if [ "$ir" -gt "$fr" ]; then
      echo "$f: includes \"$inc\" from a layer above its own"; bad=1
    elif [ "$ir" -eq 5 ] && [ "$fr" -eq 6 ] && [ "${inc%%/*}" != "${f%%/*}" ]; then
      echo "$f: includes \"$inc\", another codec's header"; bad=1
    elif [ "$ir" -eq 5 ] && [ "$fr" -eq 5 ] && [ "$(family "$inc")" != "$fam" ]; then
      echo "$f: includes \"$inc\", another family's header"; bad=1
    elif [ "$ir" -eq 4 ] && [ "$fr" -ne 5 ] && [ "$fr" -ne 4 ]; then
      echo "$f: includes \"$inc\" (simd/ is for the families)"; bad=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
  # Highway's per-target re-inclusion names the file itself.
  while IFS= read -r inc; do
    [ "$inc" = "$f" ] || { echo "$f: HWY_TARGET_INCLUDE \"$inc\" is not this file"; bad=1; }
  done < <(sed -n 's/^#define HWY_TARGET_INCLUDE "\([^"]*\)".*/\1/p' "$f")
done < <(find runtime threads gpu sched simd vp9 h264 -name '*.h' -o -name '*.cpp' | sort)

while read -r n f; do
  [ "$f" = total ] && continue
  if [ "$n" -gt 700 ]; then echo "$f: $n lines (at most 700)"; bad=1; fi
done < <(find . -name '*.h' -o -name '*.cpp' | xargs wc -l)

[ $bad -eq 0 ] && echo "layers: ok"
exit $bad
