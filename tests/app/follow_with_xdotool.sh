#!/usr/bin/env bash
# Runs impulse-lab paused on SCENE under the current X display (xvfb-run -a), clicks the
# window pixel (X, Y) to select the body there, presses L (follow the selection) and
# Space (run), lets it run SECONDS and quits with Ctrl+Q; the layout report
# (IMPULSE_LAYOUT_JSON) goes to LAYOUT.json.
# Usage: follow_with_xdotool.sh APP SCENE LAYOUT.json X Y SECONDS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 scene=$2 layout=$3 x=$4 y=$5 seconds=$6
. "$here/xdotool_input.sh"  # start_app, move, click, hold
# Its own folder for recovery files: another run's left in the user's would be offered.
export IMPULSE_STATE_DIR="$layout.state"
IMPULSE_LAYOUT_JSON="$layout" start_app "$app" "$scene" --paused
eval "$(xdotool getwindowgeometry --shell "$wid")"
# ImGui 1.86 misses bare absolute moves: nudge one pixel and back.
xdotool mousemove "$((X + x))" "$((Y + y))"; sleep 0.05
xdotool mousemove_relative 1 0; sleep 0.03; xdotool mousemove_relative -- -1 0; sleep 0.1
xdotool mousedown 1; sleep 0.1; xdotool mouseup 1; sleep 0.2
xdotool key --window "$wid" --delay 60 l space
sleep "$seconds"
xdotool key --window "$wid" ctrl+q
wait $pid
rm -rf "$IMPULSE_STATE_DIR"
trap - EXIT
