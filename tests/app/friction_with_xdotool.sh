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
#   MODE impact_log: run until impacts are logged, pause, open the Impact log and scroll
#     its table sideways: each row's pair is still drawn at the table's left edge.
#   MODE paused_contacts: C on, one step, then a paused drag lifts ramp_crate: the contact
#     points drawn are the next step's, none left where the crate was.
#   MODE plot_window: plot ramp_crate's height and run: in the Plots tab the range's top
#     number and the legend do not overlap; "own window" shows the plot at least
#     400 x 200 px, its labels apart; "back into the tab" closes the window.
#   MODE moving_click (SCENE: the inelastic gliders): running at 0.25x, three clicks each a
#     few pixels above glider1's drawn outline, where the report draws it: each selects
#     glider1, not the ground behind it.
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
elif [ "$mode" = impact_log ]; then
    in_view_key space
    expect "o['impacts'] >= 3" "the run logs impacts" 30
    in_view_key space
    press "Contact inspector/Impact log"
    pairs="sorted((v for k, v in w.items() if k.startswith('Contact inspector/') and '##impact' in k), key=lambda r: r[1])"
    expect "len($pairs) >= 3" "the Impact log lists its impacts' pairs"
    # shellcheck disable=SC2046
    move $(value "'%d %d' % ($pairs[0][0] + 60, $pairs[0][1] + 2)")
    for _ in $(seq 30); do  # to the right a notch at a time (X button 6), as far as the table goes
        xdotool click 6; sleep 0.1
    done
    expect "s['impact_log_scroll_x'] > 50" "the Impact log's table scrolls sideways"
    panel="d['panels']['Contact inspector']"
    expect "len($pairs) >= 3 and all(r[0] < $panel[0] + 20 for r in $pairs)" "the pairs stay at the table's left edge"
    in_view_key F12
elif [ "$mode" = paused_contacts ]; then
    in_view_key c
    expect "s['contacts']" "C shows the contact points"
    in_view_key period
    expect "s['shown_step'] == 1" "one step"
    crate="[b for b in d['bodies'] if b['name'] == 'ramp_crate'][0]"
    crate_points="[p['point'] for p in d['contact_points'] if 'ramp_crate' in (p['a'], p['b'])]"
    expect "len($crate_points) > 0" "the crate's points on the ramp are drawn"
    y0=$(value "$crate['position'][1]")
    # shellcheck disable=SC2046
    move $(value "'%d %d' % pixel('ramp_crate')")
    xdotool mousedown 1; sleep 0.2
    for _ in $(seq 10); do  # paused, the crate follows the cursor up
        xdotool mousemove_relative -- 0 -15; sleep 0.05
    done
    sleep 0.2
    xdotool mouseup 1; sleep 0.2
    expect "$crate['position'][1] > $y0 + 2 * $crate['radius']" "the drag lifted the crate clear"
    expect "all(math.dist(p, $crate['position']) < 1.01 * $crate['radius'] for p in $crate_points)" \
        "no contact point is drawn where the crate was"
    in_view_key period
    expect "s['shown_step'] == 2 and $crate_points == []" "the next step's contacts are those drawn: none for the lifted crate"
    in_view_key F12
elif [ "$mode" = plot_window ]; then
    # shellcheck disable=SC2046
    click $(value "'%d %d' % pixel('ramp_crate')")
    expect "s['selected'] == 'ramp_crate'" "a click selects ramp_crate"
    press "Stats/Plots"
    press "Stats/plot it"
    in_view_key space
    expect "s['shown_step'] > 60" "the run samples the plot" 20
    in_view_key space
    apart() {  # WINDOW: the plot's top number, its legend and the legend row above apart
        local top="w['$1/##plots top']" legend="w['$1/##plots legend']" plot="w['$1/##plots']" row="w['$1/series 0']"
        echo "not ($top[0] < $legend[0] + $legend[2] and $legend[0] < $top[0] + $top[2] and" \
             "$top[1] < $legend[1] + $legend[3] and $legend[1] < $top[1] + $top[3]) and $row[1] + $row[3] <= $plot[1]"
    }
    expect "$(apart Stats)" "in the tab the plot's labels do not overlap"
    press "Stats/own window"
    expect "'Plot' in d['panels'] and w['Plot/##plots'][2] >= 400 and w['Plot/##plots'][3] >= 200" \
        "its own window shows the plot at least 400 x 200 px"
    expect "$(apart Plot)" "in its own window the plot's labels do not overlap"
    in_view_key F12
    press "Plot/back into the tab"
    expect "'Plot' not in d['panels'] and 'Stats/##plots' in w" "back into the tab"
elif [ "$mode" = moving_click ]; then
    in_view_key bracketleft bracketleft
    expect "s['time_scale'] == 0.25" "[ [ slows the run to 0.25x"
    in_view_key space
    glider="[b for b in d['bodies'] if b['name'] == 'glider1'][0]"
    for _ in 1 2 3; do
        expect "not s['paused'] and s['selected'] is None" "running, nothing selected"
        # 4 px above the glider's drawn outline: its radius in pixels at its depth, from the camera.
        read -r x y < <(value "(lambda p: '%d %d' % (p[0], p[1] - $glider['radius'] * d['view'][3] / (2 * p[2] * math.tan(math.radians(c['fov_y']) / 2)) - 4))(project('glider1'))")
        xdotool mousemove --window "$wid" "$x" "$y" mousedown 1; sleep 0.1  # at once: the glider moves on
        xdotool mouseup 1
        expect "s['selected'] == 'glider1'" "a click beside the moving glider1 selects it"
        in_view_key Escape
    done
    in_view_key F12
else
    expect "s['stats_frame_line'].startswith('paused')" "paused and idle, Stats says so" 15
fi
quit_app  # and answers the quit question, if an edit is unsaved
