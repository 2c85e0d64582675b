# Real input for the *_with_xdotool.sh scripts, sourced by them; needs $wid, the
# app's window. ImGui 1.86 reads the mouse and the keys once a frame, and misses bare
# absolute moves: each step below is held across frames, each move nudged.
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
