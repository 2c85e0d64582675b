#!/usr/bin/env bash
# Builds the scene-loader and recording-reader fuzzers (clang, libFuzzer + ASan +
# UBSan) and runs each for half of a bounded time:
#   fuzz/run.sh SECONDS       build, fuzz for SECONDS in all, exit 1 if one crashed
#   fuzz/run.sh --available   exit 0 if clang and its libFuzzer runtime are present
# Scene fuzzer: seeds are every file under assets/scenes/ (copied at run time),
# fuzz/seeds/ and the kept regressions; the dictionary is fuzz/scene.dict; a crash,
# hang (-timeout) or out-of-memory input is written to fuzz/regressions/.
# Recording fuzzer: seeds assets/recordings/ and fuzz/recording_regressions/; the
# dictionary fuzz/scene.dict plus fuzz/recording.dict; its finds go to
# fuzz/recording_regressions/. tests/robustness/test_fuzz_regressions.cpp replays
# both folders in the normal suite.
# The corpora grown by earlier runs are kept in build-fuzz/corpus and
# build-fuzz/recording_corpus.
# Environment: CXX_FUZZ (clang++ to use), FUZZ_BUILD_DIR, FUZZ_MAX_LEN (bytes,
# default 32768), FUZZ_TIMEOUT (s per input, default 20), JOBS (build, default 2).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}

find_clang() {
    local candidate
    for candidate in ${CXX_FUZZ:-} clang++-14 clang++; do
        if command -v "$candidate" >/dev/null 2>&1; then
            echo "$candidate"
            return 0
        fi
    done
    return 1
}

# Prints why the fuzzer cannot be built, or nothing.
missing_toolchain() {
    local cxx runtime
    if ! cxx=$(find_clang); then
        echo "clang++ not found (install clang-14)"
        return 0
    fi
    runtime=$("$cxx" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
    if [ ! -f "$runtime" ]; then
        runtime=$(ls "$("$cxx" -print-resource-dir 2>/dev/null)"/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
    fi
    if [ -z "$runtime" ] || [ ! -f "$runtime" ]; then
        echo "the libFuzzer runtime of $cxx (libclang_rt.fuzzer-x86_64.a) is missing"
    fi
}

if [ "${1:-}" = "--available" ]; then
    reason=$(missing_toolchain)
    if [ -n "$reason" ]; then
        echo "$reason"
        exit 1
    fi
    exit 0
fi

seconds=${1:-}
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: fuzz/run.sh SECONDS | fuzz/run.sh --available" >&2
    exit 2
fi
reason=$(missing_toolchain)
if [ -n "$reason" ]; then
    echo "fuzz/run.sh: cannot build the fuzzer: $reason" >&2
    exit 2
fi
cxx=$(find_clang)

echo "== building the fuzzers ($cxx) in $build"
cmake -S "$root/fuzz" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$build" -j "${JOBS:-2}"

seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT
status=0

# fuzz NAME SECONDS CORPUS REGRESSIONS DICT SEED_FOLDER...: runs one fuzzer; status 1 if it failed.
fuzz() {
    local name=$1 time=$2 corpus=$3 regressions=$4 dict=$5
    shift 5
    local seedDir="$seeds/$name" log="$build/$name-$(date +%Y%m%d-%H%M%S).log" before after new result=0
    mkdir -p "$seedDir" "$corpus" "$regressions"
    # Copies named by their path, so files of the same name in subfolders do not collide.
    while IFS= read -r -d '' file; do
        relative=${file#"$root"/}
        cp "$file" "$seedDir/${relative//\//_}"
    done < <(find "$@" -type f ! -name README.md ! -name .gitkeep -print0)
    echo "== $name: fuzzing for $time s (log: $log)"
    before=$(find "$regressions" -type f | sort)
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$build/$name" "$corpus" "$seedDir" \
        -dict="$dict" \
        -max_total_time="$time" \
        -max_len="${FUZZ_MAX_LEN:-32768}" \
        -timeout="${FUZZ_TIMEOUT:-20}" \
        -rss_limit_mb=2048 \
        -report_slow_units=1000000 \
        -artifact_prefix="$regressions/" \
        -print_final_stats=1 >"$log" 2>&1 || result=$?
    grep -E '^(stat::|#[0-9]+ +DONE|INFO: (seed corpus|Loaded))' "$log" || true
    after=$(find "$regressions" -type f | sort)
    new=$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d')
    if [ "$result" -ne 0 ] || [ -n "$new" ]; then
        echo "== $name failed (exit $result); last lines of $log:" >&2
        tail -n 40 "$log" >&2
        [ -n "$new" ] && echo "== new regression input(s), replayed by tests/robustness: $new" >&2
        status=1
    fi
}

half=$(( (seconds + 1) / 2 ))
fuzz scene_fuzzer "$half" "$build/corpus" "$root/fuzz/regressions" "$root/fuzz/scene.dict" \
    "$root/assets/scenes" "$root/fuzz/seeds" "$root/fuzz/regressions"
cat "$root/fuzz/scene.dict" "$root/fuzz/recording.dict" >"$seeds/recording.dict"
fuzz recording_fuzzer "$half" "$build/recording_corpus" "$root/fuzz/recording_regressions" "$seeds/recording.dict" \
    "$root/assets/recordings" "$root/fuzz/recording_regressions"
[ "$status" -eq 0 ] && echo "== fuzzing finished: no crash"
exit "$status"
