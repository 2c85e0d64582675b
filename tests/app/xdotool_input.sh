# Real input for the *_with_xdotool.sh scripts, sourced by them: start_app starts the
# app and sets $pid and $wid, its window, which the rest need. ImGui 1.86 reads the
# mouse and the keys once a frame, and misses bare absolute moves: each step below is
# held across frames, each move nudged.
start_app() {  # app [arguments...]; redirections and environment as for a command
    "$@" &
    pid=$!
    trap 'kill $pid 2>/dev/null || true' EXIT  # the script failed: do not leave the app running
    wid=$(timeout 20 xdotool search --sync --onlyvisible --name '^Impulse Lab')
    wid=${wid%%$'\n'*}
    sleep 1.0  # first frames; the camera frames the scene
}
move() {  # x y
    xdotool mousemove --window "$wid" "$1" "$2"; sleep 0.05
    xdotool mousemove_relative 1 0; sleep 0.03
    xdotool mousemove_relative -- -1 0; sleep 0.1
}
click() {  # x y
    move "$1" "$2"
    xdotool mousedown 1; sleep 0.1
    xdotool mouseup 1; sleep 0.2
}
hold() {  # a key or chord (ctrl+a) that ImGui itself must see
    xdotool keydown "$1"; sleep 0.25
    xdotool keyup "$1"; sleep 0.1
}
type_into_drag_field() {  # x y text: Ctrl+click the field, select all, type, Enter
    # Ctrl+click turns a drag field into a text field (a text field takes it as a click);
    # ImGui 1.86 reads the mouse and held keys once per frame, so each is held across frames.
    move "$1" "$2"
    xdotool keydown ctrl; sleep 0.1
    xdotool mousedown 1; sleep 0.1
    xdotool mouseup 1; sleep 0.1
    xdotool keyup ctrl; sleep 0.2
    hold ctrl+a
    xdotool type --delay 60 -- "$3"; sleep 0.2
    hold Return
    sleep 0.3
}
key() { xdotool key --delay 40 "$@"; sleep 0.3; }  # keys for the app (not ImGui)
quit_app() {  # Ctrl+Q, answering the quit question (an unsaved edit) with Enter; fails after 30 s
    key ctrl+q
    local deadline=$((SECONDS + 30))
    while kill -0 "$pid" 2>/dev/null; do
        if [ $SECONDS -ge $deadline ]; then
            echo "check: FAILED: the app did not quit" >&2
            exit 1
        fi
        # ImGui reads Enter once a frame: held across frames, and again while the question shows.
        [ "$(value "'Confirm/Quit' in w")" = True ] && hold Return
        sleep 0.2
    done
    wait "$pid"
    trap - EXIT
}
in_view_key() {  # the keys reach the app with the mouse over the 3D view (the report's)
    # shellcheck disable=SC2046
    move $(value "'%d %d' % (d['view'][0] + d['view'][2] / 2, d['view'][1] + d['view'][3] * 0.8)")
    key "$@"
}

# What the app shows, from its live layout report at $report (start the app with
# IMPULSE_LAYOUT_JSON="$report" IMPULSE_LAYOUT_LIVE=1: App::writeLayout).
# value EXPRESSION: a Python expression over s (the report's "state"), c ("camera"),
# w ("widgets"), f ("fields"), t ("timeline"), o ("observations"), pixel(name) (where a body's centre is drawn, by the
# report's camera and view) and nearest(pattern) (of the bodies whose names match the regular
# expression and whose centre is drawn in the view, 20 px inside its edges, the one nearest
# the eye: no other body hides its centre, and a click there is not on a panel; a body the
# shot threw beside the tower may be drawn under the panels); empty while there is no report yet.
value() {
    python3 - "$report" "$1" <<'PY' 2> /dev/null || true
import json, math, re, sys
d = json.load(open(sys.argv[1]))
s, c, w, f, t, o = d["state"], d["camera"], d["widgets"], d["fields"], d["timeline"], d["observations"]
def view_basis():  # OrbitCamera: yaw about +y (0 looks along -z), pitch down, degrees here
    yaw, pitch = math.radians(c["yaw"]), math.radians(c["pitch"])
    fwd = [-math.sin(yaw) * math.cos(pitch), -math.sin(pitch), -math.cos(yaw) * math.cos(pitch)]
    r = [-fwd[2], 0.0, fwd[0]]
    r = [x / math.hypot(*r) for x in r]
    u = [r[1] * fwd[2] - r[2] * fwd[1], r[2] * fwd[0] - r[0] * fwd[2], r[0] * fwd[1] - r[1] * fwd[0]]
    eye = [c["target"][i] - fwd[i] * c["distance"] for i in range(3)]
    return fwd, r, u, eye
def project(name):  # where a body's centre is drawn, and its depth along the view
    fwd, r, u, eye = view_basis()
    p = next(b["drawn"] for b in d["bodies"] if b["name"] == name)  # between steps, or a move's preview
    v = [p[i] - eye[i] for i in range(3)]
    z = sum(v[i] * fwd[i] for i in range(3))
    x0, y0, vw, vh = d["view"]
    t = math.tan(math.radians(c["fov_y"]) / 2)
    nx = sum(v[i] * r[i] for i in range(3)) / (z * t * vw / vh)
    ny = sum(v[i] * u[i] for i in range(3)) / (z * t)
    return int(x0 + (nx + 1) / 2 * vw), int(y0 + (1 - ny) / 2 * vh), z
def pixel(name):
    return project(name)[:2]
def in_view(name, margin):  # drawn in front of the eye, `margin` px inside the view's edges
    x, y, z = project(name)
    x0, y0, vw, vh = d["view"]
    return z > 0 and x0 + margin <= x <= x0 + vw - margin and y0 + margin <= y <= y0 + vh - margin
def nearest(pattern):
    eye = view_basis()[3]
    named = (b for b in d["bodies"] if re.fullmatch(pattern, b["name"]) and in_view(b["name"], 20))
    return min(named, key=lambda b: math.dist(b["position"], eye))["name"]
print(eval(sys.argv[2]))
PY
}
# expect EXPRESSION WHAT [SECONDS]: waits until EXPRESSION holds (at most SECONDS, 10 by
# default), or fails naming WHAT.
expect() {
    local deadline=$((SECONDS + ${3:-10}))
    until [ "$(value "$1")" = True ]; do
        if [ $SECONDS -ge $deadline ]; then
            echo "check: FAILED: $2 (expected $1); the app shows: $(value 's')" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "check: ok: $2"
}
# at WIDGET: the centre of a widget ("Window/label") as the report has it drawn.
at() {
    expect "'$1' in w" "$1 is drawn" >&2  # stdout is the position
    value "'%d %d' % (w['$1'][0] + w['$1'][2] / 2, w['$1'][1] + w['$1'][3] / 2)"
}
# field_at LABEL: the centre of a numeric field (the report's "fields").
field_at() {
    expect "'$1' in f" "the field $1 is drawn" >&2
    value "'%d %d' % (f['$1'][0] + f['$1'][2] / 2, f['$1'][1] + f['$1'][3] / 2)"
}
press() {  # WIDGET: a click on it
    # shellcheck disable=SC2046
    click $(at "$1")
}
