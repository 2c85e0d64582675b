#!/usr/bin/env bash
# Runs impulse-lab on SCENE under the current X display (start it with xvfb-run -a),
# grabs the body at the window centre with a real mouse drag, moves the cursor
# RIGHT pixels to the right, releases and quits; the world is saved to OUT.json.
# Usage: drag_with_xdotool.sh APP SCENE OUT.json [RIGHT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 scene=$2 out=$3 right=${4:-300}
. "$here/xdotool_input.sh"  # start_app, move, click, hold
start_app "$app" "$scene" --frames 3000 --save-on-exit "$out"
eval "$(xdotool getwindowgeometry --shell "$wid")"
cx=$((X + WIDTH / 2)) cy=$((Y + HEIGHT / 2))
# ImGui 1.86 misses bare absolute moves: nudge one pixel and back after each.
xdotool mousemove "$cx" "$cy"; sleep 0.05
xdotool mousemove_relative 1 0; sleep 0.03; xdotool mousemove_relative -- -1 0; sleep 0.1
xdotool mousedown 1; sleep 0.2
steps=10
for _ in $(seq $steps); do
    xdotool mousemove_relative $((right / steps)) 0; sleep 0.05
done
sleep 0.6  # hold: the spring pulls the body under the cursor
# Flick: keep moving and let go while the body is still catching up (a throw).
for _ in 1 2 3; do
    xdotool mousemove_relative 25 0; sleep 0.03
done
xdotool mouseup 1; sleep 0.2
xdotool key --window "$wid" ctrl+q
wait $pid
trap - EXIT
