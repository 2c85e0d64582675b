#!/usr/bin/env bash
# The monkey test: random mouse clicks, drags (left, right, middle), wheel turns, keys
# and numbers typed into the panels' fields, for SECONDS, against APP (meant for the
# AddressSanitizer + UBSan build) under the current X display (xvfb-run -a -s
# "-screen 0 1280x720x24"), in DIR. Every choice comes from bash's RANDOM seeded with
# SEED and is logged to DIR/actions.log, so a failure can be run again the same way.
# Where to click comes from the app's layout report (a short first run): the panels'
# rectangles, the view and the numeric fields.
#
# Fails (exit 1, saying why) on: the app gone before the end (a crash or a sanitizer
# abort), a sanitizer report or a non-finite state on its stderr, no answer to the
# final Ctrl+Q within 60 s (not responsive), or a saved world or layout report with a
# non-finite number. Keys that quit (Ctrl+Q) are kept out of the random ones; F12 and
# the Video button's files are removed as the run goes; the presets are the small
# ones (IMPULSE_DATA_DIR): pile1000 under the sanitizers would only measure patience.
# Usage: monkey_with_xdotool.sh APP SIM DIR SECONDS SEED
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
app=$(realpath "$1") sim=$(realpath "$2") dir=$3 seconds=$4 seed=$5
source_dir=$(cd "$here/../.." && pwd)
mkdir -p "$dir"
cd "$dir"
. "$here/xdotool_input.sh"  # start_app, move, click, hold
echo "monkey: seed $seed, $seconds s, in $dir (run again: the same SEED)"

# Small presets only, and a scene to start from that Save may write over.
mkdir -p data/assets/scenes
ln -sfn "$source_dir/shaders" data/shaders
for preset in "$source_dir"/assets/scenes/*.json; do
    case "$(basename "$preset")" in pile1000.json) continue ;; esac
    cp "$preset" data/assets/scenes/
done
cp "$source_dir/tests/app/data/ground_crate_ball.json" scene.json
export IMPULSE_DATA_DIR="$dir/data" IMPULSE_STATE_DIR="$dir/state"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0:abort_on_error=1"  # leaks: see run() in test_app_run.cpp
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

fail() {
    echo "monkey FAILED (seed $seed): $*" >&2
    echo "last actions:" >&2
    tail -n 15 actions.log >&2 || true
    echo "app's stderr (last lines):" >&2
    tail -n 40 stderr.txt >&2 || true
    exit 1
}

# The layout: panels, view and fields as this window lays them out.
IMPULSE_LAYOUT_JSON="$dir/layout.json" "$app" scene.json --paused --frames 20 > /dev/null 2> layout-stderr.txt ||
    { cat layout-stderr.txt >&2; fail "the layout run failed"; }
mapfile -t regions < <(python3 - "$dir/layout.json" <<'EOF'
import json, sys
layout = json.load(open(sys.argv[1]))
view = layout["view"]
print("view %d %d %d %d" % tuple(view))
for name, r in layout["panels"].items():
    print("panel %d %d %d %d %s" % (r[0], r[1], r[2], r[3], name.replace(" ", "_")))
for name, r in layout["fields"].items():
    print("field %d %d %d %d %s" % (r[0], r[1], r[2], r[3], name.replace(" ", "_")))
EOF
)
panels=() fields=() view=()
for region in "${regions[@]}"; do
    read -r kind x y w h name <<<"$region"
    case "$kind" in
        view) view=("$x" "$y" "$w" "$h") ;;
        panel) panels+=("$x $y $w $h $name") ;;
        field) fields+=("$x $y $w $h $name") ;;
    esac
done
[ ${#panels[@]} -gt 0 ] && [ ${#fields[@]} -gt 0 ] || fail "the layout report has no panels or fields"

IMPULSE_LAYOUT_JSON="$dir/final-layout.json" start_app "$app" scene.json --frames 100000000 \
    --save-on-exit "$dir/final.json" > stdout.txt 2> stderr.txt
RANDOM=$seed
n=0
log() { n=$((n + 1)); echo "$n $*" >> actions.log; }
# A random point in the rectangle x y w h (kept 2 px inside): sets $px $py.
point_in() {
    px=$(($1 + 2 + RANDOM % ($3 > 4 ? $3 - 4 : 1)))
    py=$(($2 + 2 + RANDOM % ($4 > 4 ? $4 - 4 : 1)))
}
point_anywhere() {  # the view (2 in 5) or a panel
    if [ $((RANDOM % 5)) -lt 2 ]; then
        point_in "${view[@]}"
    else
        local panel=(${panels[$((RANDOM % ${#panels[@]}))]})
        point_in "${panel[@]:0:4}"
    fi
}
numbers=(0 1 -1 0.5 25 -3.5 1e9 -1e9 1e-9 3.14159 100000 0.001 -0.001 7 2 1e30 -1e30 45 360 -90)
keys=(b n t space s period comma r c l bracketleft bracketright h F1 Delete x f i o Home End Escape Tab
      ctrl+z ctrl+y ctrl+shift+z ctrl+d shift+space Left Right Return BackSpace)
drag() {  # button: mousedown at a random point, a few moves, mouseup
    point_anywhere
    move "$px" "$py"
    xdotool mousedown "$1"; sleep 0.05
    local steps=$((1 + RANDOM % 8)) dx=$((RANDOM % 41 - 20)) dy=$((RANDOM % 41 - 20))
    for _ in $(seq "$steps"); do
        xdotool mousemove_relative -- "$dx" "$dy"; sleep 0.04
    done
    xdotool mouseup "$1"; sleep 0.05
    log "drag button $1 from $px $py by $steps x ($dx, $dy)"
}
type_number() {  # into the field at x y w h: Ctrl+click makes it a text field
    point_in "$@"
    local number=${numbers[$((RANDOM % ${#numbers[@]}))]}
    move "$px" "$py"
    xdotool keydown ctrl; sleep 0.05; xdotool click 1; sleep 0.05; xdotool keyup ctrl; sleep 0.1
    hold ctrl+a
    xdotool type --delay 30 -- "$number"; sleep 0.1
    hold Return
    log "type $number at $px $py ($5)"
}

act() {  # one random action
    choice=$((RANDOM % 100))
    if [ $choice -lt 25 ]; then
        point_anywhere
        click "$px" "$py"
        log "click $px $py"
    elif [ $choice -lt 37 ]; then
        drag 1
    elif [ $choice -lt 45 ]; then
        drag $((RANDOM % 2 ? 3 : 2))
    elif [ $choice -lt 53 ]; then
        point_anywhere
        move "$px" "$py"
        wheel=$((RANDOM % 2 ? 4 : 5)) turns=$((1 + RANDOM % 3))
        xdotool click --repeat "$turns" --delay 30 "$wheel"
        log "wheel $wheel x $turns at $px $py"
    elif [ $choice -lt 75 ]; then
        key=${keys[$((RANDOM % ${#keys[@]}))]}
        xdotool key --delay 40 "$key"; sleep 0.1
        log "key $key"
    elif [ $choice -lt 90 ]; then
        field=(${fields[$((RANDOM % ${#fields[@]}))]})
        type_number "${field[@]}"
    else
        # Double-click somewhere in a panel and type: the Body panel's fields, the
        # inertia grid and the path field are there only once something is selected.
        panel=(${panels[$((RANDOM % ${#panels[@]}))]})
        point_in "${panel[@]:0:4}"
        number=${numbers[$((RANDOM % ${#numbers[@]}))]}
        move "$px" "$py"
        xdotool click --repeat 2 --delay 60 1; sleep 0.1
        xdotool type --delay 30 -- "$number"; sleep 0.1
        hold Return
        log "double-click $px $py, type $number"
    fi
}

end=$((SECONDS + seconds))
while [ $SECONDS -lt $end ] && kill -0 "$pid" 2>/dev/null; do
    act || true  # xdotool fails once the window is gone: said below
    [ $((n % 20)) -eq 0 ] && rm -rf impulse-lab-video-* impulse-lab-*.png  # F12's and the Video button's files
done

kill -0 "$pid" 2>/dev/null || { wait "$pid" || status=$?; fail "the app ended during the run (exit ${status:-0})"; }
# The final action: close what is open, then Ctrl+Q (--save-on-exit: no question).
hold Escape
hold Escape
move "$((view[0] + view[2] / 2))" "$((view[1] + view[3] / 2))"
xdotool key --delay 40 ctrl+q
log "final ctrl+q"
for _ in $(seq 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"; sleep 5; kill -KILL "$pid" 2>/dev/null || true
    fail "no answer to the final Ctrl+Q within 60 s"
fi
status=0
wait "$pid" || status=$?
trap - EXIT
[ "$status" -eq 0 ] || fail "the app exited with $status"
if grep -E "ERROR: AddressSanitizer|runtime error:|Sanitizer:|non-finite" stderr.txt > /dev/null; then
    fail "a sanitizer report or a non-finite state on stderr"
fi
"$sim" final.json --steps 1 > /dev/null 2> sim-stderr.txt ||
    { cat sim-stderr.txt >&2; fail "the world saved at the end does not load (non-finite?)"; }
python3 - "$dir/final-layout.json" <<'EOF' || fail "the layout report at the end has a non-finite number"
import json, math, sys
def finite(value):
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(finite(v) for v in value)
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    return value is not None
sys.exit(0 if finite(json.load(open(sys.argv[1]))["bodies"]) else 1)
EOF
echo "monkey: $n actions in $seconds s, seed $seed: no crash, no sanitizer report, finite state, answered the final Ctrl+Q"
