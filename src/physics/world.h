// The physics world: bodies, settings, the step, queries and the mouse drag.
// This is the public API used by the scene loader, the app, the panels, the
// headless runner and the tests. Every mutation is validated; a rejected edit
// leaves the world exactly as it was.
#pragma once

#include "physics/drag_constraint.h"
#include "physics/math.h"
#include "physics/settings.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impulse {

class ThreadTeam;
class WorldSnapshot;
struct ContactManifold;
struct ContactReport;
struct PassGroup;

/// Closest hit of a ray cast.
struct RayHit {
    BodyId body;
    vec3 point{0.0f};   ///< world, m
    vec3 normal{0.0f};  ///< outward surface normal at the hit
    float distance = 0.0f;
};

/// One solved contact point of the last step, with every term of the impulse
/// formula so that a panel can show why the bodies moved as they did.
struct ContactPointInfo {
    BodyId bodyA, bodyB;
    vec3 point{0.0f};         ///< world, midway between the surfaces
    vec3 normal{0.0f};        ///< unit, from A to B
    vec3 rA{0.0f}, rB{0.0f};  ///< from each centre of mass to the point
    float separation = 0.0f;  ///< negative when penetrating, m
    uint32_t featureId = 0;
    // Terms of k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
    float inverseMassA = 0.0f, inverseMassB = 0.0f;
    float angularTermA = 0.0f, angularTermB = 0.0f;
    float normalMass = 0.0f;            ///< 1 / k_n, kg
    float tangentMass[2] = {0.0f, 0.0f};  ///< 1 / k_t for the two tangent directions
    vec3 tangent[2];                    ///< tangent directions used this step
    float normalVelocityBefore = 0.0f;  ///< v_rel . n before the solve, m/s (negative: approaching)
    float normalVelocityAfter = 0.0f;   ///< v_rel . n after the solve
    float targetNormalVelocity = 0.0f;  ///< restitution or speculative target, m/s
    float restitution = 0.0f, friction = 0.0f, staticFriction = 0.0f;  ///< combined for the pair
    float normalImpulse = 0.0f;         ///< j_n applied over the last step, N s
    vec3 frictionImpulse{0.0f};         ///< tangential impulse applied over the last step, N s (world)
    float frictionBound = 0.0f;         ///< mu * j_n with the mu in force (mu_s while sticking), N s
    /// The point pushed in the last step and ends it slipping slower than
    /// kStickSpeed (not a test of the cone: a point at its edge may stick too).
    bool sticking = false;
    /// The impact at this point in the last step, if any (0 otherwise): its
    /// whole normal impulse, N s, its friction impulse (world), and whether its
    /// friction held the slip (mu_s j_n) or slid (mu j_n).
    float impactNormalImpulse = 0.0f;
    vec3 impactFrictionImpulse{0.0f};
    bool impactSticking = false;
    /// Set in World::impacts() only (0 in contacts()): the impact's relative
    /// velocity v_B - v_A at the point along n at arrival (< 0) and once the
    /// impact was solved, and its tangential part (the slip) at arrival and after, m/s.
    float impactArrivalVelocity = 0.0f;
    float impactLeavingVelocity = 0.0f;
    vec3 impactSlipBefore{0.0f};
    vec3 impactSlipAfter{0.0f};
    /// Kinetic energy the relative motion at the point lost in the impact, J:
    /// 1/2 m (u^2 - u'^2) along the normal and each tangent, with the point's
    /// effective masses at the surfaces. Exact where normal and friction do not
    /// couple (one point of a sphere); elsewhere this point's share, approximately.
    float impactEnergyLost = 0.0f;
    bool warmStarted = false;           ///< matched a point of the previous step
};

/// What the non-finite guard did: a step produced a non-finite (or blown-up) state in `body`,
/// so the world was put back to its state before that step and the body's
/// velocities were zeroed (it then moves on from rest).
struct StepRecovery {
    BodyId body;
    std::string bodyName;
    uint64_t step = 0;  ///< index of the failed step (stepCount() before it)
};

/// Counters of the last step.
struct StepStats {
    int candidatePairs = 0;  ///< broadphase AABB overlaps
    int manifolds = 0;       ///< pairs with at least one point
    int contactPoints = 0;
    int sleepingBodies = 0;         ///< their contacts are kept, but neither solved nor counted above
    int sleepingContactPoints = 0;  ///< the points of those kept contacts
    int impacts = 0;  ///< points that had an impact (World::impacts lists them)
    /// Collide-and-solve passes of the bodies that took the most (a fast
    /// spinner's group, or one whose pass ended early as a body gained spin;
    /// settings().passes when nothing spins fast).
    int mostPasses = 0;
    /// Dynamic bodies that took more passes than settings().passes: a fast
    /// spinner and what it may reach in the step, or the group of a pass that
    /// ended early (World::step).
    int bodiesInExtraPasses = 0;
    /// Bodies whose spin the step clamped to maxAngularSpeed(shape) (Body::spinClamped).
    int spinClampedBodies = 0;
};

/// Whether a snapshot keeps the last step's contact reports (World::snapshotAgainst).
enum class LastStepReports { kept, dropped };

class World {
public:
    explicit World(const WorldSettings& settings = {});
    ~World();
    World(const World& other);
    World& operator=(const World& other);
    World(World&&) noexcept;
    World& operator=(World&&) noexcept;

    const WorldSettings& settings() const { return settings_; }
    /// Validates and applies; on error the settings are unchanged.
    Validation setSettings(const WorldSettings& settings);

    /// Creates a body; returns the null handle and fills `error` if the
    /// definition is invalid (the world is then unchanged).
    BodyId createBody(const BodyDef& def, FieldError* error = nullptr);
    /// Removes a body and its contacts; ends a drag on it. False for a stale handle.
    bool removeBody(BodyId id);
    void clear();

    bool isValid(BodyId id) const;
    int bodyCount() const { return liveBodies_; }
    /// Live bodies in index order (stable, deterministic).
    std::vector<BodyId> bodyIds() const;
    /// Read-only view of a body; `id` must be valid.
    const Body& body(BodyId id) const;
    /// Finds a body by name; null handle when absent.
    BodyId findBody(const std::string& name) const;
    /// The dynamic bodies whose centre of mass is outside settings().bounds, in index
    /// order. Only a query: the step moves them as any other body.
    std::vector<BodyId> bodiesOutsideBounds() const;

    /// The body's current definition (properties and state), for editing.
    BodyDef bodyDef(BodyId id) const;
    /// Validates `def` and applies all of it at once; on error nothing changes.
    /// Keeps the body's contacts unless its shape or static flag changed.
    Validation updateBody(BodyId id, const BodyDef& def);

    /// Advances by settings().timestep.
    void step();
    /// Advances by dt seconds in collide-and-solve passes: settings().passes,
    /// or more for a body turning fast and what it may reach in the step
    /// (docs/physics.md, "Fast spin").
    void step(float dt);

    /// Closest body hit by the ray from `origin` along `direction` (need not be unit),
    /// within `maxDistance` metres; RayHit::distance is in metres too.
    std::optional<RayHit> rayCast(const vec3& origin, const vec3& direction, float maxDistance) const;

    /// Grabs `body` at the world point `grabPoint`; the drag is solved with the contacts.
    Validation beginDrag(BodyId body, const vec3& grabPoint, const DragSettings& settings = {});
    void setDragTarget(const vec3& target);
    Validation setDragSettings(const DragSettings& settings);
    /// Releases the body, keeping its velocity (throwing works).
    void endDrag();
    const DragState& drag() const { return drag_; }

    /// Contact points of the last step, pair by pair in a deterministic order.
    std::vector<ContactPointInfo> contacts() const;
    /// Without copying them all (a pile has thousands; a view shows a few): how many
    /// contacts() holds, the one at `index` there (index < contactPointCount()), and the
    /// indices there of the points of `body` (none for a stale handle).
    size_t contactPointCount() const;
    ContactPointInfo contactPoint(size_t index) const;
    std::vector<size_t> contactIndicesOf(BodyId body) const;
    /// The points that had an impact in the last step, each as the pass that had it
    /// left it (contacts() shows only the last pass of a step); stats().impacts counts them.
    const std::vector<ContactPointInfo>& impacts() const;
    /// Sum of the normal impulses at the body's contact points over the last step, N s.
    float contactNormalImpulse(BodyId id) const;
    const StepStats& stats() const { return stats_; }
    /// Sum over dynamic bodies of 1/2 m v^2 + 1/2 w . I w (J).
    double kineticEnergy() const;
    /// Sum over dynamic bodies of -m g . x (J), zero at the origin.
    double potentialEnergy() const;
    /// Total linear momentum of the dynamic bodies (kg m/s).
    glm::dvec3 linearMomentum() const;
    /// Total angular momentum about the origin: sum x * m v + I_world w (kg m^2/s).
    glm::dvec3 angularMomentum() const;
    /// First body whose state is not finite, or blown up beyond what float can
    /// represent usefully (|x| > 1e6 m or |v| > 1e5 m/s), or null.
    BodyId firstNonFiniteBody() const;
    /// Set when the last step hit a non-finite state and was rolled back.
    /// Threads that share the sub-steps' sweeps (1: the caller only, the
    /// default). Results are bit-identical for every count; a machine setting,
    /// not part of the scene. Refused outside [1, kMaxThreads].
    Validation setThreadCount(int count);
    int threadCount() const;

    const std::optional<StepRecovery>& lastRecovery() const { return lastRecovery_; }
    /// Number of steps rolled back since creation.
    uint64_t recoveryCount() const { return recoveryCount_; }
    /// Number of steps taken since creation.
    uint64_t stepCount() const { return stepCount_; }
    /// StepStats::spinClampedBodies summed over every step since creation.
    uint64_t spinClampCount() const { return spinClampCount_; }

    /// The world as it is now, for restore() (world_snapshot.h). Shares the bodies'
    /// properties with `previous` when no edit changed them since it was taken.
    WorldSnapshot snapshot(const WorldSnapshot* previous = nullptr) const;
    /// The same, kept as the bytes of the bodies' motion and the contacts that differ
    /// from `base` (a full snapshot of this world, or the base of one kept so), which
    /// it shares: when the world has as many body slots and contacts as then, and
    /// fewer than half of those bytes changed. Otherwise a full snapshot. With
    /// LastStepReports::dropped it leaves out the awake contacts' reports of the last
    /// step (a third of the bytes to compare), which no step reads: the world it
    /// restores steps on exactly, but shows those reports only after a step.
    WorldSnapshot snapshotAgainst(const std::shared_ptr<const WorldSnapshot>& base,
                                  LastStepReports reports = LastStepReports::kept) const;
    /// Puts the world back as it was when `snapshot` was taken (of this world or
    /// any other): the steps that follow repeat the ones that followed then, bit
    /// for bit. The thread count stays.
    void restore(const WorldSnapshot& snapshot);

private:
    struct Internals;
    /// A snapshot of everything but the bodies' motion and the contacts, sharing the
    /// bodies' properties with `previous` when no edit changed them since.
    WorldSnapshot snapshotWithoutState(const WorldSnapshot* previous) const;
    /// Splits the bodies into the step's pass groups (Internals::passGroups):
    /// each takes as many passes as keep its bodies' turn within
    /// kMaxTurnPerPass per pass (at least settings().passes, at most
    /// kMaxPasses), and a group holds what its spinners may reach in dt.
    void formPassGroups(float dt);
    /// Internals::aabbs: each body's reach over a step of dt (present, isStatic alike).
    void findReach(float dt);
    /// Joins (Internals::reachSets) each fast spinner with what it may reach,
    /// transitively, by testing each joined body against all; notes the static
    /// bodies reached in Internals::reachPairs. False once the groups grow
    /// beyond kMaxGrownPassGroup bodies (then joinAllReached does it).
    bool joinFewReached();
    /// Joins all bodies that may meet, through a broadphase over the reach boxes.
    void joinAllReached();
    /// A group's passes over dt; its contacts are in Internals::contacts meanwhile.
    void runGroupPasses(size_t group, float dt);
    /// One collide-and-solve pass of length dt in `subSteps` sub-steps of a
    /// group: collide, then the solver's stages (solver.h). Returns the
    /// sub-steps it ran: fewer when `mayEndEarly` and a body turned too far in it.
    int runPass(float dt, int subSteps, size_t group, bool mayEndEarly);
    /// Broadphase, narrowphase and manifold matching of a group's bodies for a
    /// pass of length dt; wakes the sleeping islands that awake bodies touch.
    void collide(float dt, PassGroup& group);
    /// Collides each body that a pair may drive beyond its own reach
    /// (Internals::drivenBodies) with the static bodies within that reach, at
    /// that reach: new manifolds, or ones of a longer reach for pairs it had.
    void collideDrivenWithStatic(float dt);
    void recoverFromNonFiniteState(BodyId failed);
    /// After a step: rest times, islands, and the islands that rested long enough put to sleep.
    void updateSleep(float dt);
    /// Wakes every body of the given islands and returns their contacts to the solver.
    void wakeIslands(std::vector<uint32_t>& islands);
    /// Wakes the body at `index` and whatever sleeps in contact with it, before an edit or removal.
    void wakeAround(uint32_t index);
    void wakeAll();
    void applyDefinition(Body& body, const BodyDef& def);
    /// Keeps the points the last pass's impact stages struck (World::impacts).
    void collectImpacts();
    /// What contacts() says of point i of a manifold.
    ContactPointInfo contactInfo(const ContactManifold& manifold, const ContactReport& report, int i) const;
    BodyId idOf(uint32_t index) const;

    WorldSettings settings_;
    std::vector<Body> bodies_;
    std::vector<uint32_t> freeSlots_;
    int liveBodies_ = 0;
    DragState drag_;
    StepStats stats_;
    uint64_t stepCount_ = 0;
    std::optional<StepRecovery> lastRecovery_;
    uint64_t recoveryCount_ = 0;
    // Names the bodies' properties as they are (a new value at every edit of them,
    // unique in the process): snapshots with the same one share them.
    uint64_t layoutRevision_;
    uint64_t spinClampCount_ = 0;
    std::unique_ptr<Internals> internals_;  // broadphase, manifolds, solver scratch
    std::unique_ptr<ThreadTeam> team_;      // runs the sub-steps' sweeps
};

}  // namespace impulse
