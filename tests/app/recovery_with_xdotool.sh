#!/usr/bin/env bash
# Autosave, recovery and ending by signal, under the current X display (xvfb-run -a),
# on a copy of tests/app/data/ground_crate_ball.json at SCENE, from DIR; recovery
# files go to DIR/state (IMPULSE_STATE_DIR), autosaved every 0.5 s:
#  1. paused: click the crate, type 25 into its mass, B spawns box_1; Space runs 1.5 s,
#     Space pauses; after an autosave Ctrl+S saves the world to SCENE (the reference);
#     then SIGKILL.
#  2. a new start offers the file (stdout: run2.txt): Enter restores it; SIGTERM then
#     ends the app at once, without asking about the restored run's unsaved edits, and
#     --save-on-exit writes the world to DIR/restored.json. Its recovery file stays.
#  3. a new start offers that file: Esc answers nothing (it stays); B (an edit); a
#     window close asks about the unsaved edits (the app still runs), Enter quits: this
#     run's own file goes, the offered one stays.
# Usage: recovery_with_xdotool.sh APP SCENE DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold
export IMPULSE_STATE_DIR="$dir/state" IMPULSE_AUTOSAVE_SECONDS=0.5

# As in edits_with_xdotool.sh: the crate at (580, 290) in this scene's first view, the
# Body panel's mass field at (1013, 117).
crate_x=580 crate_y=290
mass_x=1013 mass_y=117
viewport_x=640 viewport_y=600
key() { xdotool key --delay 40 "$@"; sleep 0.2; }
in_view_key() {
    move "$viewport_x" "$viewport_y"
    key "$@"
}
# Waits up to 60 s for FILE to hold TEXT (the app's stdout says what it did).
wait_for() {  # file text
    for _ in $(seq 600); do
        grep -q "$2" "$1" && return 0
        sleep 0.1
    done
    echo "no '$2' in $1" >&2
    return 1
}
# Waits until the recovery files stop changing (an autosave of the world as it is now).
wait_autosaved() {
    local before after
    for _ in $(seq 30); do
        before=$(stat -c %Y.%s state/recovery-*.json 2>/dev/null || true)
        sleep 1.5
        after=$(stat -c %Y.%s state/recovery-*.json 2>/dev/null || true)
        [ -n "$after" ] && [ "$before" = "$after" ] && return 0
    done
    return 1
}
# Waits up to 10 s for the app to end; its exit status in $status.
wait_exit() {
    for _ in $(seq 100); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    status=0
    wait "$pid" || status=$?
}

# 1.
start_app "$app" "$scene" --paused --frames 100000 > run1.txt 2>&1
click "$crate_x" "$crate_y"
move "$mass_x" "$mass_y"
xdotool keydown ctrl; sleep 0.1; xdotool mousedown 1; sleep 0.1; xdotool mouseup 1; sleep 0.1; xdotool keyup ctrl
sleep 0.2
hold ctrl+a
xdotool type --delay 60 -- 25; sleep 0.2
hold Return
move 700 400
key b
in_view_key space
sleep 1.5
key space
wait_autosaved  # the paused world is in the file
key ctrl+s
sleep 0.5
kill -KILL "$pid"
wait "$pid" || true
sleep 1.0
ls state | grep 'json$' > files-after-kill.txt

# 2.
start_app "$app" "$scene" --frames 100000 --save-on-exit "$dir/restored.json" > run2.txt 2>&1
wait_for run2.txt "asking whether to restore"
sleep 0.5
hold Return
wait_for run2.txt "impulse-lab: restored"
sleep 0.5
xdotool key F12; sleep 0.5  # impulse-lab-1.png: the restored run, paused
kill -TERM "$pid"
wait_exit
echo "$status" > run2-status.txt
sleep 1.0  # its window gone from the X server before the next search
ls state | grep 'json$' > files-after-term.txt

# 3.
start_app "$app" "$scene" --frames 100000 > run3.txt 2>&1
wait_for run3.txt "asking whether to restore"
sleep 0.5
hold Escape
in_view_key b
for _ in $(seq 200); do  # this run's own recovery file beside the offered one
    [ "$(ls state | grep -c 'json$')" -eq 2 ] && break
    sleep 0.1
done
ls state | grep 'json$' > files-during-run3.txt
python3 "$here/close_window.py" "$wid"
sleep 1.0
kill -0 "$pid"  # still running: it asked first
xdotool key F12; sleep 0.5  # impulse-lab-2.png: the question
hold Return
wait_exit
echo "$status" > run3-status.txt
ls state | grep 'json$' > files-after-run3.txt
trap - EXIT
