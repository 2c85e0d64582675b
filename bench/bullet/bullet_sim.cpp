// bullet-sim: runs an Impulse Lab scene file through Bullet's
// btDiscreteDynamicsWorld with the same settings, for side-by-side benchmark
// figures (bench/run_bench.py --bullet). Same command line and the same
// --summary JSON keys as impulse-sim; it is part of the benchmark, not the app.
//
// How the scene maps onto Bullet (single thread, single precision, Bullet 3.24):
//   - boxes -> btBoxShape(half extents), spheres -> btSphereShape(radius); one
//     shape object per distinct size, shared by the bodies that have it;
//   - static bodies have mass 0; dynamic ones the file's mass, and the inertia
//     Bullet derives from shape and mass (a diagonal "inertia" from the file is
//     used as is; off-diagonal tensors are refused, Bullet has no such thing);
//   - dt = world.timestep, one stepSimulation(dt, 0) call per step (no
//     substepping, no interpolation); world.passes > 1 runs that many calls;
//   - btContactSolverInfo::m_numIterations = world.sub_steps; Bullet
//     has no separate position iterations: its split-impulse penetration
//     recovery (on by default) runs inside the same iterations;
//   - pair friction and restitution use the scene's combine rules (Bullet's own
//     default would multiply: 0.5 x 0.5 = 0.25), the restitution threshold is
//     world.restitution_threshold; no static friction, rolling friction 0;
//   - warm starting as in the scene (Bullet's default factor 0.85);
//   - Bullet's default of one friction direction per contact point (along the
//     sliding velocity); --friction-directions 2 adds the second tangent like
//     Impulse Lab. The default is what issue 4's reference Bullet figures match
//     (pyramid20 ~0.8 ms, standing); with 2 directions Bullet's pyramid20 is
//     ~1.7x slower and collapses;
//   - sleeping disabled on every dynamic body (DISABLE_DEACTIVATION).
#include "scene/scene.h"
#include "cli/summary_format.h"

#include <btBulletDynamicsCommon.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace {

using impulse::cli::shortest;

using ordered_json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: bullet-sim SCENE.json --steps N [--dt SECONDS] [--summary] [--friction-directions 1|2]\n"
    "\n"
    "Runs an Impulse Lab scene through Bullet (btDiscreteDynamicsWorld, one thread)\n"
    "with the scene's settings, and prints the same --summary JSON as impulse-sim.\n"
    "Exit status: 0 success, 2 invalid input, 1 internal failure (non-finite state).\n";

struct Options {
    std::string scenePath;
    long long steps = -1;
    double dt = 0.0;  // 0: the scene's timestep
    bool summary = false;
    int frictionDirections = 1;
};

struct UsageError {
    std::string message;
};

Options parseArguments(int argc, char** argv, bool& help) {
    Options options;
    help = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError{arg + ": missing value"};
            return argv[++i];
        };
        auto number = [&](const std::string& text) {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(v))
                throw UsageError{arg + ": expected a number, got '" + text + "'"};
            return v;
        };
        if (arg == "--help" || arg == "-h") {
            help = true;
            return options;
        } else if (arg == "--steps") {
            const double v = number(value());
            if (v < 0 || v > 1e7 || v != std::floor(v))
                throw UsageError{"--steps: expected 0 <= N <= 10000000"};
            options.steps = static_cast<long long>(v);
        } else if (arg == "--dt") {
            options.dt = number(value());
            if (options.dt < 1e-5 || options.dt > 0.1) throw UsageError{"--dt: must be in 1e-5 ... 0.1"};
        } else if (arg == "--summary") {
            options.summary = true;
        } else if (arg == "--friction-directions") {
            const double v = number(value());
            if (v != 1 && v != 2) throw UsageError{"--friction-directions: must be 1 or 2"};
            options.frictionDirections = static_cast<int>(v);
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError{arg + ": unknown flag (see --help)"};
        } else {
            if (!options.scenePath.empty()) throw UsageError{"unexpected argument '" + arg + "'"};
            options.scenePath = arg;
        }
    }
    if (options.scenePath.empty()) throw UsageError{"missing SCENE.json (see --help)"};
    if (options.steps < 0) throw UsageError{"--steps: required (see --help)"};
    return options;
}

// Pair materials by the scene's rules. Bullet calls these with the two objects
// of a contact; the rules are symmetric so the order does not matter.
impulse::RestitutionCombine gRestitutionRule = impulse::RestitutionCombine::Max;
impulse::FrictionCombine gFrictionRule = impulse::FrictionCombine::Geometric;

btScalar combinedRestitution(const btCollisionObject* a, const btCollisionObject* b) {
    return impulse::combineRestitution(gRestitutionRule, a->getRestitution(), b->getRestitution());
}
btScalar combinedFriction(const btCollisionObject* a, const btCollisionObject* b) {
    return impulse::combineFriction(gFrictionRule, a->getFriction(), b->getFriction());
}

ordered_json vec(const btVector3& v) {
    return ordered_json::array({shortest(v.x()), shortest(v.y()), shortest(v.z())});
}


bool finite(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// Owns the Bullet world and everything it points to, destroyed in reverse order.
struct BulletWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
    std::map<std::tuple<int, float, float, float>, std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> motionStates;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::string> names;

    ~BulletWorld() {
        for (auto& body : bodies) world.removeRigidBody(body.get());
    }

    btCollisionShape* shapeFor(const impulse::Shape& shape) {
        const bool box = shape.type == impulse::ShapeType::Box;
        const auto key =
            box ? std::make_tuple(1, shape.halfExtents.x, shape.halfExtents.y, shape.halfExtents.z)
                : std::make_tuple(0, shape.radius, 0.0f, 0.0f);
        auto& slot = shapes[key];
        if (!slot) {
            if (box) {
                slot = std::make_unique<btBoxShape>(
                    btVector3(shape.halfExtents.x, shape.halfExtents.y, shape.halfExtents.z));
            } else {
                slot = std::make_unique<btSphereShape>(shape.radius);
            }
        }
        return slot.get();
    }
};

int run(const Options& options) {
    impulse::scene::SceneResult loaded = impulse::scene::loadSceneFile(options.scenePath);
    if (const auto* error = std::get_if<impulse::scene::SceneError>(&loaded)) {
        std::fprintf(stderr, "bullet-sim: %s\n", error->message().c_str());
        return 2;
    }
    const impulse::scene::Scene& scene = std::get<impulse::scene::Scene>(loaded);
    const impulse::WorldSettings& settings = scene.settings;
    const double dt = options.dt > 0.0 ? options.dt : settings.timestep;
    const btScalar substepDt = static_cast<btScalar>(dt / settings.passes);

    gRestitutionRule = settings.restitutionCombine;
    gFrictionRule = settings.frictionCombine;
    gCalculateCombinedRestitutionCallback = combinedRestitution;
    gCalculateCombinedFrictionCallback = combinedFriction;

    auto bw = std::make_unique<BulletWorld>();
    btDiscreteDynamicsWorld& world = bw->world;
    world.setGravity(btVector3(settings.gravity.x, settings.gravity.y, settings.gravity.z));
    btContactSolverInfo& info = world.getSolverInfo();
    info.m_numIterations = settings.subSteps;
    info.m_restitutionVelocityThreshold = settings.restitutionThreshold;
    info.m_solverMode = SOLVER_SIMD;
    if (settings.warmStarting) info.m_solverMode |= SOLVER_USE_WARMSTARTING;
    if (options.frictionDirections == 2) info.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;

    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        const impulse::BodyDef& def = scene.bodies[i];
        btCollisionShape* shape = bw->shapeFor(def.shape);
        const btScalar mass = def.isStatic ? btScalar(0) : btScalar(def.mass);
        btVector3 inertia(0, 0, 0);
        if (!def.isStatic) {
            if (def.inertia) {
                const impulse::mat3& m = *def.inertia;
                if (m[0][1] != 0 || m[0][2] != 0 || m[1][2] != 0) {
                    std::fprintf(stderr,
                                 "bullet-sim: %s: bodies[%zu].inertia: Bullet takes principal moments only "
                                 "(a diagonal tensor)\n",
                                 options.scenePath.c_str(), i);
                    return 2;
                }
                inertia = btVector3(m[0][0], m[1][1], m[2][2]);
            } else {
                shape->calculateLocalInertia(mass, inertia);
            }
        }
        const impulse::quat& q = def.orientation;
        btTransform transform(btQuaternion(q.x, q.y, q.z, q.w),
                              btVector3(def.position.x, def.position.y, def.position.z));
        auto& motion = bw->motionStates.emplace_back(std::make_unique<btDefaultMotionState>(transform));
        btRigidBody::btRigidBodyConstructionInfo ci(mass, motion.get(), shape, inertia);
        ci.m_friction = def.friction;
        ci.m_restitution = def.restitution;
        ci.m_rollingFriction = 0;
        ci.m_spinningFriction = 0;
        ci.m_linearDamping = 0;
        ci.m_angularDamping = 0;
        auto& body = bw->bodies.emplace_back(std::make_unique<btRigidBody>(ci));
        if (!def.isStatic) {
            body->setLinearVelocity(
                btVector3(def.linearVelocity.x, def.linearVelocity.y, def.linearVelocity.z));
            body->setAngularVelocity(
                btVector3(def.angularVelocity.x, def.angularVelocity.y, def.angularVelocity.z));
            body->setActivationState(DISABLE_DEACTIVATION);
        }
        world.addRigidBody(body.get());
        bw->names.push_back(def.name);
    }

    using Clock = std::chrono::steady_clock;
    std::vector<double> stepMs;
    stepMs.reserve(static_cast<std::size_t>(options.steps));
    const Clock::time_point runStart = Clock::now();
    for (long long step = 1; step <= options.steps; ++step) {
        const Clock::time_point start = Clock::now();
        for (int s = 0; s < settings.passes; ++s) world.stepSimulation(substepDt, 0);
        stepMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    const double wallSeconds = std::chrono::duration<double>(Clock::now() - runStart).count();

    for (std::size_t i = 0; i < bw->bodies.size(); ++i) {
        const btRigidBody& b = *bw->bodies[i];
        if (!finite(b.getCenterOfMassPosition()) || !finite(b.getLinearVelocity()) ||
            !finite(b.getAngularVelocity())) {
            std::fprintf(stderr, "bullet-sim: non-finite state in body '%s' after step %lld\n",
                         bw->names[i].c_str(), options.steps);
            return 1;
        }
    }
    if (!options.summary) return 0;


    ordered_json bodies = ordered_json::array();
    double maxSpeed = 0.0, kinetic = 0.0, potential = 0.0;
    btVector3 gravity = world.getGravity();
    double linear[3] = {0, 0, 0}, angular[3] = {0, 0, 0};
    for (std::size_t i = 0; i < bw->bodies.size(); ++i) {
        const btRigidBody& b = *bw->bodies[i];
        const btVector3 x = b.getCenterOfMassPosition();
        const btQuaternion q = b.getOrientation();
        const btVector3 v = b.getLinearVelocity();
        const btVector3 w = b.getAngularVelocity();
        bodies.push_back(ordered_json{
            {"name", bw->names[i]},
            {"position", vec(x)},
            {"orientation",
             ordered_json::array({shortest(q.w()), shortest(q.x()), shortest(q.y()), shortest(q.z())})},
            {"linear_velocity", vec(v)},
            {"angular_velocity", vec(w)},
        });
        if (b.getInvMass() == 0) continue;
        const double m = 1.0 / b.getInvMass();
        const btMatrix3x3& invI = b.getInvInertiaTensorWorld();
        const btVector3 Iw = invI.inverse() * w;  // world inertia times w
        maxSpeed = std::max(maxSpeed, static_cast<double>(v.length()));
        kinetic += 0.5 * m * v.length2() + 0.5 * static_cast<double>(w.dot(Iw));
        potential -= m * static_cast<double>(gravity.dot(x));
        const btVector3 L = x.cross(v) * btScalar(m) + Iw;
        for (int k = 0; k < 3; ++k) {
            linear[k] += m * v[k];
            angular[k] += L[k];
        }
    }
    int contactPoints = 0;
    for (int i = 0; i < bw->dispatcher.getNumManifolds(); ++i) {
        contactPoints += bw->dispatcher.getManifoldByIndexInternal(i)->getNumContacts();
    }

    ordered_json summary;
    summary["engine"] =
        "bullet " + std::to_string(btGetVersion() / 100) + "." + std::to_string(btGetVersion() % 100);
    summary["steps"] = options.steps;
    summary["simulated_time"] = static_cast<double>(options.steps) * dt;
    summary["wall_time_s"] = wallSeconds;
    summary["step_time_ms"] = impulse::cli::stepTimeSummary(std::move(stepMs));
    summary["bodies"] = std::move(bodies);
    summary["kinetic_energy"] = kinetic;
    summary["potential_energy"] = potential;
    summary["linear_momentum"] = ordered_json::array({linear[0], linear[1], linear[2]});
    summary["angular_momentum"] = ordered_json::array({angular[0], angular[1], angular[2]});
    summary["contact_points"] = contactPoints;
    summary["max_speed"] = maxSpeed;
    const std::string text = summary.dump(2);
    std::fprintf(stdout, "%s\n", text.c_str());
    return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        bool help = false;
        const Options options = parseArguments(argc, argv, help);
        if (help) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        return run(options);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "bullet-sim: %s\n", e.message.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bullet-sim: internal error: %s\n", e.what());
        return 1;
    }
}
