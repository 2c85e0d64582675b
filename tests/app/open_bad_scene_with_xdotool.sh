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
. "$here/xdotool_input.sh"  # start_app, move, click, hold
start_app "$app" "$scene" --save-on-exit "$dir/exit.json" --frames 6000 2> "$dir/stderr.txt"

# The Scene panel sits at (8, 8), 330 px wide (src/ui/panels.cpp, sceneWindow); with
# the app's style (13 px font, frame padding 2, item spacing 3) the path field is
# the row at y 215..232 and "Open" / "Save" the buttons below it at y 235..252.
field_x=170 field_y=223
open_x=33 open_y=243
save_x=77 save_y=243
viewport_x=640 viewport_y=400

key() { xdotool key --delay 30 "$@"; sleep 0.2; }
type_into_field() {
    click "$field_x" "$field_y"
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
    click "$open_x" "$open_y"
    sleep 0.5  # the load is tried at the end of the frame that saw the click
    screenshot
done
type_into_field "$save"
click "$save_x" "$save_y"
sleep 0.5
hold Return  # "SAVE exists. Replace it...?": yes
sleep 0.3
move "$viewport_x" "$viewport_y"
key ctrl+q
wait $pid
trap - EXIT
