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
