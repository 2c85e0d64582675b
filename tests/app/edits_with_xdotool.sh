#!/usr/bin/env bash
# Edits through the Body panel as a person types them, under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"), on a copy of
# tests/app/data/ground_crate_ball.json at SCENE (it is saved over), from DIR:
#  1. click the crate; type 25 into its mass (Ctrl+click the field, select all, type,
#     Enter); F12 (impulse-lab-1.png); Ctrl+Z undoes it; F12 (-2.png); drag the mass
#     field to the right and release: one edit, which one Ctrl+Z undoes;
#  2. type 1.5 into e: refused, the rule shows and e stays 0.5; F12 (-3.png);
#  3. Ctrl+D duplicates the crate (crate_1, selected); Ctrl+S saves to SCENE;
#  4. B spawns box_1 (an unsaved edit); Ctrl+Q asks first: the app must still run;
#     F12 (-4.png, the question); Enter answers "Quit".
# Usage: edits_with_xdotool.sh APP SCENE DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold; value, expect, field_at
# Where the crate and the Body panel's fields are drawn: the app's live layout report.
report="$dir/layout.json"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --paused --frames 100000 2> "$dir/stderr.txt"
viewport_x=640 viewport_y=600

key() { xdotool key --delay 40 "$@"; sleep 0.2; }  # keys for the app (not ImGui)
in_view_key() {  # the keys reach the app with the mouse over the 3D view
    move "$viewport_x" "$viewport_y"
    key "$@"
}

# shellcheck disable=SC2046
click $(value "'%d %d' % pixel('crate')")
expect "s['selected'] == 'crate'" "a click selects the crate"
read -r mass_x mass_y < <(field_at "mass (kg)")
type_into_drag_field "$mass_x" "$mass_y" 25
in_view_key F12
in_view_key ctrl+z
key F12
move "$mass_x" "$mass_y"
xdotool mousedown 1; sleep 0.15
for _ in $(seq 10); do
    xdotool mousemove_relative 6 0; sleep 0.06
done
sleep 0.2
xdotool mouseup 1; sleep 0.3
in_view_key ctrl+z
read -r e_x e_y < <(field_at "restitution e")  # where it is now: messages above it move it
type_into_drag_field "$e_x" "$e_y" 1.5
in_view_key F12
in_view_key ctrl+d
sleep 0.3
key ctrl+s
sleep 0.3
key b
sleep 0.3
key ctrl+q
sleep 1.0
kill -0 $pid  # still running: it asked first
key F12
sleep 0.5
hold Return
wait $pid
trap - EXIT
