#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# libgstv3d-1.0 as an application sees it: installs the build into a scratch tree (meson install
# --destdir), compiles tests/gst_installed_app.c with only `pkg-config gstreamer-v3d-1.0` of that
# tree (its .pc files copied with prefix rewritten to the tree; system packages as they are), and
# runs it against the installed plugin and libraries (gst_installed_app.c says what it checks).
# Usage: gst_installed_lib.sh BUILD_DIR APP_SOURCE [EXTRA_CFLAGS...]. Exit 77 (skipped) only when
# no C compiler or no pkg-config is there.
set -euo pipefail
build=$1
app_src=$2
shift 2
extra_cflags=("$@")
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "no C compiler ($cc): skipped"; exit 77; }
command -v pkg-config >/dev/null 2>&1 || { echo "no pkg-config: skipped"; exit 77; }
meson=${MESON:-meson}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --no-rebuild: the test runs after the build (and beside other tests, which use the build).
"$meson" install -C "$build" --no-rebuild --quiet --destdir "$tmp/inst" >/dev/null

pc=$(find "$tmp/inst" -name gstreamer-v3d-1.0.pc | head -n1)
[ -n "$pc" ] || { echo "FAIL: gstreamer-v3d-1.0.pc not installed"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir "$tmp/pc"
for f in "$(dirname "$pc")"/*.pc; do
  sed "s|^prefix=.*|prefix=$tmp/inst$prefix|" "$f" > "$tmp/pc/$(basename "$f")"
done
export PKG_CONFIG_PATH="$tmp/pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
libdir=$(pkg-config --variable=libdir gstreamer-v3d-1.0)
plugindir=$libdir/gstreamer-1.0
echo "installed: $(cd "$tmp/inst" && find . -name '*.so*' -o -name '*.pc' -o -name '*.h' | sort | tr '\n' ' ')"
for f in "$plugindir/libgstv3d.so" "$libdir/libgstv3d-1.0.so"; do
  [ -e "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done

# The plugin exports its descriptor only; the library its API (GST_V3D_API).
exports=$(nm -D --defined-only "$plugindir/libgstv3d.so" | awk '{print $3}' | sort | tr '\n' ' ')
echo "plugin exports: $exports"
[ "$exports" = "gst_plugin_v3d_get_desc gst_plugin_v3d_register " ] ||
  { echo "FAIL: the plugin exports more than its descriptor"; exit 1; }
lib_exports=$(nm -D --defined-only "$libdir/libgstv3d-1.0.so")
grep -q ' T gst_buffer_add_v3d_h264_deblock_meta$' <<<"$lib_exports" ||
  { echo "FAIL: the library does not export gst_buffer_add_v3d_h264_deblock_meta"; exit 1; }

cflags=$(pkg-config --cflags gstreamer-v3d-1.0)
libs=$(pkg-config --libs gstreamer-v3d-1.0)
echo "cflags: $cflags"
echo "libs: $libs"
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Werror "${extra_cflags[@]}" -o "$tmp/app" "$app_src" $cflags $libs

export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# (whole outputs captured first: grep -q ends early, and pipefail would count the writer's SIGPIPE)
deps=$(ldd "$tmp/app")
grep -q "libgstv3d-1.0.so.0 => $libdir/" <<<"$deps" ||
  { echo "FAIL: the app does not load the installed libgstv3d-1.0"; echo "$deps"; exit 1; }
export GST_PLUGIN_PATH="$plugindir"
export GST_REGISTRY="$tmp/registry.dat"
"$tmp/app" "$plugindir"
