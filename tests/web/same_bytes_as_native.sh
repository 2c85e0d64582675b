#!/usr/bin/env bash
# The web build gives the desktop's bytes: impulse-sim built with emscripten
# (wasm SIMD for the SSE2 path, run by node) and the native impulse-sim write
# the same CSV, byte for byte, for scenes of boxes, spheres, user inertia
# tensors and torque-free tumbling, and replaying the shipped recordings. Prints each scene's median step time on both.
# usage: same_bytes_as_native.sh NATIVE_IMPULSE_SIM WEB_IMPULSE_SIM_JS SOURCE_DIR
set -euo pipefail
native=$1
web=$2
source_dir=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
median() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['step_time_ms']['median'])" "$1"; }
failed=0
for scene in default bench/pile1000 bench/spheres1000 spin_intermediate_axis classroom/dzhanibekov_tumble \
             sphere_hits_spinning_box; do
    file="$source_dir/assets/scenes/$scene.json"
    "$native" "$file" --steps 300 --csv "$work/native.csv" --summary >"$work/native.json"
    node --no-experimental-fetch "$web" "$file" --steps 300 --csv "$work/web.csv" --summary >"$work/web.json"
    if cmp -s "$work/native.csv" "$work/web.csv"; then
        verdict="same bytes"
    else
        verdict="DIFFERENT: $(cmp "$work/native.csv" "$work/web.csv" | head -1)"
        failed=1
    fi
    printf '%-32s %s (median step: native %.3f ms, wasm %.3f ms)\n' "$scene" "$verdict" \
        "$(median "$work/native.json")" "$(median "$work/web.json")"
done
# A recording (drags, edits, spawns at their steps) replays to the same bytes too.
for recording in "$source_dir"/assets/recordings/*.json; do
    "$native" --replay "$recording" --csv "$work/native.csv"
    node --no-experimental-fetch "$web" --replay "$recording" --csv "$work/web.csv"
    if cmp -s "$work/native.csv" "$work/web.csv"; then
        printf '%-32s same bytes\n' "replay $(basename "$recording")"
    else
        printf '%-32s DIFFERENT: %s\n' "replay $(basename "$recording")" "$(cmp "$work/native.csv" "$work/web.csv" | head -1)"
        failed=1
    fi
done
exit $failed
