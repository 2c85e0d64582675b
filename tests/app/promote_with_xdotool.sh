#!/usr/bin/env bash
# Issue 45's observations and bounds as a person meets them, under the current X
# display (start it with xvfb-run -a -s "-screen 0 1280x720x24"), on SCENE, from DIR
# (F12's screenshots land there). What the app shows comes from its live layout report.
#   MODE promote: the run plays to step 300 (5 s); Space; a click on the timeline at
#     step 60; T with the mouse on the tower (a shot: "continued as a new run"); Space,
#     3 s, Space (F12: impulse-lab-1.png); Contact inspector > Runs > "make it the
#     current run" (F12: -2.png): the Impact log must list the first run's impacts (as
#     many as at step 300, not the branch's, none with the shot) and the Momenta tab
#     none of the shot's;
#     played on from step 60 to its end, still exactly those.
#   MODE bounds: the gliders play until glider3 leaves the world's bounds; Space: it is
#     removed, with the message (F12: -1.png); Ctrl+Z brings it back (F12: -2.png).
# Usage: promote_with_xdotool.sh APP SCENE DIR MODE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 mode=$4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, press; value, expect (with a wait)
report="$dir/layout.json"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --frames 100000 2> "$dir/stderr-$mode.txt"


if [ "$mode" = promote ]; then
    expect "s['run_end'] >= 300" "the run plays to step 300" 60
    in_view_key space
    expect "s['paused']" "Space pauses"
    first_end=$(value "s['run_end']")
    first_impacts=$(value "o['impacts']")
    expect "$first_impacts > 0 and not any(n.startswith('shot') for n in o['impact_bodies'])" "the first run's impacts are logged"
    # The strip maps its width to the run's steps (StepScale): step 60's pixel.
    # shellcheck disable=SC2046
    click $(value "'%d %d' % (t['strip'][0] + (60 - t['run_start']) / (t['run_end'] - t['run_start']) * t['strip'][2], t['strip'][1] + t['strip'][3] / 2)")
    expect "abs(s['shown_step'] - 60) <= 2" "the click shows step 60"
    # shellcheck disable=SC2046
    move $(value "'%d %d' % pixel('tower2')")
    key t
    expect "len(t['previous_run_ends']) == 1" "T at a past step continues the run as a new one"
    expect "'continued as a new run' in s['message']" "the message says so"
    in_view_key space
    expect "s['run_end'] >= 59 + 180" "the branch runs about 3 s" 30
    in_view_key space
    expect "s['paused']" "Space pauses"
    branch_impacts=$(value "o['impacts']")
    expect "$branch_impacts != $first_impacts and any(b['name'].startswith('shot') for b in d['bodies'])" \
        "the branch has the shot and a log of its own"
    in_view_key F12
    if [ "$(value "'Contact inspector/make it the current run' in w")" != True ]; then press "Contact inspector/Runs"; fi
    press "Contact inspector/make it the current run"
    expect "s['run_end'] == $first_end and not any(b['name'].startswith('shot') for b in d['bodies'])" \
        "the first run is the current run"
    expect "o['impacts'] == $first_impacts" "the Impact log lists the first run's impacts, no more, no fewer"
    expect "not any(n.startswith('shot') for n in o['impact_bodies'])" "no impact of the branch's shot"
    expect "o['momenta_impact'] is None or 'shot' not in o['momenta_impact']" "the Momenta tab shows the first run's impact"
    in_view_key F12
    # Played from step 60 to its end: the log still holds exactly its own impacts.
    # shellcheck disable=SC2046
    click $(value "'%d %d' % (t['strip'][0] + (60 - t['run_start']) / (t['run_end'] - t['run_start']) * t['strip'][2], t['strip'][1] + t['strip'][3] / 2)")
    in_view_key space
    expect "s['shown_step'] >= $first_end - 5" "the promoted run plays to its end" 30
    in_view_key space
    expect "(s['run_end'] > $first_end or o['impacts'] == $first_impacts) and not any(n.startswith('shot') for n in o['impact_bodies'])" \
        "played again, still its own impacts"
else
    expect "'glider3' not in [b['name'] for b in d['bodies']]" "glider3 leaves the world's bounds" 60
    in_view_key space
    expect "s['paused']" "Space pauses"
    expect "\"'glider3' left the world bounds\" in s['message']" "the message says so"
    in_view_key F12
    in_view_key ctrl+z
    expect "'glider3' in [b['name'] for b in d['bodies']]" "Ctrl+Z brings glider3 back"
    expect "[b for b in d['bodies'] if b['name'] == 'glider3'][0]['position'][1] < -100" "where it left"
    in_view_key F12
fi
quit_app  # and answers the quit question, if an edit is unsaved
