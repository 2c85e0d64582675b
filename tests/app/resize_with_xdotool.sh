#!/usr/bin/env bash
# Runs impulse-lab on SCENE under the current X display (xvfb-run -a -s "-screen 0
# 1920x1080x24"), resizes its window with xdotool to WxH, optionally drags the left
# column's inner edge DRAG pixels to the right, and quits with Ctrl+Q. The app writes
# its layout report (IMPULSE_LAYOUT_JSON) to LAYOUT.json on exit.
# Usage: resize_with_xdotool.sh APP SCENE LAYOUT.json WxH [DRAG]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 scene=$2 layout=$3 size=$4 dragBy=${5:-0}
. "$here/xdotool_input.sh"  # start_app, move, click, hold
IMPULSE_LAYOUT_JSON="$layout" start_app "$app" "$scene" --paused --frames 100000
xdotool windowsize --sync "$wid" "${size%x*}" "${size#*x}" || xdotool windowsize "$wid" "${size%x*}" "${size#*x}"
sleep 1.0  # a few frames at the new size (a paused app wakes on the resize)
if [ "$dragBy" != 0 ]; then
    # The handle is the margin right of the left column's panels; the caller knows where
    # that is at the new size (ui::computeLayout) and passes it as EDGE_X.
    eval "$(xdotool getwindowgeometry --shell "$wid")"
    xdotool mousemove "$((X + EDGE_X))" "$((Y + 300))"; sleep 0.05
    xdotool mousemove_relative 1 0; sleep 0.03; xdotool mousemove_relative -- -1 0; sleep 0.1
    xdotool mousedown 1; sleep 0.15
    for _ in 1 2 3 4 5; do
        xdotool mousemove_relative "$((dragBy / 5))" 0; sleep 0.05
    done
    sleep 0.2
    xdotool mouseup 1; sleep 0.3
fi
xdotool key --window "$wid" ctrl+q
wait $pid
trap - EXIT
