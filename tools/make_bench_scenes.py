#!/usr/bin/env python3
"""Generates the larger benchmark piles (assets/scenes/bench/pile4000.json, pile16000.json).

The four reference scenes (pyramid20, pile1000, spheres1000, tower10) are the
project's reference benchmark scenes, committed as they are and not generated here. The larger piles
are built the way pile1000.json is:

  - a static ground box (half-extents 50 x 0.5 x 50, top face at y = 0);
  - a pen of four static walls 1 m thick and 10 m high; pile1000's pen is 24 m x 24 m inside
    (walls centred at +-12.5, half-length 13 so the corners overlap);
  - unit cubes (mass 1) on a square grid of 2 m pitch, 10 layers at y = 3, 5, ... 21, each
    cube jittered by up to +-0.1 m in x and z and given a uniformly random orientation;
  - friction 0.5, restitution 0 on every body; dt 1/60 s, 1 substep, 10 velocity and 2
    position iterations.

A pile of k^2 * 1000 cubes keeps the 10 layers (so it settles to the same height) and puts
k x k times as many cubes in each layer: the grid becomes 10k x 10k and every length of the
pen and the ground scales by k, so the floor area per cube is the same (0.576 m^2) and so is
the clearance between the grid and the walls (2 m).

Output is deterministic (fixed seed per size; Python's random.Random is stable across
versions for random() and gauss()) and written in the reference files' format: one body
per line, floats with 17 significant digits.

Usage: tools/make_bench_scenes.py [--out DIR] [--sizes 4000,16000]
"""

import argparse
import math
import os
import random
import sys

# What pile1000.json is made of (all lengths in metres).
BASE_GRID = 10          # cubes per row and per column of one layer, for 1,000 cubes
LAYERS = 10
PITCH = 2.0             # grid spacing
FIRST_LAYER_Y = 3.0
JITTER = 0.1            # +- in x and z
HALF_CUBE = 0.5
BASE_PEN_INNER_HALF = 12.0   # inner faces of the walls at +-12
WALL_HALF_THICKNESS = 0.5
WALL_HALF_HEIGHT = 5.0
BASE_GROUND_HALF = 50.0
GROUND_HALF_THICKNESS = 0.5
FRICTION = 0.5
RESTITUTION = 0
WORLD = """  "world": {
    "gravity": [0, -9.8100000000000005, 0],
    "timestep": 0.016666666666666666,
    "substeps": 1,
    "velocity_iterations": 10,
    "position_iterations": 2
  },"""


def num(x):
    """The reference files' number format: integers bare, other floats to 17 digits."""
    if float(x) == int(x) and abs(x) < 1e15:
        return str(int(x))
    return "%.17g" % x


def vec(values):
    return "[" + ", ".join(num(v) for v in values) + "]"


def random_quaternion(rng):
    """Uniformly distributed unit quaternion (Shoemake), [w, x, y, z]."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    return [a * math.sin(2 * math.pi * u2), a * math.cos(2 * math.pi * u2),
            b * math.sin(2 * math.pi * u3), b * math.cos(2 * math.pi * u3)]


def static_box(name, half_extents, position):
    return ('{"name": "%s", "static": true, "shape": {"type": "box", "half_extents": %s}, '
            '"position": %s, "orientation": [1, 0, 0, 0], "friction": %s, "restitution": %s}'
            % (name, vec(half_extents), vec(position), num(FRICTION), num(RESTITUTION)))


def cube(name, position, orientation):
    return ('{"name": "%s", "shape": {"type": "box", "half_extents": %s}, "mass": 1, '
            '"position": %s, "orientation": %s, "friction": %s, "restitution": %s}'
            % (name, vec([HALF_CUBE] * 3), vec(position), vec(orientation), num(FRICTION),
               num(RESTITUTION)))


def pile(count):
    """Scene text of a pile of `count` cubes; count must be k^2 * 1000."""
    k = math.isqrt(count // 1000)
    if k < 1 or k * k * 1000 != count:
        raise ValueError("pile size must be k^2 * 1000 (1000, 4000, 9000, 16000, ...), got %d" % count)
    rng = random.Random(20240000 + count)
    grid = BASE_GRID * k
    inner = BASE_PEN_INNER_HALF * k
    wall_centre = inner + WALL_HALF_THICKNESS
    wall_half_length = inner + 2 * WALL_HALF_THICKNESS
    ground_half = BASE_GROUND_HALF * k

    bodies = [
        static_box("b0", [ground_half, GROUND_HALF_THICKNESS, ground_half], [0, -GROUND_HALF_THICKNESS, 0]),
        static_box("b1", [WALL_HALF_THICKNESS, WALL_HALF_HEIGHT, wall_half_length], [-wall_centre, WALL_HALF_HEIGHT, 0]),
        static_box("b2", [WALL_HALF_THICKNESS, WALL_HALF_HEIGHT, wall_half_length], [wall_centre, WALL_HALF_HEIGHT, 0]),
        static_box("b3", [wall_half_length, WALL_HALF_HEIGHT, WALL_HALF_THICKNESS], [0, WALL_HALF_HEIGHT, -wall_centre]),
        static_box("b4", [wall_half_length, WALL_HALF_HEIGHT, WALL_HALF_THICKNESS], [0, WALL_HALF_HEIGHT, wall_centre]),
    ]
    first = -PITCH * (grid - 1) / 2.0  # grid centred on the pen: -9 for 10 columns
    for layer in range(LAYERS):
        y = FIRST_LAYER_Y + PITCH * layer
        for i in range(grid):
            for j in range(grid):
                x = first + PITCH * i + rng.uniform(-JITTER, JITTER)
                z = first + PITCH * j + rng.uniform(-JITTER, JITTER)
                bodies.append(cube("b%d" % len(bodies), [x, y, z], random_quaternion(rng)))

    lines = ["{", '  "version": 1,', '  "name": "pile%d",' % count, WORLD, '  "bodies": [']
    lines.append(",\n".join("    " + b for b in bodies))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(root, "assets", "scenes", "bench"),
                        help="output folder (default: assets/scenes/bench)")
    parser.add_argument("--sizes", default="4000,16000",
                        help="comma-separated cube counts, each k^2 * 1000 (default: 4000,16000)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for text in args.sizes.split(","):
        count = int(text)
        path = os.path.join(args.out, "pile%d.json" % count)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(pile(count))
        print("wrote %s (%d cubes)" % (path, count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
