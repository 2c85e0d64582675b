#!/usr/bin/env bash
# A scripted session of impulse-lab with real input under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"): the common keys, mouse
# drags and panel clicks, each followed by a check of its effect on what the app
# shows (the live layout report, IMPULSE_LAYOUT_LIVE: App::writeLayout's "state",
# "camera" and "widgets"). The panel widgets are clicked where the report says they
# are. A check that does not hold within 10 s fails the script, naming the step.
# Run under the sanitizer build it is the "scripted session with no report": an
# ASan/UBSan error ends the app with a non-zero status, which fails `wait` below.
#
# Midway, after the spawn keys and buttons, it types MID.json into the Scene panel's
# path field and clicks "Save" (tower10.json: 11 + 3 keys - 1 deleted + 3 buttons = 16 bodies),
# then MID-run.json and "Save run" (the run as a recording); then it steps back, spawns
# at that earlier step (a branch: the old run becomes the ghost) and makes the ghost
# the current run again from the Runs tab.
# Ends: paused (Space), R (reset to SCENE), B (spawn box_1, selected), X (delete it),
# N (spawn sphere_1), T (shoot shot_1), Ctrl+Q. So OUT.json holds SCENE's bodies
# at their file poses plus sphere_1 and shot_1, and no box_1.
# Usage: session_with_xdotool.sh APP SCENE OUT.json MID.json REPORT.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$1 scene=$2 out=$3 mid=$4 report=$5
recording="${mid%.json}-run.json"
. "$here/xdotool_input.sh"  # start_app, move, click, hold; value, expect, at, press
rm -f "$report"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --frames 100000 --save-on-exit "$out"

drag() {  # button dx dy steps: press at the cursor, move in steps, release
    xdotool mousedown "$1"; sleep 0.15
    for _ in $(seq "$4"); do
        xdotool mousemove_relative -- "$2" "$3"; sleep 0.05
    done
    sleep 0.2
    xdotool mouseup "$1"; sleep 0.2
}
key() { xdotool key --delay 40 "$@"; sleep 0.15; }
bodies() { value "s['bodies']"; }

cx=640 cy=400  # viewport centre: a box of the tower in tower10.json
expect "s['bodies'] == 11 and not s['paused']" "the tower runs"

# Grab a box of the tower, throw it (left drag): held while the button is down.
# shellcheck disable=SC2046
move $(value "'%d %d' % pixel('box2')")
xdotool mousedown 1; sleep 0.15
for _ in $(seq 10); do xdotool mousemove_relative -- 20 -8; sleep 0.05; done
expect "s['grabbing'] and s['selected'] == 'box2'" "a left drag on a body grabs it"
xdotool mouseup 1; sleep 0.2
expect "not s['grabbing']" "releasing the button lets it go"

# Spawn with the keys while pointing at the ground beside the tower; select a body
# and delete it.
move $((cx - 200)) $((cy + 150))
n=$(bodies)
key b
expect "s['bodies'] == $((n + 1)) and s['selected'] == 'box_1'" "B spawns box_1, selected"
key n
expect "s['bodies'] == $((n + 2)) and s['selected'] == 'sphere_1'" "N spawns sphere_1"
key t
expect "s['bodies'] == $((n + 3))" "T shoots shot_1"
sleep 0.5
key Escape
expect "s['selected'] is None" "Escape clears the selection"
# Clock keys: pause, single steps, run; slower, faster; contacts; help on and off.
key space
expect "s['paused']" "Space pauses"
# Paused, so that the body stays where the report drew it (the shot may topple the tower);
# the tower's box nearest the eye, so that no fallen box hides the point clicked.
box=$(value "nearest('box[0-9]+')")
# shellcheck disable=SC2046
click $(value "'%d %d' % pixel('$box')")  # selects the body under the cursor (the Body panel shows it)
expect "s['selected'] == '$box'" "a click selects the body under the cursor ($box)"
key x
expect "s['bodies'] == $((n + 2)) and s['selected'] is None" "X deletes the selected body"
step=$(value "s['shown_step']")
key s
expect "s['shown_step'] == $((step + 1))" "S steps once while paused"
key period
expect "s['shown_step'] == $((step + 2))" ". steps once"
key period
expect "s['shown_step'] == $((step + 3))" "and once more"
key space
expect "not s['paused']" "Space runs again"
key bracketleft
expect "s['time_scale'] == 0.5" "[ halves the time scale"
key bracketright
expect "s['time_scale'] == 1.0" "] doubles it back"
key c
expect "s['contacts']" "C shows the contacts"
key h
expect "s['help']" "H shows the help"
key h
expect "not s['help']" "H hides it again"
# Camera: orbit (right drag), pan (middle drag and shift+right drag), zoom (wheel), frame (F).
move $cx $cy
yaw=$(value "c['yaw']")
drag 3 12 4 8
expect "abs(c['yaw'] - $yaw) > 1" "a right drag orbits"
target=$(value "c['target']")
drag 2 -6 5 8
expect "c['target'] != $target" "a middle drag pans"
target=$(value "c['target']")
xdotool keydown shift; sleep 0.05
drag 3 5 0 6
xdotool keyup shift; sleep 0.1
expect "c['target'] != $target" "a shift+right drag pans"
distance=$(value "c['distance']")
xdotool click --repeat 3 --delay 60 4; sleep 0.1
expect "c['distance'] < $distance" "the wheel up zooms in"
distance=$(value "c['distance']")
xdotool click --repeat 2 --delay 60 5; sleep 0.1
expect "c['distance'] > $distance" "the wheel down zooms out"
target=$(value "c['target']")
key f
expect "c['target'] != $target" "F frames the scene"
# Panels: Pause then Run, Step (pauses) then Run, spawn buttons, pick a contact row.
press "Scene/Pause"
expect "s['paused']" "the Pause button pauses"
press "Scene/Run"
expect "not s['paused']" "the Run button runs"
press "Scene/Step"
expect "s['paused']" "the Step button pauses"
press "Scene/Run"
expect "not s['paused']" "Run again"
n=$(bodies)
press "Scene/Box"
expect "s['bodies'] == $((n + 1))" "the Box button spawns a box"
press "Scene/Sphere"
expect "s['bodies'] == $((n + 2))" "the Sphere button spawns a sphere"
press "Scene/Shoot"
expect "s['bodies'] == $((n + 3))" "the Shoot button shoots a sphere"
sleep 0.5
press "Contact inspector/contact row 0"
expect "s['picked_contact'] is not None" "a click on a contact row picks it"
# Save the world from the panel: path field, select all, type, "Save".
press "Scene/##path"
hold ctrl+a  # ImGui 1.86 reads held keys once per frame
xdotool type --delay 15 -- "$mid"; sleep 0.3
press "Scene/Save"
expect "s['message'].startswith('saved') and '$(basename "$mid")' in s['message']" "Save writes the typed path"
press "Scene/##path"
hold ctrl+a
xdotool type --delay 15 -- "$recording"; sleep 0.3
press "Scene/Save run"
expect "s['message'].startswith('saved the run as the recording') and '$(basename "$recording")' in s['message']" \
    "Save run writes the run as a recording"
# An input at an earlier step branches; the Runs tab makes the ghost the current run again.
move $cx $cy
key space
expect "s['paused']" "Space pauses"
end=$(value "t['run_end']")
for _ in 1 2 3; do key comma; done
expect "s['shown_step'] < $end" ", steps back"
key b
expect "t['run_end'] < $end and $end in t['previous_run_ends']" "B at an earlier step branches, the old run kept"
press "Contact inspector/make it the current run"
expect "t['run_end'] == $end" "the Runs tab makes the ghost the current run again"
key space
expect "not s['paused']" "Space runs again"
# The known end state (see the header). Space pauses: the session is running here.
move $cx $cy
key space
expect "s['paused']" "Space pauses"
key r
expect "s['bodies'] == 11 and s['shown_step'] == 0" "R resets to the scene"
key b
expect "s['selected'] == 'box_1'" "B spawns box_1"
key x
expect "s['bodies'] == 11" "X deletes it"
key n t
expect "s['bodies'] == 13" "N and T add sphere_1 and shot_1"
key ctrl+q
wait $pid
trap - EXIT
