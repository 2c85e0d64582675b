#!/usr/bin/env bash
# Issue 45: a refused Open shows where the user looks, under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"), on SCENE, from DIR (F12's
# screenshots land there). What the app shows comes from its live layout report.
# V twice records a short video (into $XDG_VIDEOS_DIR/impulse-lab, and says so) (its status line pushes the Scene panel's message
# down); F12 (impulse-lab-1.png, the control); Ctrl+O, select all, type BAD, Enter:
# the file is tried (Enter opens, no click on Open), the message is an error, drawn
# over the view in one short line; F12 (impulse-lab-2.png); the message's rectangle
# is written to DIR/toast.txt (x y w h) for the caller to look at in the screenshot.
# The app quits by itself after a bounded number of frames if a step here never lands.
# Usage: open_message_with_xdotool.sh APP SCENE DIR BAD
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 bad=$4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, hold; value, expect
report="$dir/layout.json"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --frames 20000 2> "$dir/stderr.txt"


in_view_key v
expect "s['message'] == 'recording video into ${XDG_VIDEOS_DIR}/impulse-lab/impulse-lab-video-1 (V stops)'" \
    "V records into the videos folder and says where"
sleep 1.0
in_view_key v
sleep 7  # the video's notice (not an error) leaves the view
expect "s['message_toast'][2] == 0 or s['message_error']" "no notice over the view"
in_view_key F12
key ctrl+o
hold ctrl+a
xdotool type --delay 30 -- "$bad"; sleep 0.3
hold Return
expect "s['message_error'] and '$bad' in s['message']" "Enter in the path field tried the file: an error"
expect "s['message_toast'][2] > 0 and d['view'][1] <= s['message_toast'][1] and s['message_toast'][1] + s['message_toast'][3] <= d['view'][1] + d['view'][3]" \
    "the error is drawn over the view"
expect "s['message_toast'][3] < 3 * 20 * d['text_scale']" "in a line or two"
value "'%d %d %d %d' % tuple(s['message_toast'])" > "$dir/toast.txt"
in_view_key F12
sleep 0.5
quit_app  # and answers the quit question, if an edit is unsaved
