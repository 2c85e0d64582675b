#!/usr/bin/env python3
"""Generates the preset scene files in assets/scenes/ (scene format version 2).

Deterministic: fixed seeds, values rounded to a few decimals, so running it
again gives byte-identical files. Python 3 standard library only.

    python3 tools/make_scenes.py [--out assets/scenes]

Units are SI (m, kg, s, rad), y is up. assets/scenes/bench/ is not touched.
"""

import argparse
import json
import math
import os
import random

DIGITS = 6  # decimals kept in positions, sizes and angles


def r(x):
    """Rounds to DIGITS decimals and turns -0.0 into 0.0 for tidy files."""
    v = round(float(x), DIGITS)
    return 0.0 if v == 0.0 else v


def vec(*xs):
    return [r(x) for x in xs]


def quat_axis_angle(axis, angle):
    """[w, x, y, z] of a rotation by `angle` (rad) about the unit `axis`."""
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2.0) / n
    return [r(math.cos(angle / 2.0)), r(axis[0] * s), r(axis[1] * s), r(axis[2] * s)]


def quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]


def random_orientation(rng):
    """Uniform random unit quaternion (Shoemake)."""
    u1, u2, u3 = rng.random(), rng.random(), rng.random()
    a, b = math.sqrt(1.0 - u1), math.sqrt(u1)
    q = [b * math.cos(2 * math.pi * u3), a * math.sin(2 * math.pi * u2),
         a * math.cos(2 * math.pi * u2), b * math.sin(2 * math.pi * u3)]
    return [r(x) for x in q]


def box(hx, hy, hz):
    return {"type": "box", "half_extents": vec(hx, hy, hz)}


def sphere(radius):
    return {"type": "sphere", "radius": r(radius)}


def body(name, shape, position, mass=None, static=False, orientation=None, linear_velocity=None,
         angular_velocity=None, restitution=None, friction=None, static_friction=None):
    """A body in the file's key order; absent arguments are left to the format's defaults."""
    b = {"name": name}
    if static:
        b["static"] = True
    b["shape"] = shape
    if mass is not None:
        assert not static, "a static body has no mass"
        b["mass"] = r(mass)
    b["position"] = vec(*position)
    if orientation is not None:
        b["orientation"] = [r(x) for x in orientation]
    if linear_velocity is not None:
        b["linear_velocity"] = vec(*linear_velocity)
    if angular_velocity is not None:
        b["angular_velocity"] = vec(*angular_velocity)
    if restitution is not None:
        b["restitution"] = r(restitution)
    if friction is not None:
        b["friction"] = r(friction)
    if static_friction is not None:
        b["static_friction"] = r(static_friction)
    return b


def ground(half_x=20.0, half_z=20.0, friction=0.0, restitution=0.0, name="ground"):
    """A static slab whose top face is the plane y = 0, neutral scenery by default (see SCENERY_RULES)."""
    return body(name, box(half_x, 0.5, half_z), (0.0, -0.5, 0.0), static=True, friction=friction,
                restitution=restitution)


NO_GRAVITY = [0.0, 0.0, 0.0]

# Scenery (ground, walls, kerbs, ramps) has e = 0 and mu = 0 under the "max" rules, so it never
# wins the combine: the e, mu and mu_s a user edits on a body are the ones its contacts with the
# scenery use. The format's default friction rule, the geometric mean, has no neutral value (a
# floor's mu always scales the body's), hence "max" for friction too. Between two dynamic bodies
# the bouncier e and the grippier mu win.
SCENERY_RULES = {"restitution_combine": "max", "friction_combine": "max"}
NEUTRAL_E, NEUTRAL_MU = 0.0, 0.0


def scene(name, bodies, camera=None, note=None, show=None, **world):
    """`note`: a paragraph for the Scene panel; `show`: the classroom views the app opens with."""
    assert len({b["name"] for b in bodies}) == len(bodies), "names must be unique"
    doc = {"version": 2, "name": name}
    if note:
        doc["note"] = note
    if world:
        doc["world"] = world
    if camera:
        doc["camera"] = camera
    if show is not None:
        doc["show"] = show
    doc["bodies"] = bodies
    return doc


def camera(target, distance, yaw_degrees, pitch_degrees):
    """Where the app's view starts (yaw 0 looks toward -z, 90 toward -x; pitch > 0 looks down),
    for a scene whose point framing all its bodies would miss."""
    return {"target": vec(*target), "distance": r(distance), "yaw": r(yaw_degrees), "pitch": r(pitch_degrees)}


def dump(doc):
    """Pretty JSON with one body per line (the layout impulse-lab itself saves)."""
    inline = {"separators": (", ", ": "), "ensure_ascii": False}
    lines = ["{", '  "version": %d,' % doc["version"], '  "name": %s,' % json.dumps(doc["name"], **inline)]
    if "note" in doc:
        lines.append('  "note": %s,' % json.dumps(doc["note"], **inline))
    if "world" in doc:
        items = ['    %s: %s' % (json.dumps(k), json.dumps(v, **inline)) for k, v in doc["world"].items()]
        lines.append('  "world": {')
        lines.append(",\n".join(items))
        lines.append("  },")
    if "camera" in doc:
        lines.append('  "camera": %s,' % json.dumps(doc["camera"], **inline))
    if "show" in doc:
        lines.append('  "show": %s,' % json.dumps(doc["show"], **inline))
    lines.append('  "bodies": [')
    lines.append(",\n".join("    " + json.dumps(b, **inline) for b in doc["bodies"]))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- presets

def default_scene():
    """A small mixed scene: a tower, a little pyramid, a ramp with a sliding box, falling balls.

    A kerb runs round the ground's edge: nothing rolls to a stop on it (the model has no
    rolling resistance), so the ball that leaves the ramp, or a body the user throws, would
    otherwise roll off the edge and fall for ever. The kerb sends it back instead.
    """
    edge = 20.0  # the ground's half extent
    bodies = [ground(edge, edge)]
    kerb_half_height, kerb_half_thickness = 0.3, 0.2
    for name, x, z, half_x, half_z in (("kerb_east", 1, 0, kerb_half_thickness, edge),
                                       ("kerb_west", -1, 0, kerb_half_thickness, edge),
                                       ("kerb_north", 0, -1, edge, kerb_half_thickness),
                                       ("kerb_south", 0, 1, edge, kerb_half_thickness)):
        centre = (x * (edge - kerb_half_thickness), kerb_half_height, z * (edge - kerb_half_thickness))
        bodies.append(body(name, box(half_x, kerb_half_height, half_z), centre, static=True, friction=NEUTRAL_MU,
                           restitution=NEUTRAL_E))
    ramp_angle = math.radians(20.0)
    ramp_q = quat_axis_angle((0, 0, 1), -ramp_angle)  # descends toward +x
    ramp_centre = (-4.0, 1.2, 0.0)
    bodies.append(body("ramp", box(2.5, 0.1, 1.2), ramp_centre, static=True, orientation=ramp_q,
                       friction=NEUTRAL_MU, restitution=NEUTRAL_E))
    # A crate resting on the ramp near its top: centre = ramp centre + normal * (0.1 + 0.3) - slope * 1.6,
    # face on face. Its mu_s 0.5 > tan 20 deg = 0.364 holds it; below 0.364 it breaks away and slides
    # (mu 0.3 < 0.364 cannot stop it again).
    normal = (math.sin(ramp_angle), math.cos(ramp_angle), 0.0)
    down_slope = (math.cos(ramp_angle), -math.sin(ramp_angle), 0.0)
    gap = 0.1 + 0.3
    p = [ramp_centre[i] + normal[i] * gap - down_slope[i] * 1.6 for i in range(3)]
    bodies.append(body("ramp_crate", box(0.3, 0.3, 0.3), p, mass=1.5, orientation=ramp_q, friction=0.3,
                       static_friction=0.5, restitution=0.2))
    for k in range(4):
        bodies.append(body("tower%d" % k, box(0.5, 0.5, 0.5), (2.0, 0.5 + 1.001 * k, -1.5), mass=2.0,
                           friction=0.6, restitution=0.1))
    rows = 3
    for row in range(rows):
        for i in range(rows - row):
            x = 3.5 + (i - (rows - row - 1) / 2.0) * 0.82
            bodies.append(body("pyramid%d_%d" % (row, i), box(0.4, 0.4, 0.4), (x, 0.4 + 0.801 * row, 2.0),
                               mass=1.0, friction=0.6, restitution=0.1))
    balls = [("ball_red", 0.4, (2.1, 6.0, -1.4), 2.0), ("ball_small", 0.25, (3.4, 5.0, 2.1), 0.5),
             ("ball_ramp", 0.3, (-6.0, 4.0, -0.7), 1.0)]
    for name, radius, pos, mass in balls:
        bodies.append(body(name, sphere(radius), pos, mass=mass, restitution=0.6, friction=0.4))
    return scene("Default", bodies, **SCENERY_RULES)


def two_spheres_head_on():
    """Equal spheres approaching along x at 2 m/s each, e = 0.9: they leave at 1.8 m/s each."""
    bodies = [
        body("left", sphere(0.5), (-2.0, 0.0, 0.0), mass=1.0, linear_velocity=(2.0, 0.0, 0.0), restitution=0.9,
             friction=0.0),
        body("right", sphere(0.5), (2.0, 0.0, 0.0), mass=1.0, linear_velocity=(-2.0, 0.0, 0.0), restitution=0.9,
             friction=0.0),
    ]
    return scene("Two spheres head-on (no gravity, e = 0.9)", bodies, gravity=NO_GRAVITY)


def sphere_hits_box(spin):
    """A 0.5 kg ball at 5 m/s strikes a free 2 kg cube 0.3 m above its centre (no gravity, frictionless)."""
    box_body = body("box", box(0.5, 0.5, 0.5), (0.0, 0.0, 0.0), mass=2.0, restitution=0.5, friction=0.0,
                    angular_velocity=(0.0, 2.0, 0.0) if spin else None)
    ball = body("ball", sphere(0.25), (-3.0, 0.3, 0.0), mass=0.5, linear_velocity=(5.0, 0.0, 0.0),
                restitution=0.5, friction=0.0)
    title = "Sphere hits a spinning box" if spin else "Sphere hits a box off centre"
    return scene(title + " (no gravity)", [box_body, ball], gravity=NO_GRAVITY)


def tower10():
    bodies = [ground()]
    for k in range(10):
        bodies.append(body("box%d" % k, box(0.5, 0.5, 0.5), (0.0, 0.5 + 1.0 * k, 0.0), mass=1.0, friction=0.6,
                           restitution=0.0))
    return scene("Tower of 10 boxes", bodies, **SCENERY_RULES)


def pyramid15():
    bodies = [ground()]
    rows, gap = 15, 0.05
    for row in range(rows):
        n = rows - row
        for i in range(n):
            x = (i - (n - 1) / 2.0) * (1.0 + gap)
            bodies.append(body("box%d_%d" % (row, i), box(0.5, 0.5, 0.5), (x, 0.5 + 1.0 * row, 0.0), mass=1.0,
                               friction=0.6, restitution=0.0))
    return scene("Pyramid of 15 rows (120 boxes)", bodies, **SCENERY_RULES)


def ramp_friction():
    """Blocks resting on a 30 degree ramp: mu > tan 30 = 0.577 holds, smaller slides (the ramp is neutral)."""
    angle = math.radians(30.0)
    q = quat_axis_angle((0, 0, 1), -angle)  # surface descends toward +x
    centre = (0.0, 2.5, 0.0)
    half_thickness, half_block = 0.25, 0.25
    bodies = [ground(), body("ramp", box(4.0, half_thickness, 3.0), centre, static=True, orientation=q,
                             friction=NEUTRAL_MU, restitution=NEUTRAL_E)]
    normal = (math.sin(angle), math.cos(angle), 0.0)
    down_slope = (math.cos(angle), -math.sin(angle), 0.0)
    lift = half_thickness + half_block  # face on face: the blocks start at rest on the ramp
    for k, mu in enumerate((0.1, 0.4, 0.6, 0.9)):
        z = -2.1 + 1.4 * k
        p = [centre[i] + normal[i] * lift - down_slope[i] * 2.5 for i in range(3)]
        p[2] = z
        bodies.append(body("block_mu%g" % mu, box(half_block, half_block, half_block), p, mass=1.0, orientation=q,
                           friction=mu, restitution=0.0))
    # From the front, a little above: the blocks in a row on the slope and the run down to
    # its foot, where the sliding ones end within 2 s (framing all bodies looked down the
    # ramp's back, with the blocks small in a corner).
    view = camera((0.6, 2.0, 0.3), 14.0, -32.0, 26.0)
    return scene("Ramp at 30 degrees: friction 0.1, 0.4, 0.6, 0.9", bodies, camera=view, **SCENERY_RULES)


def dominoes():
    bodies = [ground(30.0, 5.0)]
    count, spacing = 20, 0.6
    for k in range(count):
        bodies.append(body("domino%02d" % k, box(0.05, 0.5, 0.25), (-6.0 + spacing * k, 0.5, 0.0), mass=5.0,
                           friction=0.5, restitution=0.0,
                           angular_velocity=(0.0, 0.0, -1.5) if k == 0 else None))
    return scene("Dominoes (20)", bodies, **SCENERY_RULES)


def newtons_cradle():
    """A horizontal Newton's cradle: no gravity, e = 1, frictionless, a striker hits a row of 5 balls.
    Sequential impulses resolve touching balls as one lump, so the balls keep 3 mm gaps and the steps are
    short enough (2 mm of travel per substep at 2 m/s) that the collisions happen one after another."""
    radius, mass, gap = 0.1, 0.5, 0.003
    bodies = [body("striker", sphere(radius), (-1.0, 0.0, 0.0), mass=mass, linear_velocity=(2.0, 0.0, 0.0),
                   restitution=1.0, friction=0.0)]
    for k in range(5):
        bodies.append(body("ball%d" % (k + 1), sphere(radius), ((2.0 * radius + gap) * k, 0.0, 0.0), mass=mass,
                           restitution=1.0, friction=0.0))
    return scene("Newton's cradle, horizontal (no gravity, e = 1)", bodies, gravity=NO_GRAVITY,
                 restitution_threshold=0.1, timestep=r(1.0 / 240.0), passes=4)


def sliding_ball_rolls():
    """v0 = 5 m/s, no spin, mu = 0.3: rolls at 5/7 v0 = 3.571 m/s after t = 2 v0 / (7 mu g) = 0.485 s."""
    bodies = [ground(50.0, 5.0),
              body("ball", sphere(0.5), (-30.0, 0.5, 0.0), mass=1.0, linear_velocity=(5.0, 0.0, 0.0),
                   restitution=0.0, friction=0.3)]
    return scene("Sliding ball starts rolling (mu = 0.3)", bodies, **SCENERY_RULES)


def spin(axis_index, label):
    """Box with I_x < I_y < I_z (half-extents 0.5, 0.25, 0.1) spun at 5 rad/s about one principal axis."""
    w = [1.0e-3, 1.0e-3, 1.0e-3]
    w[axis_index] = 5.0
    bodies = [body("box", box(0.5, 0.25, 0.1), (0.0, 0.0, 0.0), mass=1.0, angular_velocity=[float(x) for x in w])]
    return scene("Spin about the %s axis (no gravity)" % label, bodies, gravity=NO_GRAVITY)


def billiard_break():
    """15 balls racked on the foot spot of a 2.54 m x 1.27 m table with cushions, cue ball at 8 m/s.
    Pair rules: e = min (ball-ball 0.95, ball-cushion 0.8, ball-cloth 0.5), mu = max (ball-ball 0.05,
    ball-cloth and ball-cushion 0.2). Short passes so an 8 m/s ball cannot skip a 57 mm one, and 5 mm gaps
    in the rack (more than a ball travels in one 1/1920 s substep) so the collisions resolve one after another
    instead of as one lump, which sequential impulses cannot split."""
    radius, mass, gap = 0.0286, 0.17, 0.005
    half_length, half_width = 1.27, 0.635  # playing surface
    rail_half_height, rail_half_thickness = 0.025, 0.05
    bodies = [body("table", box(half_length + 2 * rail_half_thickness, 0.5, half_width + 2 * rail_half_thickness),
                   (0.0, -0.5, 0.0), static=True, friction=0.2, restitution=0.5)]
    rails = [("cushion_head", (rail_half_thickness, rail_half_height, half_width), (-half_length - rail_half_thickness, 0)),
             ("cushion_foot", (rail_half_thickness, rail_half_height, half_width), (half_length + rail_half_thickness, 0)),
             ("cushion_left", (half_length + 2 * rail_half_thickness, rail_half_height, rail_half_thickness),
              (0, -half_width - rail_half_thickness)),
             ("cushion_right", (half_length + 2 * rail_half_thickness, rail_half_height, rail_half_thickness),
              (0, half_width + rail_half_thickness))]
    for name, half, (x, z) in rails:
        bodies.append(body(name, box(*half), (x, rail_half_height, z), static=True, friction=0.2, restitution=0.8))
    bodies.append(body("cue", sphere(radius), (-half_length / 2.0, radius, 0.0), mass=mass,
                       linear_velocity=(8.0, 0.0, 0.0), restitution=0.95, friction=0.05))
    d = 2.0 * radius + gap
    n = 1
    for row in range(5):
        for i in range(row + 1):
            x = half_length / 2.0 + row * d * math.sqrt(3.0) / 2.0
            z = (i - row / 2.0) * d
            bodies.append(body("ball%d" % n, sphere(radius), (x, radius, z), mass=mass, restitution=0.95,
                               friction=0.05))
            n += 1
    # Framing the whole table (a metre deep) from afar leaves 57 mm balls a few pixels
    # wide: the view looks down the table from behind the cue ball instead.
    view = camera((0.1, 0.0, 0.0), 3.9, -90.0, 48.0)
    return scene("Billiard break", bodies, camera=view, timestep=r(1.0 / 240.0), passes=8,
                 restitution_combine="min", friction_combine="max")


def pile1000():
    """1,000 boxes and spheres of mixed sizes dropped from a grid into a walled pen."""
    rng = random.Random(1000)
    half_pen, wall_half_height, wall_half_thickness = 8.0, 1.5, 0.25
    bodies = [ground(20.0, 20.0)]
    span = half_pen + wall_half_thickness
    bodies.append(body("wall_north", box(span + wall_half_thickness, wall_half_height, wall_half_thickness),
                       (0.0, wall_half_height, -span), static=True, friction=NEUTRAL_MU,
                       restitution=NEUTRAL_E))
    bodies.append(body("wall_south", box(span + wall_half_thickness, wall_half_height, wall_half_thickness),
                       (0.0, wall_half_height, span), static=True, friction=NEUTRAL_MU,
                       restitution=NEUTRAL_E))
    bodies.append(body("wall_west", box(wall_half_thickness, wall_half_height, span - wall_half_thickness),
                       (-span, wall_half_height, 0.0), static=True, friction=NEUTRAL_MU,
                       restitution=NEUTRAL_E))
    bodies.append(body("wall_east", box(wall_half_thickness, wall_half_height, span - wall_half_thickness),
                       (span, wall_half_height, 0.0), static=True, friction=NEUTRAL_MU,
                       restitution=NEUTRAL_E))
    cell, per_row = 1.4, 11  # 1.4 m cells hold the largest body (0.4 m half-extents) in any orientation
    density = 200.0  # kg/m^3, light wood
    count = 1000
    for k in range(count):
        layer, rest = divmod(k, per_row * per_row)
        ix, iz = divmod(rest, per_row)
        x = (ix - (per_row - 1) / 2.0) * cell + rng.uniform(-0.1, 0.1)
        z = (iz - (per_row - 1) / 2.0) * cell + rng.uniform(-0.1, 0.1)
        y = 2.0 + layer * cell
        friction = rng.uniform(0.4, 0.7)
        restitution = rng.uniform(0.0, 0.3)
        if rng.random() < 0.5:
            h = [rng.uniform(0.15, 0.4) for _ in range(3)]
            mass = density * 8.0 * h[0] * h[1] * h[2]
            bodies.append(body("box%04d" % k, box(*h), (x, y, z), mass=mass, orientation=random_orientation(rng),
                               friction=friction, restitution=restitution))
        else:
            radius = rng.uniform(0.15, 0.4)
            mass = density * 4.0 / 3.0 * math.pi * radius ** 3
            bodies.append(body("sphere%04d" % k, sphere(radius), (x, y, z), mass=mass, friction=friction,
                               restitution=restitution))
    return scene("Pile of 1000 in a pen", bodies, **SCENERY_RULES)


def heavy_on_light():
    """1000:1 mass ratios: a 1000 kg box on a 1 kg box, the reverse, and a 1000 kg sphere dropped on a 1 kg box."""
    bodies = [ground()]
    bodies.append(body("light_under", box(0.5, 0.5, 0.5), (-3.0, 0.501, 0.0), mass=1.0, friction=0.6,
                       restitution=0.1))
    bodies.append(body("heavy_on_top", box(0.5, 0.5, 0.5), (-3.0, 1.502, 0.0), mass=1000.0, friction=0.6,
                       restitution=0.1))
    bodies.append(body("heavy_under", box(0.5, 0.5, 0.5), (0.0, 0.501, 0.0), mass=1000.0, friction=0.6,
                       restitution=0.1))
    bodies.append(body("light_on_top", box(0.5, 0.5, 0.5), (0.0, 1.502, 0.0), mass=1.0, friction=0.6,
                       restitution=0.1))
    bodies.append(body("light_target", box(0.5, 0.5, 0.5), (3.0, 0.5, 0.0), mass=1.0, friction=0.6,
                       restitution=0.1))
    bodies.append(body("heavy_ball", sphere(0.4), (3.0, 2.4, 0.0), mass=1000.0, friction=0.6, restitution=0.1))
    return scene("Heavy on light (1000:1)", bodies, **SCENERY_RULES)


# ---------------------------------------------------------------- classroom presets
# assets/scenes/classroom/: each opens with the views a class reads it by (`show`) and a
# note in the Scene panel saying what to look for; the numbers in the notes are the
# closed-form ones (tests/scene/test_classroom_presets.cpp runs each and compares).

GLIDER_RADIUS = 0.1


def head_on_gliders(e, title, outcome):
    """A 1 kg glider at 2 m/s meets a 3 kg glider at rest on a frictionless track (x); pair e = e.
    v1' = (m1 - e m2) v / (m1 + m2), v2' = (1 + e) m1 v / (m1 + m2): e = 1: -1 and 1 m/s;
    e = 0.5: -0.25 and 0.75 m/s; e = 0: both 0.5 m/s. The gliders are balls sliding without
    friction (they never turn), so they meet at one point on the line of motion; two box carts
    meet face to face at four points, which the solver does not load evenly: the carts then
    turn about y (measured: up to 0.16 rad after an e = 0.5 impact) and their speeds miss the
    formula by up to 0.06 m/s."""
    bodies = [ground(10.0, 6.0),
              body("glider1", sphere(GLIDER_RADIUS), (-1.5, GLIDER_RADIUS, 0.0), mass=1.0,
                   linear_velocity=(2.0, 0.0, 0.0), restitution=e, friction=0.0),
              body("glider3", sphere(GLIDER_RADIUS), (0.5, GLIDER_RADIUS, 0.0), mass=3.0, restitution=e,
                   friction=0.0)]
    note = ("A 1 kg glider at 2 m/s runs into a 3 kg glider at rest on a frictionless track, e = %g. "
            "The green arrows are the momenta m v (0.5 m per kg m/s): their sum, 2 kg m/s, is the same "
            "before and after, and the centre of mass (the white arrow) moves at 0.5 m/s throughout. "
            "At the impact the yellow arrows show each glider's change of momentum: equal and opposite, "
            "%g kg m/s each. %s The Momenta tab draws both gliders' p tip to tail just before and just "
            "after the impact, with the total; the Data tab lists m, v, p and KE with their totals; "
            "the Impact log tab the measured e." % (e, (1.0 + e) * 1.5, outcome))
    view = camera((0.2, 0.1, 0.0), 6.0, 0.0, 14.0)
    return scene(title, bodies, camera=view, note=note,
                 show=["velocity", "momentum", "impact-momentum", "centre-of-mass", "momenta"], **SCENERY_RULES)


def glancing_billiard():
    """A cue ball (57.15 mm, 170 g) at 1 m/s strikes a resting ball half a ball off centre (a 30 degree cut),
    on an air table (no friction anywhere), e = 1, at the default steps. Equal masses, e = 1, no friction:
    the object ball leaves along the line of centres at contact, 30 degrees off the cue's path, at
    cos 30 m/s, the cue ball at right angles to it at sin 30 m/s (the step turns a predicted sphere
    contact to the line of centres at arrival: exact at any step)."""
    radius, mass = 0.028575, 0.17
    offset = radius  # centre line offset b = R: a point contact sends the object ball off at asin(b / 2R) = 30 degrees
    ball = dict(mass=mass, restitution=1.0, friction=0.0)
    bodies = [ground(2.0, 2.0),
              body("cue", sphere(radius), (-0.6, radius, offset), linear_velocity=(1.0, 0.0, 0.0), **ball),
              body("object", sphere(radius), (0.0, radius, 0.0), **ball)]
    note = ("On an air table (no friction), the cue ball (170 g, 1 m/s) hits a resting ball half a ball off "
            "centre: when they touch, their line of centres is 30 degrees off the cue ball's path. The impulse "
            "acts along that line, so the object ball leaves along it, at cos 30 = 0.87 m/s; with equal "
            "masses and e = 1 the cue ball leaves at right angles to it, 60 degrees the other way, at "
            "sin 30 = 0.50 m/s. Read the momenta tip to tail in the Momenta tab: the cue ball's p before "
            "(0.17 kg m/s) equals the sum of both balls' p after (0.147 and 0.085 kg m/s), and the yellow dp "
            "arrows are equal and opposite (0.147 kg m/s each). The kinetic energy, 0.085 J, is all kept. "
            "(The balls meet at 0.87 m/s, below the default restitution threshold of 1 m/s: this table's is 0.2.)")
    view = camera((0.3, 0.0, 0.0), 3.2, 0.0, 72.0)
    # A slow shot keeps both balls in view; the threshold lets it bounce.
    return scene("Classroom: glancing billiard shot (half-ball hit)", bodies, camera=view, note=note,
                 show=["momentum", "impact-momentum", "centre-of-mass", "momenta"], restitution_threshold=0.2,
                 **SCENERY_RULES)


def bounce_with_backspin():
    """A solid ball (r 0.1 m, 0.5 kg) thrown at 2 m/s with 30 rad/s of backspin from 1 m: e = 0.8, mu = 0.5.
    The bounce's friction stops the contact point slipping, so it leaves rolling:
    v_x' = (5 v_x - 2 r w) / 7 = 0.571 m/s, w' = -v_x' / r = -5.71 rad/s (topspin)."""
    radius = 0.1
    bodies = [ground(10.0, 3.0),
              body("ball", sphere(radius), (-1.5, 1.0, 0.0), mass=0.5, linear_velocity=(2.0, 0.0, 0.0),
                   angular_velocity=(0.0, 0.0, 30.0), restitution=0.8, friction=0.5)]
    note = ("A solid ball thrown forward at 2 m/s with 30 rad/s of backspin lands from 1 m (e = 0.8, "
            "mu = 0.5). At the bounce the bottom of the ball slides forward at 5 m/s, and friction "
            "pushes back on it: the ball slows and its spin turns over. The friction needed to stop "
            "the slide (0.71 N s) is less than mu times the normal impulse (2.0 N s), so the bottom "
            "stops sliding within the impact and the ball leaves rolling: v_x = (5 v - 2 r w) / 7 = "
            "0.57 m/s and w = 5.7 rad/s of topspin. Watch the velocity (blue) and the angular velocity "
            "(purple) arrows flip; the Impact log lists the friction impulse.")
    view = camera((-0.6, 0.5, 0.0), 4.0, -35.0, 10.0)
    return scene("Classroom: ball bouncing with backspin", bodies, camera=view, note=note,
                 show=["velocity", "angular-velocity"], **SCENERY_RULES)


def box_tips_on_ramp():
    """A tall box (0.2 x 0.6 m section) and a squat one (0.4 x 0.4) at rest on a 25 degree ramp, mu = 0.8.
    mu > tan 25 = 0.466: neither slides. The tall one tips: tan 25 > half width / half height = 1/3."""
    angle = math.radians(25.0)
    q = quat_axis_angle((0, 0, 1), -angle)  # the surface descends toward +x
    centre = (0.0, 1.2, 0.0)
    half_thickness = 0.1
    bodies = [ground(6.0, 3.0), body("ramp", box(2.5, half_thickness, 1.5), centre, static=True, orientation=q,
                                     friction=NEUTRAL_MU, restitution=NEUTRAL_E)]
    normal = (math.sin(angle), math.cos(angle), 0.0)
    down_slope = (math.cos(angle), -math.sin(angle), 0.0)
    for name, half, z in (("tall", (0.1, 0.3, 0.15), -0.5), ("squat", (0.2, 0.2, 0.15), 0.5)):
        lift = half_thickness + half[1]  # face on face: at rest on the ramp
        p = [centre[i] + normal[i] * lift - down_slope[i] * 1.0 for i in range(3)]
        p[2] = z
        bodies.append(body(name, box(*half), p, mass=1.0, orientation=q, friction=0.8, restitution=0.0))
    note = ("Two boxes stand on a 25 degree ramp with mu = 0.8. Since mu > tan 25 = 0.47, friction "
            "holds both against sliding. The tall box tips over anyway: its weight acts at its centre "
            "of mass, and once the vertical through that point passes outside the downhill edge of its "
            "base, the weight's torque about that edge turns it over. That happens when tan(angle) > "
            "half-width / half-height: 0.1 / 0.3 = 0.33 for the tall box (tips), 0.2 / 0.2 = 1 for "
            "the squat one (stays). Watch the angular velocity grow from zero.")
    view = camera((-0.6, 1.6, 0.0), 4.0, -30.0, 12.0)
    return scene("Classroom: box tipping on a ramp", bodies, camera=view, note=note,
                 show=["velocity", "angular-velocity"], **SCENERY_RULES)


def dzhanibekov():
    """A spin about the intermediate axis (I_x < I_y < I_z) with a small wobble, seen with w and L."""
    # Small and heavy, spun fast, so that the w and L arrows at their default scales reach out of it.
    bodies = [body("box", box(0.25, 0.125, 0.05), (0.0, 0.0, 0.0), mass=5.0, angular_velocity=(0.02, 10.0, 0.02))]
    note = ("A box spins at 10 rad/s about its intermediate axis (the middle moment of inertia), with "
            "a tiny wobble; nothing touches it and there is no gravity. Its angular momentum L = I w "
            "(pink) cannot change, and it does not. The box does: every 2.3 s or so it turns over end "
            "for end and spins on, the other way round in its own frame (the Dzhanibekov effect). "
            "While it turns, w (purple) swings away from L and back: w and L are parallel only while "
            "the box spins about a principal axis. Spin about the largest or smallest axis "
            "(spin_major_axis.json, spin_minor_axis.json) stays put: only the middle axis is unstable.")
    view = camera((0.0, 0.0, 0.0), 2.0, 30.0, 20.0)
    return scene("Classroom: Dzhanibekov tumble (no gravity)", bodies, camera=view, note=note,
                 show=["angular-velocity", "angular-momentum"], gravity=NO_GRAVITY)


PRESETS = {
    "default.json": default_scene,
    "two_spheres_head_on.json": two_spheres_head_on,
    "sphere_hits_box_off_centre.json": lambda: sphere_hits_box(spin=False),
    "sphere_hits_spinning_box.json": lambda: sphere_hits_box(spin=True),
    "tower10.json": tower10,
    "pyramid15.json": pyramid15,
    "ramp_friction.json": ramp_friction,
    "dominoes.json": dominoes,
    "newtons_cradle.json": newtons_cradle,
    "sliding_ball_rolls.json": sliding_ball_rolls,
    "spin_major_axis.json": lambda: spin(2, "major"),
    "spin_intermediate_axis.json": lambda: spin(1, "intermediate"),
    "spin_minor_axis.json": lambda: spin(0, "minor"),
    "billiard_break.json": billiard_break,
    "pile1000.json": pile1000,
    "heavy_on_light.json": heavy_on_light,
    "classroom/gliders_elastic.json": lambda: head_on_gliders(
        1.0, "Classroom: head-on gliders, elastic (e = 1)",
        "Elastic: the 1 kg glider comes back at 1 m/s and the 3 kg glider leaves at 1 m/s; no kinetic energy is lost."),
    "classroom/gliders_inelastic.json": lambda: head_on_gliders(
        0.5, "Classroom: head-on gliders, inelastic (e = 0.5)",
        "With e = 0.5 they separate at half their closing speed: the 1 kg glider comes back at 0.25 m/s, "
        "the 3 kg glider leaves at 0.75 m/s, and (1 - e^2) = 75 % of the kinetic energy of the motion "
        "relative to the centre of mass is lost: 1.5 J of the 2 J."),
    "classroom/gliders_sticky.json": lambda: head_on_gliders(
        0.0, "Classroom: head-on gliders, perfectly inelastic (e = 0)",
        "With e = 0 they do not separate: both move on at 0.5 m/s, the centre of mass's speed, and all "
        "of the kinetic energy relative to the centre of mass is lost: 1.5 J of the 2 J."),
    "classroom/glancing_billiard.json": glancing_billiard,
    "classroom/bounce_with_backspin.json": bounce_with_backspin,
    "classroom/box_tips_on_ramp.json": box_tips_on_ramp,
    "classroom/dzhanibekov_tumble.json": dzhanibekov,
}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(root, "assets", "scenes"), help="output folder")
    args = parser.parse_args()
    for file_name, make in PRESETS.items():
        path = os.path.join(args.out, file_name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        text = dump(make())
        with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
        print("wrote", os.path.relpath(path, root))


if __name__ == "__main__":
    main()
