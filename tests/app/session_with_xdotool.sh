#!/usr/bin/env bash
# A scripted session of impulse-lab with real input under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"): the common keys, mouse
# drags and panel clicks, ending in a known state that is saved on exit to OUT.json.
# Run under the sanitizer build it is the "scripted session with no report": an
# ASan/UBSan error ends the app with a non-zero status, which fails `wait` below.
#
# Midway, after the spawn keys and buttons, it types MID.json into the Scene panel's
# path field and clicks "Save" (tower10.json: 11 + 3 keys - 1 deleted + 3 buttons = 16 bodies).
# Ends: paused (Space), R (reset to SCENE), B (spawn box_1, selected), X (delete it),
# N (spawn sphere_1), T (shoot shot_1), Ctrl+Q. So OUT.json holds SCENE's bodies
# at their file poses plus sphere_1 and shot_1, and no box_1.
# Usage: session_with_xdotool.sh APP SCENE OUT.json MID.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 scene=$2 out=$3 mid=$4
. "$here/xdotool_input.sh"  # start_app, move, click, hold
start_app "$app" "$scene" --frames 100000 --save-on-exit "$out"

# Panel widgets (src/ui/panels.cpp; 13 px font, frame padding 2, item spacing 3):
# Scene panel at (8, 8): Pause/Run (45, 41), Step (101, 41), Box (30, 101),
# Sphere (77, 101), Shoot (131, 101), path field (170, 223), Save (77, 243). Contact inspector at (922, 388): first row (960, 459).
cx=640 cy=400  # viewport centre: a box of the tower in tower10.json

# ImGui 1.86 misses bare absolute moves: nudge one pixel and back after each.
move() {
    xdotool mousemove --window "$wid" "$1" "$2"; sleep 0.05
    xdotool mousemove_relative 1 0; sleep 0.03
    xdotool mousemove_relative -- -1 0; sleep 0.1
}
click() {  # x y [button]
    move "$1" "$2"
    xdotool mousedown "${3:-1}"; sleep 0.1
    xdotool mouseup "${3:-1}"; sleep 0.2
}
drag() {  # button dx dy steps: press at the cursor, move in steps, release
    xdotool mousedown "$1"; sleep 0.15
    for _ in $(seq "$4"); do
        xdotool mousemove_relative -- "$2" "$3"; sleep 0.05
    done
    sleep 0.2
    xdotool mouseup "$1"; sleep 0.2
}
key() { xdotool key --delay 40 "$@"; sleep 0.15; }

# Spawn with the keys while pointing into the scene; select a body and delete it.
move $cx $cy
key b n t
sleep 0.5
click $cx $cy   # selects the body under the cursor (the Body panel shows it)
sleep 0.3
key x
# Grab a body, throw it (left drag).
move $cx 500
drag 1 20 -8 10
# Clock keys: pause, single steps, run; slower, faster; contacts; help on and off.
key space s period period space bracketleft bracketright c h
sleep 0.3
key h f Escape
# Camera: orbit (right drag), pan (middle drag and shift+right drag), zoom (wheel).
move $cx $cy
drag 3 12 4 8
drag 2 -6 5 8
xdotool keydown shift; sleep 0.05
drag 3 5 0 6
xdotool keyup shift; sleep 0.1
xdotool click --repeat 3 --delay 60 4; sleep 0.1
xdotool click --repeat 2 --delay 60 5; sleep 0.1
key f
# Panels: Pause then Run, Step (pauses) then Run, spawn buttons, pick a contact row.
click 45 41
click 45 41
click 101 41
click 45 41
click 30 101
click 77 101
click 131 101
sleep 0.5
click 960 459
sleep 0.5
# Save the world from the panel: path field, select all, type, "Save".
click 170 223
xdotool keydown ctrl+a; sleep 0.25  # ImGui 1.86 reads held keys once per frame
xdotool keyup ctrl+a; sleep 0.1
xdotool type --delay 15 -- "$mid"; sleep 0.3
click 77 243
sleep 0.3
# The known end state (see the header). Space pauses: the session is running here.
move $cx $cy
key space
key r
key b
key x
key n t
sleep 0.3
key ctrl+q
wait $pid
trap - EXIT
