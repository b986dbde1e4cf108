# shellcheck shell=bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by tools/ci/asan.sh and tools/ci/tsan.sh: sets $plugins to a temporary directory (removed
# at exit) holding links to only the system GStreamer plugins the element tests use
# (coreelements, videotestsrc, app; ivfparse, matroska, videoparsersbad and y4menc for
# v3dvp9dec), for GST_PLUGIN_SYSTEM_PATH_1_0. The registry scan then
# does not load every installed plugin (OpenNI2, udev, fontconfig users...), whose exit-time
# leaks and own races would land in the sanitizer reports.
plugins=$(mktemp -d)
trap 'rm -rf "$plugins"' EXIT
sysdir=$(pkg-config --variable=pluginsdir gstreamer-1.0 2>/dev/null ||
         echo /usr/lib/x86_64-linux-gnu/gstreamer-1.0)
for p in coreelements videotestsrc app ivfparse matroska videoparsersbad y4menc; do
  [ -e "$sysdir/libgst$p.so" ] && ln -s "$sysdir/libgst$p.so" "$plugins/"
done
