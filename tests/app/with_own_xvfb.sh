#!/usr/bin/env bash
# with_own_xvfb.sh WIDTHxHEIGHTxDEPTH COMMAND [ARGUMENTS...]
# Runs COMMAND under an X server of its own (Xvfb picks a free display itself with
# -displayfd, so runs started together never take the same one, as `xvfb-run -a` can)
# and, unless the caller set them, with settings and autosave folders of its own: the
# Xvfb app tests run side by side. Exits with COMMAND's status; the server ends with it.
set -euo pipefail
screen=$1
shift
own=$(mktemp -d "${TMPDIR:-/tmp}/impulse_xvfb.XXXXXX")
Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3> "$own/display" 2> "$own/xvfb.log" &
server=$!
command_pid=
cleanup() {
    [ -n "$command_pid" ] && kill "$command_pid" 2>/dev/null
    kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$own"
}
trap cleanup EXIT
trap 'exit 143' TERM INT  # timeout(1) ending the test: the EXIT trap still stops the server
for _ in $(seq 200); do  # the server writes its display number once it accepts clients
    [ -s "$own/display" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
        echo "with_own_xvfb.sh: Xvfb did not start:" >&2
        cat "$own/xvfb.log" >&2
        exit 1
    fi
    sleep 0.05
done
display=$(head -n 1 "$own/display")
if [ -z "$display" ]; then
    echo "with_own_xvfb.sh: Xvfb gave no display number within 10 s" >&2
    exit 1
fi
mkdir -p "$own/config" "$own/state"
export DISPLAY=":$display" XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$own/config}" XDG_STATE_HOME="${XDG_STATE_HOME:-$own/state}"
# In the background so that a TERM reaches the trap while COMMAND runs.
"$@" &
command_pid=$!
status=0
wait "$command_pid" || status=$?
command_pid=
exit "$status"
