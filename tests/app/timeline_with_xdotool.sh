#!/usr/bin/env bash
# The timeline as a person uses it, under the current X display (start it with
# xvfb-run -a -s "-screen 0 1280x720x24"), on SCENE, from DIR (F12's screenshots land
# there). The app runs for about 3 s, then Space pauses it. The pixel positions come
# from the test (the layout report's timeline strip and view).
#   MODE click X Y VIEW_X VIEW_Y: click the strip at X Y (F12: impulse-lab-1.png); press
#     . three times and , once (F12: -2.png); with the mouse at VIEW_X VIEW_Y press B,
#     an edit at a past step, which continues the run from there (F12: -3.png); quit,
#     saving to DIR/saved.json (no question about the edit).
#   MODE drag X Y X2: drag on the strip from X to X2 (F12 while held: -1.png), release,
#     hold . down for a second, quit.
#   MODE loop X Y X2: click the strip at X and press I, at X2 and press O; Shift+Space
#     plays backward for 4 s (F12 meanwhile: -1.png), long enough to reach the run's
#     start whatever the load were it not for the loop; quit while it plays.
# Usage: timeline_with_xdotool.sh APP SCENE DIR MODE ARGS...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 mode=$4
shift 4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold
start_app "$app" "$scene" --frames 100000 --save-on-exit "$dir/saved.json" 2> "$dir/stderr-$mode.txt"

key() { xdotool key --delay 40 "$@"; sleep 0.3; }

sleep 2.0
key space
if [ "$mode" = click ]; then
    click "$1" "$2"
    key F12
    for _ in 1 2 3; do key period; done
    key comma
    key F12
    move "$3" "$4"
    key b
    key F12
elif [ "$mode" = loop ]; then
    click "$1" "$2"
    key i
    click "$3" "$2"
    key o
    key shift+space
    sleep 2.0
    key F12
    sleep 2.0
else
    move "$1" "$2"
    xdotool mousedown 1; sleep 0.15
    for f in 1 2 3 4 5 6; do  # in steps, as a hand moves (each nudged: ImGui reads the mouse)
        move $(( $1 + ($3 - $1) * f / 6 )) "$2"
    done
    sleep 0.2
    key F12
    xdotool mouseup 1; sleep 0.3
    xdotool keydown period; sleep 1.0
    xdotool keyup period; sleep 0.3
fi
key ctrl+q
wait $pid
