#!/usr/bin/env bash
# Keys held down, under the current X display (xvfb-run -a): the X server repeats a held
# key, and an action must still happen once a press. In DIR, on SCENE (a copy, saved
# over), paused: hold B (spawn a box) for 1.5 s, hold F12 (screenshot) for 1.5 s, Ctrl+S,
# Ctrl+Q. The test counts the boxes in SCENE and the screenshots in DIR.
# Usage: held_keys_with_xdotool.sh APP SCENE DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3
cd "$dir"
. "$here/xdotool_input.sh"  # start_app
start_app "$app" "$scene" --paused --frames 100000
xdotool mousemove --window "$wid" 640 360; sleep 0.2  # over the view: the keys reach the app, not a field
xdotool keydown b; sleep 1.5; xdotool keyup b; sleep 0.3
xdotool keydown F12; sleep 1.5; xdotool keyup F12; sleep 0.3
xdotool key --delay 40 ctrl+s; sleep 0.3
xdotool key --delay 40 ctrl+q
wait $pid
trap - EXIT
