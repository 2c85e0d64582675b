#!/usr/bin/env bash
# The two set-up commands of the README, for a fresh Debian 12 machine:
#   scripts/dev.sh run [SCENE.json]   install missing packages, build, start the app
#   scripts/dev.sh test               install missing packages, build, run every test
#                                     (those driving the app under Xvfb in the sanitizer build),
#                                     the determinism hash again in an SSE2 build,
#                                     impulse-sim built for the web giving the same bytes,
#                                     then every test under AddressSanitizer + UBSan and
#                                     the monkey test (tests/app/monkey_with_xdotool.sh),
#                                     the tests that run threads under ThreadSanitizer
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
packages=(build-essential cmake ninja-build pkg-config python3
          libsdl2-dev libglm-dev libimgui-dev libstb-dev khronos-api nlohmann-json3-dev
          libgtest-dev libbenchmark-dev xvfb xauth xdotool)
# `test` also builds the scene-loader fuzzer (clang with its libFuzzer runtime),
# impulse-sim for the web (emscripten, run by node), and checks the shaders as GLSL ES
# for WebGL2 (glslangValidator).
test_packages=(clang-14 libclang-rt-14-dev emscripten glslang-tools)
jobs=$(nproc 2>/dev/null || echo 2)

install_missing_packages() {
    local missing=()
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "== installing missing Debian packages: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_and_build DIR [cmake options...]
configure_and_build() {
    local dir=$1
    shift
    cmake -S "$root" -B "$dir" -G Ninja "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
}

# The sanitizer builds: line tables only (-g1) name a report's lines, and compile in
# about two thirds of the time of full debug information.
sanitizer_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                 "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")

run_tests() {  # DIR [ctest options...]
    local dir=$1
    shift
    ctest --test-dir "$dir" -j "$jobs" --output-on-failure "$@"
}

command=${1:-}
case "$command" in
    run)
        shift
        install_missing_packages
        configure_and_build "$root/build" -DCMAKE_BUILD_TYPE=Release
        exec "$root/build/src/app/impulse-lab" "$@"
        ;;
    test)
        packages+=("${test_packages[@]}")
        install_missing_packages
        echo "== Release build and tests"
        configure_and_build "$root/build" -DCMAKE_BUILD_TYPE=Release
        # The app driven by xdotool under Xvfb (label xvfb) runs in the sanitizer build below,
        # with the same checks: twice would be a quarter of the whole command's time.
        run_tests "$root/build" -LE xvfb
        # That build's contact solver is 8 lanes wide where this machine runs AVX2
        # (IMPULSE_AVX2 AUTO); the committed hash must come out 4 lanes wide too.
        echo "== SSE2 physics build: the determinism hash"
        cmake -S "$root" -B "$root/build-sse2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIMPULSE_AVX2=OFF \
            -DIMPULSE_BUILD_APP=OFF -DIMPULSE_BUILD_BENCH=OFF >/dev/null
        cmake --build "$root/build-sse2" -j "$jobs" --target physics_tests
        "$root/build-sse2/tests/physics_tests" --gtest_filter='DeterminismHash.*'
        echo "== Web build of impulse-sim (emscripten, wasm SIMD): the same bytes as native"
        NODE_PATH=/usr/share/nodejs emcmake cmake -S "$root" -B "$root/build-web" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DIMPULSE_BUILD_APP=OFF -DIMPULSE_BUILD_TESTS=OFF -DIMPULSE_BUILD_BENCH=OFF -DIMPULSE_AVX2=OFF \
            -DCMAKE_CXX_FLAGS=-fexceptions -DCMAKE_EXE_LINKER_FLAGS=-fexceptions >/dev/null
        NODE_PATH=/usr/share/nodejs cmake --build "$root/build-web" -j "$jobs" --target impulse-sim
        "$root/tests/web/same_bytes_as_native.sh" "$root/build/src/cli/impulse-sim" \
            "$root/build-web/src/cli/impulse-sim.js" "$root"
        echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
        configure_and_build "$root/build-asan" "${sanitizer_flags[@]}" -DIMPULSE_SANITIZE=ON
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            run_tests "$root/build-asan"
        # Random clicks, drags, wheel turns, keys and typed numbers against the sanitizer
        # build of the app; a new seed each run, printed, so a failure can be run again
        # with MONKEY_SEED=N.
        echo "== monkey test: 60 s of random input, sanitizer build of the app"
        monkey_dir=$(mktemp -d)
        xvfb-run -a -s "-screen 0 1280x720x24" "$root/tests/app/monkey_with_xdotool.sh" \
            "$root/build-asan/src/app/impulse-lab" "$root/build-asan/src/cli/impulse-sim" "$monkey_dir" 60 \
            "${MONKEY_SEED:-$(date +%s)}"
        rm -rf "$monkey_dir"
        # Only the tests that run threads (threads_tests, tests/CMakeLists.txt): the
        # physics thread team, the autosave's writer, the run's CSV export and the video
        # writer, and the sweep's workers (sweep_tests). A data race report fails the run
        # (halt_on_error; TSAN's exit code 66).
        echo "== ThreadSanitizer build and the tests that run threads"
        cmake -S "$root" -B "$root/build-tsan" -G Ninja "${sanitizer_flags[@]}" -DIMPULSE_SANITIZE=thread \
            -DIMPULSE_BUILD_BENCH=OFF >/dev/null
        cmake --build "$root/build-tsan" -j "$jobs" --target threads_tests sweep_tests
        (cd "$root/build-tsan/tests" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ./threads_tests)
        (cd "$root/build-tsan/tests" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ./sweep_tests)
        # The scene-loader fuzzer (clang, libFuzzer + ASan + UBSan) for a bounded 60 s;
        # a crash input is kept in fuzz/regressions/ and fails the run. Its toolchain
        # was installed above, so a missing one is an error, not a skip.
        if ! fuzz_missing=$("$root/fuzz/run.sh" --available); then
            echo "== the scene fuzzer cannot be built: $fuzz_missing" >&2
            exit 1
        fi
        echo "== scene fuzzer, 60 s"
        "$root/fuzz/run.sh" 60
        ;;
    *)
        echo "usage: scripts/dev.sh run [SCENE.json] | scripts/dev.sh test" >&2
        exit 2
        ;;
esac
