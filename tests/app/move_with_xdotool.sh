#!/usr/bin/env bash
# Moving and turning a body as a person does, under the current X display (start it
# with xvfb-run -a -s "-screen 0 1280x720x24"), on a copy of
# tests/app/data/ground_crate_ball.json at SCENE (saved over), paused, from DIR. The
# pixel positions come from the test (the app's layout report and the gizmo's math).
#   MODE select: click the crate, quit (the layout report then has the Body panel's fields).
#   MODE session:
#     1. click the crate; Ctrl+S; SCENE is copied to DIR/before.json;
#     2. type 30 into the orientation field's x (Ctrl+click, select all, type, Enter);
#     3. drag the gizmo's x arrow from ARROW to ARROW_TO (F12 while held: impulse-lab-1.png);
#     4. drag the gizmo's y ring from RING through RING_MID to RING_TO (F12 while held: -2.png);
#     5. drag the ball (paused: it moves with the cursor) from BALL to BALL_TO; F12 (-3.png);
#     6. Ctrl+S, SCENE copied to DIR/after.json; Ctrl+Z four times; Ctrl+S; Ctrl+Q.
# Usage: move_with_xdotool.sh APP SCENE DIR select CRATE_X CRATE_Y
#        move_with_xdotool.sh APP SCENE DIR session CRATE_X CRATE_Y FIELD_X FIELD_Y ARROW_X ARROW_Y ARROW_TO_X
#            ARROW_TO_Y RING_X RING_Y RING_MID_X RING_MID_Y RING_TO_X RING_TO_Y BALL_X BALL_Y BALL_TO_X BALL_TO_Y
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 mode=$4
shift 4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold
start_app "$app" "$scene" --paused --frames 100000 2> "$dir/stderr-$mode.txt"

key() { xdotool key --delay 40 "$@"; sleep 0.3; }
drag() {  # x0 y0 x1 y1 ... : press at the first point, through the others, release at the last
    move "$1" "$2"
    xdotool mousedown 1; sleep 0.15
    shift 2
    while [ $# -ge 2 ]; do
        for f in 1 2 3 4; do  # in steps, as a hand moves
            xdotool mousemove --window "$wid" $(( px + ($1 - px) * f / 4 )) $(( py + ($2 - py) * f / 4 )); sleep 0.06
        done
        px=$1 py=$2
        shift 2
    done
    sleep 0.2
}
release() { xdotool mouseup 1; sleep 0.3; }

click "$1" "$2"  # the crate
if [ "$mode" = select ]; then
    key ctrl+q
    wait $pid
    trap - EXIT
    exit 0
fi
key ctrl+s
cp "$scene" "$dir/before.json"

# The orientation field's x: a drag field that Ctrl+click turns into a text field.
move "$3" "$4"
xdotool keydown ctrl; sleep 0.1
xdotool mousedown 1; sleep 0.1
xdotool mouseup 1; sleep 0.1
xdotool keyup ctrl; sleep 0.2
hold ctrl+a
xdotool type --delay 60 -- 30; sleep 0.2
hold Return
sleep 0.3

px=$5 py=$6
drag "$5" "$6" "$7" "$8"
key F12
release
px=$9 py=${10}
drag "$9" "${10}" "${11}" "${12}" "${13}" "${14}"
key F12
release
px=${15} py=${16}
drag "${15}" "${16}" "${17}" "${18}"
release
key F12

key ctrl+s
cp "$scene" "$dir/after.json"
for _ in 1 2 3 4; do key ctrl+z; done
key ctrl+s
key ctrl+q
wait $pid
trap - EXIT
