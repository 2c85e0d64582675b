#!/usr/bin/env python3
"""Scene benchmark: runs the bench scenes through impulse-sim --summary (and optionally
bullet-sim) several times and writes a Markdown table to bench/results/<machine>.md.

Usage:
  bench/run_bench.py [--sim build/src/cli/impulse-sim] [--commit SHA] [--bullet PATH]
                     [--baseline OTHER-impulse-sim --baseline-label NAME] [--machine NAME]
                     [--runs 5] [--big-runs 3] [--scenes a,b] [--out FILE] [--max-load 1.5]
                     [--wait-load 600] [--note TEXT] [--quick]

--baseline runs a second impulse-sim (e.g. built from an earlier commit) in the same
session, interleaved with the first, for before/after columns measured under the same
conditions. --commit names the commit the --sim binary was built from when that is not
the repository's HEAD (e.g. a build of a `git archive` export).

Method (also written into the report):
  - impulse-sim times every World::step with steady_clock and reports the median and
    the p95 of the step times of one run; this script runs each scene several times,
    round-robin over the scenes so that a burst of load on the machine hits all scenes
    alike, and reports the MEDIAN OVER RUNS of the per-run medians (and of the per-run
    p95s), plus the spread of the per-run medians ((max - min) / median) as a noise check;
  - cpu/wall is the child's user+sys time over its wall time: well below 1 means the
    process waited for a CPU (a busy machine) and its wall-clock step times are inflated;
  - cpu ms/step is the child's user+sys CPU time minus that of a --steps 0 run of the same
    scene (loading, building, writing the summary), divided by the steps: a MEAN step cost
    that, unlike wall-clock time, hardly changes when other processes compete for the CPUs
    (shared caches and memory bandwidth still do); median over runs;
  - stability figures come from the final state in the summary (identical in every run:
    the simulation is deterministic, which this script checks): drift = |final position -
    initial position|; escaped = dynamic bodies whose centre is outside the pen's inner
    wall faces or below the ground's top face; max speed = fastest final body speed.
Python 3 standard library only.
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE_DIR = os.path.join(ROOT, "assets", "scenes", "bench")

# name, file, steps, kind. pile1000 runs 1,200 steps as in the table; the
# scaling series (pile1000/4000/16000 at 600 steps = 10 s, the pile has settled after
# about 3 s) compares per-body cost over the same simulated time window.
SCENES = [
    ("pyramid20", "pyramid20.json", 600, "resting"),
    ("tower10", "tower10.json", 600, "resting"),
    ("pile1000", "pile1000.json", 1200, "pile"),
    ("spheres1000", "spheres1000.json", 600, "pile"),
    ("pile1000@600", "pile1000.json", 600, "pile"),
    ("pile4000", "pile4000.json", 600, "pile"),
    ("pile16000", "pile16000.json", 600, "pile"),
]
BIG = {"pile4000", "pile16000"}  # run --big-runs times
SCALING = ["pile1000@600", "pile4000", "pile16000"]
QUICK_SCENES = [("tower10", "tower10.json", 60, "resting"), ("pyramid20", "pyramid20.json", 30, "resting"),
                ("pile1000", "pile1000.json", 30, "pile")]

# Issue 4's reference figures (Jolt master one thread, Bullet 3.24, ODE 0.16, "a machine like
# yours") and our goals.
REFERENCE = {
    ("pyramid20", "median_ms"): ("0.57", "0.77", "1.30 (collapses)", "<= 0.5"),
    ("pyramid20", "max_drift"): ("3.6 cm", "23 cm", "27 m", "<= 1 cm"),
    ("pile1000", "median_ms"): ("2.58", "4.6", "5.5", "<= 2.3"),
    ("spheres1000", "median_ms"): ("2.23", "2.55", "2.72", "<= 2.0"),
    ("tower10", "top_drift"): ("2.2 cm", "55 cm", "12 m", "<= 0.5 cm"),
}


def median(values):
    values = sorted(values)
    n = len(values)
    if n == 0:
        return float("nan")
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def scene_facts(path):
    """Initial positions, dynamic body names, pen bounds and ground top from a scene file."""
    with open(path, encoding="utf-8") as f:
        scene = json.load(f)
    initial, dynamic = {}, []
    statics = []
    for i, body in enumerate(scene["bodies"]):
        name = body.get("name", "body%d" % i)
        initial[name] = body["position"]
        if body.get("static"):
            if body["shape"]["type"] == "box":
                statics.append((body["position"], body["shape"]["half_extents"]))
        else:
            dynamic.append(name)
    ground_top, pen = None, None
    if statics:
        # The ground is the widest static box; the other static boxes are the pen's walls.
        ground = max(statics, key=lambda s: s[1][0] * s[1][2])
        ground_top = ground[0][1] + ground[1][1]
        walls = [s for s in statics if s is not ground]
        if walls:
            limits = [float("inf"), float("inf")]  # inner half-widths along x and z
            for position, half in walls:
                axis = 0 if half[0] < half[2] else 1
                coordinate = position[0] if axis == 0 else position[2]
                thickness = half[0] if axis == 0 else half[2]
                limits[axis] = min(limits[axis], abs(coordinate) - thickness)
            pen = limits
    top = max(dynamic, key=lambda n: initial[n][1]) if dynamic else None
    return {"initial": initial, "dynamic": dynamic, "pen": pen, "ground_top": ground_top, "top": top,
            "bodies": len(scene["bodies"])}


def stability(summary, facts):
    final = {b["name"]: b for b in summary["bodies"]}
    drift = {}  # name -> (total, horizontal, vertical)
    for name in facts["dynamic"]:
        p0, p1 = facts["initial"][name], final[name]["position"]
        d = [b - a for a, b in zip(p0, p1)]
        drift[name] = (math.sqrt(d[0] ** 2 + d[1] ** 2 + d[2] ** 2), math.hypot(d[0], d[2]), d[1])
    escaped = 0
    for name in facts["dynamic"]:
        x, y, z = final[name]["position"]
        outside = facts["pen"] is not None and (abs(x) > facts["pen"][0] or abs(z) > facts["pen"][1])
        below = facts["ground_top"] is not None and y < facts["ground_top"]
        escaped += outside or below
    return {
        "max_drift": max(drift.values()) if drift else (0.0, 0.0, 0.0),
        "top_drift": drift.get(facts["top"], (0.0, 0.0, 0.0)),
        "escaped": escaped,
        "max_speed": summary["max_speed"],
        "contact_points": summary["contact_points"],
        "kinetic_energy": summary["kinetic_energy"],
        # Fingerprint of the final state, to check that runs agree bit for bit.
        "state": json.dumps([final[n]["position"] for n in facts["dynamic"]]),
    }


def run_once(binary, scene_path, steps, extra_args=()):
    """Runs one simulation; returns (summary, cpu/wall, cpu seconds)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        command = [binary, scene_path, "--steps", str(steps), "--summary", *extra_args]
        process = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            err.seek(0)
            raise RuntimeError("%s %s --steps %d failed (exit %d): %s" % (
                binary, scene_path, steps, process.returncode, err.read().decode(errors="replace").strip()))
        out.seek(0)
        summary = json.loads(out.read().decode())
    cpu = usage.ru_utime + usage.ru_stime
    return summary, cpu / wall if wall > 0 else float("nan"), cpu


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def build_info(binary):
    """Compiler and build type from the CMakeCache.txt of the binary's build tree."""
    directory = os.path.dirname(os.path.abspath(binary))
    while True:
        cache = os.path.join(directory, "CMakeCache.txt")
        if os.path.exists(cache):
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            return "unknown", "unknown"
        directory = parent
    values = {}
    with open(cache, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"(CMAKE_BUILD_TYPE|CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS_RELEASE):[A-Z]+=(.*)", line.strip())
            if m:
                values[m.group(1)] = m.group(2)
    compiler = values.get("CMAKE_CXX_COMPILER", "")
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        version = compiler or "unknown"
    build_type = values.get("CMAKE_BUILD_TYPE", "unknown")
    if build_type == "Release" and values.get("CMAKE_CXX_FLAGS_RELEASE"):
        build_type += " (%s)" % values["CMAKE_CXX_FLAGS_RELEASE"]
    return version, build_type


def git_info():
    def git(*args):
        return subprocess.run(["git", "-C", ROOT] + list(args), capture_output=True, text=True).stdout.strip()
    commit = git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "src/physics", "src/scene", "src/cli")
    return commit, bool(dirty)


def wait_for_quiet(max_load, wait_seconds):
    deadline = time.monotonic() + wait_seconds
    while True:
        load = os.getloadavg()[0]
        if load <= max_load or time.monotonic() >= deadline:
            return load
        print("load average %.2f > %.2f: waiting for a quiet machine..." % (load, max_load), file=sys.stderr)
        time.sleep(min(30, max(1, deadline - time.monotonic())))


def fmt_ms(x):
    return "%.3f" % x if x < 10 else "%.1f" % x


def fmt_length(metres):
    if metres < 1e-4:
        return "%.3f mm" % (metres * 1000)
    if metres < 0.01:
        return "%.2f mm" % (metres * 1000)
    if metres < 1:
        return "%.2f cm" % (metres * 100)
    return "%.2f m" % metres


def fmt_drift(d):
    """|d| with its horizontal and vertical (signed) parts: sinking into the slop vs leaning."""
    total, horizontal, vertical = d
    return "%s (h %s, v %s%s)" % (fmt_length(total), fmt_length(horizontal), "-" if vertical < 0 else "+",
                                  fmt_length(abs(vertical)))


def aggregate(results):
    """Per-engine, per-scene figures over runs."""
    medians = [r["median"] for r in results]
    m = median(medians)
    return {
        "median": m,
        "p95": median([r["p95"] for r in results]),
        "spread": (max(medians) - min(medians)) / m if m > 0 else 0.0,
        "cpu": median([r["cpu"] for r in results]),
        "cpu_ms": median([r["cpu_ms"] for r in results]),
        "runs": len(results),
        "stability": results[0]["stability"],
        "deterministic": all(r["stability"]["state"] == results[0]["stability"]["state"] for r in results),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sim", default=os.path.join(ROOT, "build", "src", "cli", "impulse-sim"),
                        help="impulse-sim of a Release build (default: build/src/cli/impulse-sim)")
    parser.add_argument("--commit", help="commit --sim was built from (default: the repository's HEAD)")
    parser.add_argument("--baseline", help="a second impulse-sim to compare with (e.g. an earlier commit)")
    parser.add_argument("--baseline-label", default="baseline", help="its name in the report (e.g. a commit)")
    parser.add_argument("--bullet", help="bullet-sim (bench/bullet) to run the same scenes through Bullet")
    parser.add_argument("--threads", type=int,
                        help="also run ours with --threads N (N >= 2); reports the speed-up over one thread")
    parser.add_argument("--machine", default=platform.node(), help="machine name for the report (default: hostname)")
    parser.add_argument("--runs", type=int, default=5, help="runs per scene (default 5)")
    parser.add_argument("--big-runs", type=int, default=3, help="runs of pile4000/pile16000 (default 3)")
    parser.add_argument("--scenes", help="comma-separated subset of: " + ", ".join(s[0] for s in SCENES))
    parser.add_argument("--out", help="report file (default bench/results/<machine>.md; --quick: stdout)")
    parser.add_argument("--max-load", type=float, default=1.5,
                        help="wait until the 1-minute load average is at most this before starting (default 1.5)")
    parser.add_argument("--wait-load", type=float, default=600,
                        help="longest wait for a quiet machine, s (default 600; then run anyway and say so)")
    parser.add_argument("--note", action="append", default=[], help="a line to add to the report header")
    parser.add_argument("--quick", action="store_true",
                        help="smoke test: three short scenes, one run, no load wait; checks that it all works")
    args = parser.parse_args()

    if args.quick:
        scenes, runs, big_runs, args.wait_load = QUICK_SCENES, 1, 1, 0
    else:
        scenes, runs, big_runs = SCENES, args.runs, args.big_runs
        if args.scenes:
            wanted = args.scenes.split(",")
            unknown = set(wanted) - {s[0] for s in SCENES}
            if unknown:
                parser.error("unknown scene(s): " + ", ".join(sorted(unknown)))
            scenes = [s for s in SCENES if s[0] in wanted]
    if args.threads is not None and args.threads < 2:
        parser.error("--threads: N must be at least 2 (one thread is what 'ours' runs)")
    # (name, binary, extra arguments)
    engines = [("ours", args.sim, ())]
    if args.threads:
        engines.append(("threads", args.sim, ("--threads", str(args.threads))))
    if args.baseline:
        engines.append(("base", args.baseline, ()))
    if args.bullet:
        engines.append(("bullet", args.bullet, ()))
    for _, binary, _ in engines:
        if not os.access(binary, os.X_OK):
            parser.error("not an executable: %s (build it first)" % binary)

    facts = {name: scene_facts(os.path.join(SCENE_DIR, file)) for name, file, _, _ in scenes}
    commit, dirty = git_info()  # before the runs: the tree may change while they go on
    load_start = wait_for_quiet(args.max_load, args.wait_load)
    started = datetime.datetime.now().astimezone()
    results = {(engine, s[0]): [] for engine, _, _ in engines for s in scenes}
    max_runs = max(runs, big_runs)
    # CPU time of loading, building and summarising each scene: subtracted from the runs'.
    setup_cpu = {}
    for _, file in {(s[1], s[1]) for s in scenes}:
        for engine, binary, extra in engines:
            setup_cpu[(engine, file)] = min(
                run_once(binary, os.path.join(SCENE_DIR, file), 0, extra)[2] for _ in range(2))
    loads = [load_start]
    for r in range(max_runs):
        if r > 0:
            # Between rounds our own process has just been running (about 1 on the load average).
            loads.append(wait_for_quiet(args.max_load + 1.0, min(args.wait_load, 300)))
        for name, file, steps, _ in scenes:
            if r >= (big_runs if name in BIG else runs):
                continue
            for engine, binary, extra in engines:
                summary, cpu, cpu_seconds = run_once(binary, os.path.join(SCENE_DIR, file), steps, extra)
                st = summary["step_time_ms"]
                cpu_ms = 1000.0 * max(0.0, cpu_seconds - setup_cpu[(engine, file)]) / steps if steps else 0.0
                results[(engine, name)].append({"median": st["median"], "p95": st["p95"], "cpu": cpu,
                                                "cpu_ms": cpu_ms, "stability": stability(summary, facts[name])})
                print("run %d %-12s %-6s median %8.3f ms  p95 %8.3f ms  cpu/wall %.2f  cpu %8.3f ms/step" % (
                    r + 1, name, engine, st["median"], st["p95"], cpu, cpu_ms), file=sys.stderr)
    load_end = os.getloadavg()[0]
    agg = {key: aggregate(value) for key, value in results.items()}

    # ---------------------------------------------------------------- report
    if args.commit:
        commit, dirty = args.commit, False
    compiler, build_type = build_info(args.sim)
    steps_of = {s[0]: s[2] for s in scenes}
    kind_of = {s[0]: s[3] for s in scenes}
    has_bullet = bool(args.bullet)
    has_base = bool(args.baseline)
    base_label = args.baseline_label
    lines = []
    add = lines.append
    add("# Impulse Lab benchmark: %s%s" % (args.machine, " (quick smoke run, not a measurement)" if args.quick else ""))
    add("")
    add("- date: %s" % started.strftime("%Y-%m-%d %H:%M %Z"))
    add("- machine: %s; CPU: %s; %d logical CPUs; %s %s" % (
        args.machine, cpu_model(), os.cpu_count() or 0, platform.system(), platform.release()))
    add("- compiler: %s; build type: %s" % (compiler, build_type))
    add("- git commit: %s%s" % (commit, " (src/physics, src/scene or src/cli had uncommitted changes)" if dirty else ""))
    add("- impulse-sim (\"ours\"): `%s`" % os.path.relpath(os.path.abspath(args.sim), ROOT))
    if has_base:
        base_compiler, base_build = build_info(args.baseline)
        add("- baseline impulse-sim (\"%s\"): `%s`; %s; %s" % (
            base_label, os.path.relpath(os.path.abspath(args.baseline), ROOT), base_compiler, base_build))
    if has_bullet:
        add("- Bullet: `%s` (bench/bullet/bullet_sim.cpp: btDiscreteDynamicsWorld, one thread, same dt, "
            "iterations, friction/restitution rules, no sleeping, Bullet's default of 1 friction direction per point)" % (
                os.path.relpath(os.path.abspath(args.bullet), ROOT)))
    if args.threads:
        add("- ours, %d threads: the same impulse-sim with `--threads %d`" % (args.threads, args.threads))
    add("- 1-minute load average: %.2f at start, %s before later rounds, %.2f at the end "
        "(the benchmark itself adds about 1; waited for <= %.1f at start, <= %.1f between rounds)" % (
            load_start, ", ".join("%.2f" % x for x in loads[1:]) or "-", load_end, args.max_load,
            args.max_load + 1.0))
    add("- runs per scene: %d (%d for %s), round-robin over scenes" % (runs, big_runs, ", ".join(sorted(BIG))))
    for note in args.note:
        add("- " + note)
    add("")
    add("Step times are medians over runs of each run's median (or p95) step time, in ms; spread is "
        "(max - min) / median of the per-run medians; cpu/wall below ~0.95 means the process waited "
        "for a CPU. Stability figures are from the final state (identical across runs: checked); "
        "drift is |final - initial position| of a body's centre, with its horizontal part and its signed "
        "vertical part (h, v).")
    add("")

    add("## Step time")
    add("")
    header = "| scene | bodies | steps | ours median | ours p95 | ours cpu ms/step | spread | cpu/wall |"
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|"
    if has_base:
        header += " %s median | %s p95 | %s cpu ms/step | ours / %s (cpu) |" % ((base_label,) * 4)
        rule += "---:|---:|---:|---:|"
    if has_bullet:
        header += " Bullet median | Bullet p95 | Bullet cpu ms/step | cpu/wall | ours / Bullet (cpu) |"
        rule += "---:|---:|---:|---:|---:|"
    header += " ref. Jolt | ref. Bullet | ref. ODE | goal |"
    rule += "---:|---:|---:|---|"
    add(header)
    add(rule)
    for name, _, steps, _ in scenes:
        a = agg[("ours", name)]
        row = "| %s | %d | %d | %s | %s | %s | %.0f%% | %.2f |" % (
            name, facts[name]["bodies"], steps, fmt_ms(a["median"]), fmt_ms(a["p95"]), fmt_ms(a["cpu_ms"]),
            100 * a["spread"], a["cpu"])
        if has_base:
            c = agg[("base", name)]
            row += " %s | %s | %s | %.2f |" % (fmt_ms(c["median"]), fmt_ms(c["p95"]), fmt_ms(c["cpu_ms"]),
                                               a["cpu_ms"] / c["cpu_ms"])
        if has_bullet:
            b = agg[("bullet", name)]
            row += " %s | %s | %s | %.2f | %.2f |" % (fmt_ms(b["median"]), fmt_ms(b["p95"]), fmt_ms(b["cpu_ms"]),
                                                      b["cpu"], a["cpu_ms"] / b["cpu_ms"])
        ref = REFERENCE.get((name, "median_ms"), ("", "", "", ""))
        row += " %s | %s | %s | %s |" % ref
        add(row)
    add("")

    add("## Stability")
    add("")
    header = "| scene | figure | ours |" + (" %s |" % base_label if has_base else "") + \
        (" Bullet |" if has_bullet else "") + " ref. Jolt | ref. Bullet | ref. ODE | goal |"
    add(header)
    add("|---|---|---:|" + ("---:|" if has_base else "") + ("---:|" if has_bullet else "") + "---:|---:|---:|---|")

    def stab_row(name, label, key, formatter, ref_key=None):
        row = "| %s | %s | %s |" % (name, label, formatter(agg[("ours", name)]["stability"][key]))
        if has_base:
            row += " %s |" % formatter(agg[("base", name)]["stability"][key])
        if has_bullet:
            row += " %s |" % formatter(agg[("bullet", name)]["stability"][key])
        row += " %s | %s | %s | %s |" % REFERENCE.get((name, ref_key), ("", "", "", ""))
        add(row)

    for name, _, steps, kind in scenes:
        seconds = "%g s" % round(steps / 60.0, 2)
        if kind == "resting":
            stab_row(name, "max drift of any body after %s" % seconds, "max_drift", fmt_drift, "max_drift")
            if name == "tower10":
                stab_row(name, "top box drift after %s" % seconds, "top_drift", fmt_drift, "top_drift")
        else:
            stab_row(name, "bodies escaped after %s" % seconds, "escaped", lambda v: "%d" % v)
            stab_row(name, "final max speed", "max_speed", lambda v: "%.3g m/s" % v)
        stab_row(name, "contact points, last step", "contact_points", lambda v: "%d" % v)
    nondeterministic = [k for k, a in agg.items() if not a["deterministic"]]
    add("")
    if nondeterministic:
        add("**Not deterministic:** final states differed between runs for: %s." % ", ".join(
            "%s/%s" % k for k in nondeterministic))
        add("")

    if args.threads:
        add("## Second core (ours, %d threads)" % args.threads)
        add("")
        add("The same binary with `--threads %d`: the sub-steps' sweeps shared among the threads. The final "
            "states are compared with one thread's, which they must equal bit for bit." % args.threads)
        add("")
        add("| scene | 1 thread median | %d threads median | speed-up | cpu/wall | same final state |"
            % args.threads)
        add("|---|---:|---:|---:|---:|---|")
        for name, _, _, _ in scenes:
            one, many = agg[("ours", name)], agg[("threads", name)]
            same = one["stability"]["state"] == many["stability"]["state"]
            add("| %s | %s | %s | %.2fx | %.2f | %s |" % (
                name, fmt_ms(one["median"]), fmt_ms(many["median"]), one["median"] / many["median"],
                many["cpu"], "yes" if same else "**no**"))
        add("")

    scaling = [n for n in SCALING if n in steps_of]
    if len(scaling) >= 2:
        add("## Scaling (pile series, %d steps each)" % steps_of[scaling[0]])
        add("")
        add("Per-body cost = median step time / dynamic bodies (and mean CPU time per step / dynamic "
            "bodies, less sensitive to a busy machine). Goal: 16k/1k within 1.3x.")
        add("")
        labels = {"ours": "ours", "threads": "ours, %s threads" % args.threads, "base": base_label,
                  "bullet": "Bullet"}
        add("| scene | dynamic bodies |" + "".join(
            " %s median ms | us/body | vs 1k | cpu us/body | vs 1k | contacts/body |" % labels[e]
            for e, _, _ in engines))
        add("|---|---:|" + "---:|---:|---:|---:|---:|---:|" * len(engines))
        base = {}
        for name in scaling:
            n = len(facts[name]["dynamic"])
            row = "| %s | %d |" % (name, n)
            for engine in [e for e, _, _ in engines]:
                per_body = 1000.0 * agg[(engine, name)]["median"] / n
                cpu_per_body = 1000.0 * agg[(engine, name)]["cpu_ms"] / n
                base.setdefault(engine, (per_body, cpu_per_body))
                row += " %s | %.2f | %.2fx | %.2f | %.2fx | %.2f |" % (
                    fmt_ms(agg[(engine, name)]["median"]), per_body, per_body / base[engine][0], cpu_per_body,
                    cpu_per_body / base[engine][1], agg[(engine, name)]["stability"]["contact_points"] / n)
            add(row)
        add("")

    text = "\n".join(lines) + "\n"
    out = args.out or (None if args.quick else os.path.join(ROOT, "bench", "results", "%s.md" % args.machine))
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s" % out, file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
