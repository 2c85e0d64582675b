#!/usr/bin/env bash
# Issue 45's small frictions as a person meets them, under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"), paused on SCENE, from DIR.
# What the app shows comes from its live layout report.
#   MODE messages: after Ctrl+Z ("undone: ..."), each of B, N, Ctrl+D and Delete on
#     the selection says what it did: the Scene message never describes an earlier action.
#   MODE paused_shot (SCENE: Newton's cradle): T with the mouse on ball3 puts the shot by
#     it, no larger than the balls, not 1 m in front of the eye.
#   MODE note_scroll: scroll the Presets list down, click a classroom preset: its Note
#     tab opens at the top of the note.
#   MODE paused_stats: no --frames, so the app waits for input while paused: the Stats
#     tab says "paused", not a frame rate of the wait.
# The app is told to quit at the end; if it does not within 30 s, it is killed and the
# script fails.
# Usage: friction_with_xdotool.sh APP SCENE DIR MODE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 mode=$4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold; value, expect
report="$dir/layout.json"
frames=(--frames 20000)
[ "$mode" = paused_stats ] && frames=()
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --paused "${frames[@]}" 2> "$dir/stderr-$mode.txt"


if [ "$mode" = messages ]; then
    in_view_key b
    expect "s['message'].startswith('spawn ')" "B says what it spawned"
    in_view_key ctrl+z
    expect "s['message'].startswith('undone: ')" "Ctrl+Z says what it undid"
    in_view_key n
    expect "s['message'].startswith('spawn ') and s['selected'] is not None" "N says what it spawned, not 'undone'"
    selected=$(value "s['selected']")
    in_view_key ctrl+z
    expect "s['message'].startswith('undone: ')" "Ctrl+Z says what it undid"
    # shellcheck disable=SC2046
    click $(value "'%d %d' % pixel('ramp_crate')")
    expect "s['selected'] == 'ramp_crate'" "a click selects ramp_crate"
    in_view_key ctrl+d
    expect "s['message'].startswith('spawn ramp_crate')" "Ctrl+D says what it duplicated"
    in_view_key ctrl+z
    expect "s['message'].startswith('undone: ')" "Ctrl+Z says what it undid"
    in_view_key Delete
    expect "s['message'].startswith('delete ramp_crate')" "Delete says what it deleted"
    : "$selected"
elif [ "$mode" = paused_shot ]; then
    # T with the mouse on ball3: the shot waits by it, ball-sized, aimed at it.
    # shellcheck disable=SC2046
    move $(value "'%d %d' % pixel('ball3')")
    key t
    expect "any(b['name'].startswith('shot') for b in d['bodies'])" "T shoots"
    shot="[b for b in d['bodies'] if b['name'].startswith('shot')][0]"
    ball="[b for b in d['bodies'] if b['name'] == 'ball3'][0]"
    expect "math.dist($shot['position'], $ball['position']) < 6 * $ball['radius']" "the shot waits by ball3"
    expect "$shot['radius'] <= $ball['radius'] * 1.001" "no larger than the cradle's balls"
elif [ "$mode" = note_scroll ]; then
    # Scroll the Presets list down, then click a classroom preset drawn there: it opens on its note.
    press "Scene/Presets"
    expect "s['note_scroll_y'] == -1" "the Presets tab is in front"
    # shellcheck disable=SC2046
    move $(value "'%d %d' % (w['Scene/Presets'][0] + 40, w['Scene/Presets'][1] + w['Scene/Presets'][3] + 40)")
    for _ in $(seq 12); do  # down a notch at a time, until a classroom preset shows
        xdotool click 5; sleep 0.2
        [ "$(value "any(k.startswith('Scene/classroom/') for k in w)")" = True ] && break
    done
    xdotool click 5; sleep 0.2  # a notch more: the list shows a few of them whole
    preset=$(value "sorted((k for k in w if k.startswith('Scene/classroom/')), key=lambda k: w[k][1])[len([k for k in w if k.startswith('Scene/classroom/')]) // 2]")
    press "$preset"
    expect "s['note_scroll_y'] == 0" "the Note tab opens at its top"
else
    expect "s['stats_frame_line'].startswith('paused')" "paused and idle, Stats says so" 15
fi
quit_app  # and answers the quit question, if an edit is unsaved
