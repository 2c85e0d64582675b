#!/usr/bin/env bash
# Opens and saves scene files from the Scene panel as a person would, under the
# current X display (start it with xvfb-run -a -s "-screen 0 1280x720x24"):
# starts impulse-lab on SCENE in DIR, presses F12 (screenshot DIR/impulse-lab-1.png,
# the control), then for each BAD file: clicks the panel's path field, selects all
# (ctrl+a), types the path, clicks "Open" and presses F12 (impulse-lab-2.png, -3.png...).
# Last it types SAVE into the field, clicks "Save", answers the question whether to
# replace that existing file with Enter ("Replace") and quits with ctrl+q. The world is
# saved on exit to DIR/exit.json; the app's stderr goes to DIR/stderr.txt.
# Usage: open_bad_scene_with_xdotool.sh APP SCENE DIR SAVE BAD.json...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 save=$4
shift 4
cd "$dir"  # F12 screenshots land in the working directory
. "$here/xdotool_input.sh"  # start_app, move, click, hold; at, press
# Where the Scene panel's path field and buttons are: the app's live layout report.
report="$dir/layout.json"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --save-on-exit "$dir/exit.json" \
    --frames 6000 2> "$dir/stderr.txt"
viewport_x=640 viewport_y=400

key() { xdotool key --delay 30 "$@"; sleep 0.2; }
type_into_field() {
    press "Scene/##path"
    hold ctrl+a
    xdotool type --delay 15 -- "$1"; sleep 0.3
}
screenshot() {
    move "$viewport_x" "$viewport_y"  # off the panels: the keys reach the app
    key F12
    sleep 0.5
}

screenshot  # control: the "loaded ..." line in green
for bad in "$@"; do
    type_into_field "$bad"
    press "Scene/Open"
    sleep 0.5  # the load is tried at the end of the frame that saw the click
    screenshot
done
type_into_field "$save"
press "Scene/Save"
sleep 0.5
hold Return  # "SAVE exists. Replace it...?": yes
sleep 0.3
move "$viewport_x" "$viewport_y"
key ctrl+q
wait $pid
trap - EXIT
