#!/usr/bin/env bash
# Issue 45's Body panel items as a person meets them, under the current X display
# (start it with xvfb-run -a -s "-screen 0 1280x720x24"), paused on SCENE, from DIR
# (F12's screenshots land there). What the app shows comes from its live layout report.
#   MODE inertia: click ramp_crate; Ctrl+click inertia entries and type: [0][0] 0.1,
#     [0][1] 0.02, [1][2] 0.01, [0][2] 0.015, each Enter: every off-diagonal entry sets its
#     mirror (F12: impulse-lab-1.png); Apply tensor: accepted, no refusal.
#   MODE contacts: before any step, click each body named in PAIRS (body:partner ...):
#     the "Contacts use" line names the partner the next step touches.
# The app ends by itself after a bounded number of frames if a step here never lands.
# Usage: body_panel_with_xdotool.sh APP SCENE DIR MODE [PAIRS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)  # before the cd below
app=$1 scene=$2 dir=$3 mode=$4
shift 4
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, press; value, expect, field_at
report="$dir/layout.json"
IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1 start_app "$app" "$scene" --paused --frames 20000 2> "$dir/stderr-$mode.txt"

select_body() {  # NAME: a click where it is drawn
    # shellcheck disable=SC2046
    click $(value "'%d %d' % pixel('$1')")
    expect "s['selected'] == '$1'" "a click selects $1"
}
type_entry() {  # ROW COL TEXT: Ctrl+click the inertia entry, select all, type, Enter
    local x y
    # Below the Body panel's fold at 720p: the wheel over the panel scrolls to it.
    local whole="'I[$1][$2]' in f and f['I[$1][$2]'][1] + f['I[$1][$2]'][3] <= d['panels']['Body'][1] + d['panels']['Body'][3] - 4"
    for _ in $(seq 20); do
        [ "$(value "$whole")" = True ] && break
        # shellcheck disable=SC2046
        move $(value "'%d %d' % (d['panels']['Body'][0] + 20, d['panels']['Body'][1] + d['panels']['Body'][3] / 2)")
        xdotool click 5; sleep 0.2
    done
    read -r x y < <(field_at "I[$1][$2]")
    type_into_drag_field "$x" "$y" "$3"
}

if [ "$mode" = inertia ]; then
    select_body ramp_crate
    type_entry 0 0 0.1
    expect "abs(s['inertia_draft'][0][0] - 0.1) < 1e-6" "[0][0] takes 0.1"
    type_entry 0 1 0.02
    expect "abs(s['inertia_draft'][0][1] - 0.02) < 1e-6 and s['inertia_draft'][1][0] == s['inertia_draft'][0][1]" \
        "[0][1] = 0.02 sets [1][0]"
    type_entry 1 2 0.01
    expect "abs(s['inertia_draft'][1][2] - 0.01) < 1e-6 and s['inertia_draft'][2][1] == s['inertia_draft'][1][2]" \
        "[1][2] = 0.01 sets [2][1]"
    type_entry 0 2 0.015
    expect "abs(s['inertia_draft'][0][2] - 0.015) < 1e-6 and s['inertia_draft'][2][0] == s['inertia_draft'][0][2]" \
        "[0][2] = 0.015 sets [2][0]"
    in_view_key F12
    press "Body/Apply tensor"
    expect "s['body_error'] == '' and s['unsaved_edits']" "Apply tensor installs the symmetric draft"
else
    for pair in "$@"; do
        body=${pair%%:*} partner=${pair#*:}
        select_body "$body"
        expect "s['shown_step'] == 0" "no step yet"
        expect "'Contacts use (next step): $partner' in s['contacts_use']" "$body: Contacts use names $partner"
    done
    in_view_key F12
fi
quit_app  # and answers the quit question, if an edit is unsaved
