#include "physics/impact.h"

#include "physics/constants.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace impulse {
namespace {

// The axis of direction d at a point, with the solver's world inverse inertia
// of now (it follows bodies whose tensor turns during the sub-steps).
ConstraintAxis makeAxis(const ContactSolverData& data, uint32_t a, uint32_t b, const vec3& rA, const vec3& rB,
                        const vec3& direction) {
    ConstraintAxis axis;
    axis.rAxD = glm::cross(rA, direction);
    axis.rBxD = glm::cross(rB, direction);
    axis.turnA = data.inverseInertia[a] * axis.rAxD;
    axis.turnB = data.inverseInertia[b] * axis.rBxD;
    // k = 1/m_A + 1/m_B + d.[(I_A^-1 (r_A x d)) x r_A] + d.[(I_B^-1 (r_B x d)) x r_B],
    // where d.[(I^-1 (r x d)) x r] = (r x d).(I^-1 (r x d)).
    const float k = data.bodies[a].inverseMass + data.bodies[b].inverseMass + glm::dot(axis.rAxD, axis.turnA) +
                    glm::dot(axis.rBxD, axis.turnB);
    axis.mass = k > 0.0f ? 1.0f / k : 0.0f;
    return axis;
}

float axisVelocity(const SolverBody& a, const SolverBody& b, const vec3& direction, const ConstraintAxis& axis) {
    return glm::dot(b.linearVelocity - a.linearVelocity, direction) + glm::dot(b.angularVelocity, axis.rBxD) -
           glm::dot(a.angularVelocity, axis.rAxD);
}

void applyAlong(SolverBody& a, SolverBody& b, const vec3& direction, const ConstraintAxis& axis, float lambda) {
    a.linearVelocity -= (a.inverseMass * lambda) * direction;
    a.angularVelocity -= lambda * axis.turnA;
    b.linearVelocity += (b.inverseMass * lambda) * direction;
    b.angularVelocity += lambda * axis.turnB;
}

// Takes the impulses the sub-steps applied at a point (normal, then along its
// two tangents) back off bodies a and b, at the lever arms they applied them at.
void takeBackAt(const ContactSolverData& data, const ContactConstraint& c, const ConstraintPoint& cp, SolverBody& a,
                SolverBody& b, const float (&impulses)[3]) {
    const vec3 directions[3] = {c.normal, c.tangent[0], c.tangent[1]};
    for (int d = 0; d < 3; ++d) {
        const ConstraintAxis axis = makeAxis(data, c.a, c.b, cp.rA, cp.rB, directions[d]);
        applyAlong(a, b, directions[d], axis, -impulses[d]);
    }
}

/// One point of an impact.
struct EventPoint {
    int point = 0;
    ConstraintAxis normal, tangent[2];
    float arrival = 0.0f;  ///< v_rel.n at arrival, < 0
    float target = 0.0f;  ///< Newton's leaving speed -e v_arrival, before the energy limit's scale
    /// The impulses the sub-steps applied at the point this step (after them):
    /// they stopped the approach, so they are part of the impact, which goes on from them.
    float startNormal = 0.0f;
    float startTangent[2] = {0.0f, 0.0f};
    float normalImpulse = 0.0f;  ///< the impact's total, >= 0
    float tangentImpulse[2] = {0.0f, 0.0f};
    /// K over (normal, tangent 0, tangent 1) (pointCoupling): its normal row
    /// K_n. and its inverse, what solveEventPoint reads; fixed with the axes,
    /// so taken once per point.
    glm::dvec3 normalCoupling{0.0};
    glm::dmat3 inverseCoupling{0.0};
    bool sticking = false;
    // What the impact did, for the impact log (ImpactMeasure).
    vec3 slipBefore{0.0f};
    float leaving = 0.0f;
    vec3 slipAfter{0.0f};
};

/// An impact between the two bodies of one manifold: its points that arrive
/// together are solved together (a box landing flat on four corners).
struct ImpactEvent {
    uint32_t constraint = 0;
    int pointCount = 0;
    EventPoint points[kMaxManifoldPoints];
};

// The tangential part of v_rel at an impact's point.
template <class Point>
vec3 slipAt(const SolverBody& a, const SolverBody& b, const ContactConstraint& c, const Point& p) {
    return axisVelocity(a, b, c.tangent[0], p.tangent[0]) * c.tangent[0] +
           axisVelocity(a, b, c.tangent[1], p.tangent[1]) * c.tangent[1];
}

// The change of v_rel along axis i per unit impulse along axis j at one point:
// K_ij = (1/m_A + 1/m_B) d_i.d_j + (r_A x d_i).I_A^-1 (r_A x d_j) + (r_B x d_i).I_B^-1 (r_B x d_j),
// the directions d orthonormal (a point's normal and tangents).
double pointCoupling(const SolverBody& a, const SolverBody& b, const ConstraintAxis& i, const ConstraintAxis& j,
                     bool sameDirection) {
    return (sameDirection ? double(a.inverseMass) + double(b.inverseMass) : 0.0) +
           glm::dot(glm::dvec3(i.rAxD), glm::dvec3(j.turnA)) + glm::dot(glm::dvec3(i.rBxD), glm::dvec3(j.turnB));
}

// One point of an impact, its normal and friction impulses solved together
// with the point's 3x3 effective mass K: at a box's corner friction moves the
// point along the normal too, and solved one after the other they may not
// settle (a corner of a box spinning at 19 rad/s was stopped by the normal
// impulse, lifted by friction, left untouched, and so on every sweep, and the
// impact ended with no impulse, the corner still closing at 1.07 m/s). The
// impulse that leaves the point at its target along n and stops its slip
// holds if it fits in mu_s j_n (stick). Otherwise friction is mu j_n (mu_s
// if the point slipped slower than kStickSpeed at arrival: decided once, so
// that the bound does not change from sweep to sweep) against
// that impulse's tangential part, and j_n meets the target with it; where
// friction would drive the point into the surface faster than j_n lifts it
// (Painleve's case: no such j_n), the stopping impulse's j_n is kept with its
// friction cut to the cone. Returns the largest change of an impulse.
float solveEventPoint(SolverBody& a, SolverBody& b, const ContactConstraint& c, EventPoint& p, float targetScale) {
    const ConstraintAxis* axes[3] = {&p.normal, &p.tangent[0], &p.tangent[1]};
    const vec3 directions[3] = {c.normal, c.tangent[0], c.tangent[1]};
    const glm::dvec3& normalRow = p.normalCoupling;
    glm::dvec3 velocity, impulse(p.normalImpulse, p.tangentImpulse[0], p.tangentImpulse[1]);
    for (int i = 0; i < 3; ++i) velocity[i] = axisVelocity(a, b, directions[i], *axes[i]);
    const glm::dvec3 target(double(targetScale) * p.target, 0.0, 0.0);
    glm::dvec3 next = impulse + p.inverseCoupling * (target - velocity);
    const double stopping = std::sqrt(next.y * next.y + next.z * next.z);
    p.sticking = next.x >= 0.0 && stopping <= double(c.staticFriction) * next.x;
    if (!p.sticking) {
        const bool sliding = glm::dot(p.slipBefore, p.slipBefore) > kStickSpeed * kStickSpeed;
        const double mu = sliding ? c.friction : c.staticFriction;
        const glm::dvec2 against = stopping > 0.0 ? glm::dvec2(next.y, next.z) / stopping : glm::dvec2(0.0);
        // v_n + K_nn (j_n' - j_n) + K_nt . (mu j_n' against - j_t) = target along n, for j_n'.
        const double slope = normalRow.x + mu * (normalRow.y * against.x + normalRow.z * against.y);
        const double rest =
            target.x - velocity.x + normalRow.x * impulse.x + normalRow.y * impulse.y + normalRow.z * impulse.z;
        const double normal = std::max(slope > 0.0 ? rest / slope : next.x, 0.0);
        next = glm::dvec3(normal, mu * normal * against.x, mu * normal * against.y);
    }
    float largestChange = 0.0f;
    float* impulses[3] = {&p.normalImpulse, &p.tangentImpulse[0], &p.tangentImpulse[1]};
    for (int i = 0; i < 3; ++i) {
        const float total = float(next[i]);
        applyAlong(a, b, directions[i], *axes[i], total - *impulses[i]);
        largestChange = std::max(largestChange, std::fabs(total - *impulses[i]));
        *impulses[i] = total;
    }
    return largestChange;
}

// Sequential impulses over one impact's points, each point solved whole
// (solveEventPoint). One point (a sphere, a corner) settles in one sweep; the
// points of a face share the load as they must, and the sweeps go on until
// one changes no impulse by more than kImpactConvergence of the largest (at
// most kImpactSweeps).
void solveEvent(ContactSolverData& data, ImpactEvent& event, float targetScale) {
    const ContactConstraint& c = data.constraints[event.constraint];
    SolverBody& a = data.bodies[c.a];
    SolverBody& b = data.bodies[c.b];
    for (int sweep = 0; sweep < kImpactSweeps; ++sweep) {
        float largestChange = 0.0f, largestImpulse = 0.0f;
        for (int k = 0; k < event.pointCount; ++k) {
            largestChange = std::max(largestChange, solveEventPoint(a, b, c, event.points[k], targetScale));
            largestImpulse = std::max(largestImpulse, event.points[k].normalImpulse);
        }
        if (largestChange <= kImpactConvergence * largestImpulse) return;
    }
}

// The impact energy limit. Newton's law sets every point's leaving speed on its
// own. With Coulomb friction, or with several points of a body struck at once,
// the impulses that meet those targets can leave the bodies with more kinetic
// energy than they brought (Kane and Levinson's paradox; Stronge, Impact
// Mechanics; docs/physics.md has the soak's spinning plate). An
// impact with e <= 1 cannot do that. So the bodies joined by impacts are
// grouped, and a group that would gain has its impacts blended towards the
// same impacts solved perfectly inelastic, v = v0 + s (v1 - v0), with the
// largest s in [0, 1] that gains nothing. Both impulse sets are feasible
// (normal impulses >= 0, friction inside its cone), and so is every blend.

struct SlotMotion {
    vec3 linear{0.0f}, angular{0.0f};
};

class ImpactGroups {
public:
    /// `slots`: the bodies the impacts moved, static slot 0 excluded.
    ImpactGroups(ContactSolverData& data, const std::vector<Body>& bodies, const std::vector<uint32_t>& slots)
        : data_(data), bodies_(bodies), slots_(slots) {
        for (uint32_t slot : slots_) data_.impactGroup[slot] = slot;
    }

    /// Puts the bodies of slots a and b in one group; slot 0 joins nothing (it moves no energy).
    void join(uint32_t a, uint32_t b) {
        if (a == 0 || b == 0) return;
        const uint32_t rootA = find(a), rootB = find(b);
        if (rootA != rootB) data_.impactGroup[rootA] = rootB;
    }
    /// Numbers the groups, once every join is made.
    void close() {
        for (uint32_t slot : slots_) roots_.push_back(find(slot));
        groupOfSlot_ = roots_;
        std::sort(roots_.begin(), roots_.end());
        roots_.erase(std::unique(roots_.begin(), roots_.end()), roots_.end());
        for (uint32_t& group : groupOfSlot_) {
            group = uint32_t(std::lower_bound(roots_.begin(), roots_.end(), group) - roots_.begin());
        }
    }
    size_t groupCount() const { return roots_.size(); }
    static constexpr uint32_t kOutside = ~0u;
    /// The group of a moved slot; kOutside for slot 0 and slots no impact moved.
    uint32_t groupOf(uint32_t slot) const {
        if (slot == 0 || data_.impactGroup[slot] == kOutside) return kOutside;
        return uint32_t(std::lower_bound(roots_.begin(), roots_.end(), find(slot)) - roots_.begin());
    }
    /// The group of a constraint's dynamic body (one of the two is dynamic).
    uint32_t groupOf(const ContactConstraint& c) const { return groupOf(c.a != 0 ? c.a : c.b); }

    /// The solver velocities of the slots, in their order.
    std::vector<SlotMotion> motions() const {
        std::vector<SlotMotion> out(slots_.size());
        for (size_t k = 0; k < slots_.size(); ++k) {
            out[k] = {data_.bodies[slots_[k]].linearVelocity, data_.bodies[slots_[k]].angularVelocity};
        }
        return out;
    }
    /// Kinetic energy of each group (J) in `motions`, at the solver's orientations.
    std::vector<double> kineticEnergy(const std::vector<SlotMotion>& motions) const {
        std::vector<double> energy(groupCount(), 0.0);
        for (size_t k = 0; k < slots_.size(); ++k) {
            energy[groupOfSlot_[k]] += 0.5 * product(k, data_.bodies[slots_[k]].orientation, motions[k], motions[k]);
        }
        return energy;
    }
    /// Kinetic energy of each group at the start of the step (the bodies' own
    /// state) plus the work gravity has done on it since.
    std::vector<double> startEnergy(const vec3& gravity) const {
        std::vector<double> energy(groupCount(), 0.0);
        for (size_t k = 0; k < slots_.size(); ++k) {
            const Body& body = bodyOf(k);
            const SlotMotion start{body.linearVelocity, body.angularVelocity};
            const glm::dvec3 moved(data_.bodies[slots_[k]].deltaPosition);
            const double work = double(body.mass) * glm::dot(glm::dvec3(gravity), moved);
            energy[groupOfSlot_[k]] += 0.5 * product(k, body.orientation, start, start) + work;
        }
        return energy;
    }
    /// Per group: whether `motions` hold more kinetic energy than `allowed`,
    /// beyond rounding (an elastic frictionless bounce keeps its energy to ~1e-7).
    std::vector<uint8_t> gains(const std::vector<SlotMotion>& motions, const std::vector<double>& allowed) const {
        const std::vector<double> energy = kineticEnergy(motions);
        std::vector<uint8_t> out(groupCount());
        for (size_t g = 0; g < groupCount(); ++g) out[g] = energy[g] - allowed[g] > kImpactEnergyTolerance * energy[g];
        return out;
    }
    /// Per gaining group, the largest s in [0, 1] for which inelastic +
    /// s (elastic - inelastic) has at most `allowed` kinetic energy (0 if even
    /// s = 0 has more); 1 for the others.
    std::vector<float> scales(const std::vector<SlotMotion>& inelastic, const std::vector<SlotMotion>& elastic,
                              const std::vector<double>& allowed, const std::vector<uint8_t>& gaining) const {
        // 2 KE(s) = c + 2 b s + a s^2
        std::vector<double> a(groupCount(), 0.0), b(groupCount(), 0.0), c(groupCount(), 0.0);
        for (size_t k = 0; k < slots_.size(); ++k) {
            const quat& q = data_.bodies[slots_[k]].orientation;
            const SlotMotion delta{elastic[k].linear - inelastic[k].linear, elastic[k].angular - inelastic[k].angular};
            const uint32_t g = groupOfSlot_[k];
            a[g] += product(k, q, delta, delta);
            b[g] += product(k, q, inelastic[k], delta);
            c[g] += product(k, q, inelastic[k], inelastic[k]);
        }
        std::vector<float> out(groupCount(), 1.0f);
        for (size_t g = 0; g < groupCount(); ++g) {
            if (!gaining[g]) continue;
            const double excess = c[g] - 2.0 * allowed[g];  // 2 (KE(0) - allowed)
            if (excess >= 0.0 || a[g] <= 0.0) {
                out[g] = 0.0f;
                continue;
            }
            // The positive root of a s^2 + 2 b s + excess = 0.
            out[g] = float(std::min(1.0, (-b[g] + std::sqrt(b[g] * b[g] - a[g] * excess)) / a[g]));
        }
        return out;
    }
    /// Sets the velocities of the slots of the groups for which `which` holds to `motions`.
    void set(const std::vector<SlotMotion>& motions, const std::vector<uint8_t>& which) {
        for (size_t k = 0; k < slots_.size(); ++k) {
            if (!which[groupOfSlot_[k]]) continue;
            data_.bodies[slots_[k]].linearVelocity = motions[k].linear;
            data_.bodies[slots_[k]].angularVelocity = motions[k].angular;
        }
    }
    /// Sets the velocities of every slot whose group's scale s is below 1 to
    /// inelastic + s (elastic - inelastic).
    void blend(const std::vector<SlotMotion>& inelastic, const std::vector<SlotMotion>& elastic,
               const std::vector<float>& scale) {
        for (size_t k = 0; k < slots_.size(); ++k) {
            const float s = scale[groupOfSlot_[k]];
            if (s >= 1.0f) continue;
            SolverBody& body = data_.bodies[slots_[k]];
            body.linearVelocity = inelastic[k].linear + s * (elastic[k].linear - inelastic[k].linear);
            body.angularVelocity = inelastic[k].angular + s * (elastic[k].angular - inelastic[k].angular);
        }
    }

private:
    uint32_t find(uint32_t slot) const {
        while (data_.impactGroup[slot] != slot) slot = data_.impactGroup[slot];
        return slot;
    }
    const Body& bodyOf(size_t k) const { return bodies_[data_.bodyOfSlot[slots_[k]]]; }
    // m x_v.y_v + x_w.(I y_w), the kinetic energy's bilinear form, with the
    // body-frame tensor seen at orientation q; in double.
    double product(size_t k, const quat& q, const SlotMotion& x, const SlotMotion& y) const {
        const Body& body = bodyOf(k);
        const glm::dvec3 spinX(inverseRotate(q, x.angular)), spinY(inverseRotate(q, y.angular));
        return double(body.mass) * glm::dot(glm::dvec3(x.linear), glm::dvec3(y.linear)) +
               glm::dot(spinX, glm::dmat3(body.inertiaBody) * spinY);
    }

    ContactSolverData& data_;
    const std::vector<Body>& bodies_;
    const std::vector<uint32_t>& slots_;
    std::vector<uint32_t> groupOfSlot_;  ///< parallel to slots_
    std::vector<uint32_t> roots_;        ///< one per group, ascending
};

// One impact stage: the seeds' impacts, the chains they set off, the energy
// limit, and the impulses into the points.
class ImpactStageRun {
public:
    ImpactStageRun(ContactSolverData& data, const std::vector<Body>& bodies, const ImpactRules& rules)
        : data_(data), bodies_(bodies), rules_(rules) {
        data_.impactMoved.assign(data_.bodies.size(), 0);
        data_.impactGroup.assign(data_.bodies.size(), ImpactGroups::kOutside);
    }

    void run() {
        listContactsBySlot();
        if (after()) takeBackPassedPushes();
        seedEvents();
        propagate();
        limitEnergy();
        commit();
    }

private:
    bool after() const { return rules_.stage == ImpactStage::AfterSubSteps; }

    EventPoint makePoint(const ContactConstraint& c, int i, float arrivalVelocity, bool seed) const {
        const ConstraintPoint& cp = pointOf(data_, c, i);
        EventPoint p;
        p.point = i;
        const auto [rA, rB] = surfaceArms(c, cp);
        // k_n = 1/m_A + 1/m_B + n.[(I_A^-1 (r_A x n)) x r_A] + n.[(I_B^-1 (r_B x n)) x r_B]
        p.normal = makeAxis(data_, c.a, c.b, rA, rB, c.normal);
        p.tangent[0] = makeAxis(data_, c.a, c.b, rA, rB, c.tangent[0]);
        p.tangent[1] = makeAxis(data_, c.a, c.b, rA, rB, c.tangent[1]);
        const ConstraintAxis* axes[3] = {&p.normal, &p.tangent[0], &p.tangent[1]};
        glm::dmat3 coupling;
        for (int row = 0; row < 3; ++row) {
            for (int column = 0; column < 3; ++column) {
                coupling[column][row] =
                    pointCoupling(data_.bodies[c.a], data_.bodies[c.b], *axes[row], *axes[column], row == column);
            }
        }
        p.normalCoupling = glm::dvec3(coupling[0][0], coupling[1][0], coupling[2][0]);
        p.inverseCoupling = glm::inverse(coupling);
        p.arrival = arrivalVelocity;
        // Slower than the threshold: the impact stops the approach and bounds friction, no bounce.
        p.target = -appliedRestitution(c.restitution, arrivalVelocity, rules_.threshold) * arrivalVelocity;
        // A gap that closed during the sub-steps: they applied the impulse
        // that stopped it, and friction under it; the impact goes on from there.
        if (seed && after()) {
            p.startNormal = cp.stepNormalImpulse;
            p.startTangent[0] = glm::dot(cp.stepFrictionImpulse, c.tangent[0]);
            p.startTangent[1] = glm::dot(cp.stepFrictionImpulse, c.tangent[1]);
        }
        p.normalImpulse = p.startNormal;
        p.tangentImpulse[0] = p.startTangent[0];
        p.tangentImpulse[1] = p.startTangent[1];
        return p;
    }

    void touch(uint32_t slot) {
        if (slot == 0) return;
        struck_.push_back(slot);
        if (data_.impactMoved[slot]) return;
        data_.impactMoved[slot] = 1;
        moved_.push_back(slot);
        before_.push_back({data_.bodies[slot].linearVelocity, data_.bodies[slot].angularVelocity});
    }

    void addEvent(ImpactEvent& event) {
        const ContactConstraint& c = data_.constraints[event.constraint];
        touch(c.a);
        touch(c.b);
        measureArrival(event);
        solveEvent(data_, event, 1.0f);
        measureLeaving(event);
        events_.push_back(event);
    }

    // The slip at arrival: after the sub-steps, the bodies' velocities less
    // the impulses with which they stopped the approach, taken back at the
    // lever arms the sub-steps applied them at (gravity and the bodies' other
    // contacts during the sub-steps aside).
    void measureArrival(ImpactEvent& event) const {
        const ContactConstraint& c = data_.constraints[event.constraint];
        SolverBody a = data_.bodies[c.a], b = data_.bodies[c.b];
        for (int k = 0; k < event.pointCount; ++k) {
            const EventPoint& p = event.points[k];
            if (p.startNormal == 0.0f && p.startTangent[0] == 0.0f && p.startTangent[1] == 0.0f) continue;
            takeBackAt(data_, c, pointOf(data_, c, p.point), a, b, {p.startNormal, p.startTangent[0], p.startTangent[1]});
        }
        for (int k = 0; k < event.pointCount; ++k) event.points[k].slipBefore = slipAt(a, b, c, event.points[k]);
    }

    void measureLeaving(ImpactEvent& event) const {
        const ContactConstraint& c = data_.constraints[event.constraint];
        const SolverBody& a = data_.bodies[c.a];
        const SolverBody& b = data_.bodies[c.b];
        for (int k = 0; k < event.pointCount; ++k) {
            EventPoint& p = event.points[k];
            p.leaving = axisVelocity(a, b, c.normal, p.normal);
            p.slipAfter = slipAt(a, b, c, p);
        }
    }

    // The seeds of one constraint form one impact (they are in constraint order).
    void seedEvents() {
        const std::vector<ImpactSeed>& seeds = data_.impactSeeds;
        for (size_t k = 0; k < seeds.size();) {
            ImpactEvent event;
            event.constraint = seeds[k].constraint;
            const ContactConstraint& c = data_.constraints[event.constraint];
            for (; k < seeds.size() && seeds[k].constraint == event.constraint; ++k) {
                event.points[event.pointCount++] = makePoint(c, seeds[k].point, seeds[k].arrivalVelocity, true);
            }
            addEvent(event);
        }
    }

    bool touching(const ContactConstraint& c, int i) const {
        const ConstraintPoint& cp = pointOf(data_, c, i);
        return (after() ? cp.endSeparation : cp.separation) <= kTouchingDistance;
    }

    // Chains: a touching point of a body an impact moved in the last round
    // that now approaches faster than the threshold is struck in turn, with
    // that approach as its arrival speed (a cradle passes the ball along),
    // the candidates of a round in constraint order. Rounds end when no such
    // point is left; past kMaxImpactRounds the rest is left to the sub-steps'
    // rigid contacts.
    void propagate() {
        std::vector<uint32_t> candidates;
        ImpactEvent event;  // reused: most candidates strike nothing
        for (int round = 1; round <= kMaxImpactRounds && !struck_.empty(); ++round) {
            candidates.clear();
            for (const uint32_t slot : struck_) {
                candidates.insert(candidates.end(), data_.impactContacts.begin() + data_.impactContactStart[slot],
                                  data_.impactContacts.begin() + data_.impactContactStart[slot + 1]);
            }
            std::sort(candidates.begin(), candidates.end());
            candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
            struck_.clear();
            for (const uint32_t m : candidates) {
                const ContactConstraint& c = data_.constraints[m];
                event.constraint = m;
                event.pointCount = 0;
                for (int i = 0; i < c.pointCount; ++i) {
                    if (!touching(c, i)) continue;
                    const auto [rA, rB] = surfaceArms(c, pointOf(data_, c, i));
                    const ConstraintAxis normal = makeAxis(data_, c.a, c.b, rA, rB, c.normal);
                    const float approach = axisVelocity(data_.bodies[c.a], data_.bodies[c.b], c.normal, normal);
                    const float strikeBelow = wasTakenBack(m, i) ? -kStickSpeed : -rules_.threshold;
                    if (approach < strikeBelow) event.points[event.pointCount++] = makePoint(c, i, approach, false);
                }
                if (event.pointCount > 0) addEvent(event);
            }
        }
    }

    // A gap that closed in the sub-steps at a body touching others (a ball
    // rolled into a resting row): their rigid contacts passed the push along
    // at once, the row taking the arrival as one perfectly inelastic body
    // ([-0.125, -0.125, 0.5, 0.75] for a ball into a row of three, e = 1).
    // What the sub-steps applied at touching points between dynamic bodies
    // that carried no load into the step is the arrival's, so it is taken
    // back, from the seeds' bodies outwards, and the chains strike those
    // points again in turn, with their own restitution; each is struck while
    // it approaches faster than kStickSpeed, so none is left closing. Loaded
    // points (a stack's weight) and deep overlaps being pushed apart keep what
    // the sub-steps did (ContactConstraint::stillPoints): taken back too, they
    // let pile1000 creep and ten bodies spawned at one point separate slowly.
    void takeBackPassedPushes() {
        std::vector<uint32_t> reached;  // slots whose contacts are looked at, in order
        std::vector<uint8_t> isReached(data_.bodies.size(), 0);
        const auto reach = [&](uint32_t slot) {
            if (slot == 0 || isReached[slot]) return;
            isReached[slot] = 1;
            reached.push_back(slot);
        };
        for (const ImpactSeed& seed : data_.impactSeeds) {
            reach(data_.constraints[seed.constraint].a);
            reach(data_.constraints[seed.constraint].b);
        }
        for (size_t k = 0; k < reached.size(); ++k) {
            const uint32_t slot = reached[k];
            for (uint32_t n = data_.impactContactStart[slot]; n < data_.impactContactStart[slot + 1]; ++n) {
                const uint32_t m = data_.impactContacts[n];
                const ContactConstraint& c = data_.constraints[m];
                if (c.a == 0 || c.b == 0) continue;
                for (int i = 0; i < c.pointCount; ++i) {
                    ConstraintPoint& cp = pointOf(data_, c, i);
                    if ((c.stillPoints >> i & 1u) == 0 || cp.stepNormalImpulse <= 0.0f || !touching(c, i) ||
                        isSeed(m, i)) {
                        continue;
                    }
                    touch(c.a);
                    touch(c.b);
                    takeBackAt(data_, c, cp, data_.bodies[c.a], data_.bodies[c.b],
                               {cp.stepNormalImpulse, glm::dot(cp.stepFrictionImpulse, c.tangent[0]),
                                glm::dot(cp.stepFrictionImpulse, c.tangent[1])});
                    cp.stepNormalImpulse = 0.0f;
                    cp.stepFrictionImpulse = vec3(0.0f);
                    // Its last sub-step's push is taken back too: warm-started, it would push again.
                    cp.normalImpulse = 0.0f;
                    cp.tangentImpulse[0] = cp.tangentImpulse[1] = 0.0f;
                    takenBack_.push_back(pointKey(m, i));
                    reach(c.a);
                    reach(c.b);
                }
            }
        }
        std::sort(takenBack_.begin(), takenBack_.end());
    }

    static uint64_t pointKey(uint32_t constraint, int point) { return uint64_t(constraint) << 8 | uint64_t(point); }
    bool wasTakenBack(uint32_t constraint, int point) const {
        return std::binary_search(takenBack_.begin(), takenBack_.end(), pointKey(constraint, point));
    }
    bool isSeed(uint32_t constraint, int point) const {
        const std::vector<ImpactSeed>& seeds = data_.impactSeeds;
        auto it = std::lower_bound(seeds.begin(), seeds.end(), constraint,
                                   [](const ImpactSeed& s, uint32_t m) { return s.constraint < m; });
        for (; it != seeds.end() && it->constraint == constraint; ++it) {
            if (it->point == point) return true;
        }
        return false;
    }

    // The constraints of each dynamic slot (counting sort), for the chains.
    void listContactsBySlot() {
        std::vector<uint32_t>& start = data_.impactContactStart;
        std::vector<uint32_t>& contacts = data_.impactContacts;
        start.assign(data_.bodies.size() + 1, 0);
        for (const ContactConstraint& c : data_.constraints) {
            ++start[c.a + 1];
            ++start[c.b + 1];
        }
        for (size_t slot = 0; slot + 1 < start.size(); ++slot) start[slot + 1] += start[slot];
        contacts.resize(start.back());
        std::vector<uint32_t> fill(start.begin(), start.end() - 1);
        for (size_t m = 0; m < data_.constraints.size(); ++m) {
            contacts[fill[data_.constraints[m].a]++] = uint32_t(m);
            contacts[fill[data_.constraints[m].b]++] = uint32_t(m);
        }
    }

    void limitEnergy() {
        ImpactGroups groups(data_, bodies_, moved_);
        for (const ImpactEvent& event : events_) {
            groups.join(data_.constraints[event.constraint].a, data_.constraints[event.constraint].b);
        }
        for (const uint64_t key : takenBack_) {
            const ContactConstraint& c = data_.constraints[uint32_t(key >> 8)];
            groups.join(c.a, c.b);
        }
        groups.close();
        const std::vector<SlotMotion> elastic = groups.motions();
        std::vector<double> allowed = groups.kineticEnergy(before_);
        if (after()) {
            // What the group began the step with (plus gravity's work since),
            // or what the sub-steps left it if that is more (bodies outside
            // the group may have pushed it).
            const std::vector<double> start = groups.startEnergy(rules_.gravity);
            for (size_t g = 0; g < allowed.size(); ++g) allowed[g] = std::max(allowed[g], start[g]);
        }
        std::vector<uint8_t> gained = groups.gains(elastic, allowed);
        const uint32_t draggedGroup = after() ? groups.groupOf(rules_.draggedSlot) : ImpactGroups::kOutside;
        if (draggedGroup != ImpactGroups::kOutside) gained[draggedGroup] = 0;
        if (std::none_of(gained.begin(), gained.end(), [](uint8_t g) { return g != 0; })) return;

        // The gaining groups' impacts again, in the same order from the same
        // start, perfectly inelastic.
        groups.set(before_, gained);
        std::vector<ImpactEvent> elasticEvents = events_;
        for (ImpactEvent& event : events_) {
            if (!gained[groups.groupOf(data_.constraints[event.constraint])]) continue;
            for (int k = 0; k < event.pointCount; ++k) {
                EventPoint& p = event.points[k];
                p.normalImpulse = p.startNormal;
                p.tangentImpulse[0] = p.startTangent[0];
                p.tangentImpulse[1] = p.startTangent[1];
            }
            solveEvent(data_, event, 0.0f);
            measureLeaving(event);
        }
        const std::vector<SlotMotion> inelastic = groups.motions();
        groups.set(elastic, gained);
        const std::vector<float> scale = groups.scales(inelastic, elastic, allowed, gained);
        groups.blend(inelastic, elastic, scale);
        for (size_t e = 0; e < events_.size(); ++e) {
            ImpactEvent& event = events_[e];
            const float s = scale[groups.groupOf(data_.constraints[event.constraint])];
            if (s >= 1.0f) continue;
            for (int k = 0; k < event.pointCount; ++k) {
                EventPoint& p = event.points[k];
                const EventPoint& elasticPoint = elasticEvents[e].points[k];
                p.normalImpulse += s * (elasticPoint.normalImpulse - p.normalImpulse);
                p.tangentImpulse[0] += s * (elasticPoint.tangentImpulse[0] - p.tangentImpulse[0]);
                p.tangentImpulse[1] += s * (elasticPoint.tangentImpulse[1] - p.tangentImpulse[1]);
                p.leaving += s * (elasticPoint.leaving - p.leaving);
                p.slipAfter += s * (elasticPoint.slipAfter - p.slipAfter);
                // A single frictionless point leaves at s times its Newton
                // target: the effective restitution the inspector shows.
                p.target *= s;
            }
        }
    }

    void commit() {
        for (const ImpactEvent& event : events_) {
            const ContactConstraint& c = data_.constraints[event.constraint];
            for (int k = 0; k < event.pointCount; ++k) {
                const EventPoint& p = event.points[k];
                ConstraintPoint& cp = pointOf(data_, c, p.point);
                const vec3 friction = p.tangentImpulse[0] * c.tangent[0] + p.tangentImpulse[1] * c.tangent[1];
                const vec3 startFriction = p.startTangent[0] * c.tangent[0] + p.startTangent[1] * c.tangent[1];
                cp.stepNormalImpulse += p.normalImpulse - p.startNormal;
                cp.stepFrictionImpulse += friction - startFriction;
                cp.impactNormalImpulse += p.normalImpulse;
                cp.impactFrictionImpulse += friction;
                cp.impactSticking = p.sticking;
                cp.restitutionTarget = p.target;
                float energyLost = p.normal.mass * (p.arrival * p.arrival - p.leaving * p.leaving);
                for (int t = 0; t < 2; ++t) {
                    const float before = glm::dot(p.slipBefore, c.tangent[t]);
                    const float after = glm::dot(p.slipAfter, c.tangent[t]);
                    energyLost += p.tangent[t].mass * (before * before - after * after);
                }
                data_.impactMeasures.push_back({event.constraint, p.point, p.arrival, p.leaving, p.slipBefore,
                                                p.slipAfter, 0.5f * energyLost});
                // A bounce starts the next pass cold (see resolveImpacts); a
                // landing too slow to bounce keeps its warm start, the load the
                // sub-steps found (cold, a light rod under a heavy plate was
                // pressed 16 cm into the ground in the soak).
                if (after() && p.arrival < -rules_.threshold) {
                    cp.normalImpulse = 0.0f;
                    cp.tangentImpulse[0] = cp.tangentImpulse[1] = 0.0f;
                }
            }
        }
    }

    ContactSolverData& data_;
    const std::vector<Body>& bodies_;
    const ImpactRules& rules_;
    std::vector<ImpactEvent> events_;
    std::vector<uint64_t> takenBack_;  ///< pointKey of each point takeBackPassedPushes took back, ascending
    std::vector<uint32_t> moved_;     ///< slots an impact moved, in the order first moved
    std::vector<uint32_t> struck_;    ///< slots an impact moved in the current round (repeats allowed)
    std::vector<SlotMotion> before_;  ///< their velocities before the stage, parallel
};

}  // namespace

float impactSpeed(float restitutionThreshold, const vec3& gravity, float dt) {
    return std::min(restitutionThreshold, std::max(2.0f * glm::length(gravity) * dt, kStickSpeed));
}

void findArrivals(ContactSolverData& data, float impactSpeed) {
    data.impactSeeds.clear();
    for (const uint32_t m : data.mayImpactConstraints) {
        const ContactConstraint& c = data.constraints[m];
        for (int i = 0; i < c.pointCount; ++i) {
            const ConstraintPoint& p = pointOf(data, c, i);
            // Pushed this step, after arriving faster than the impact speed.
            if ((c.mayImpactPoints >> i & 1u) == 0 || p.stepNormalImpulse <= 0.0f) continue;
            if (p.arrivalVelocity < -impactSpeed) data.impactSeeds.push_back({m, i, p.arrivalVelocity});
        }
    }
}

void resolveImpacts(ContactSolverData& data, const std::vector<Body>& bodies, const ImpactRules& rules) {
    if (data.impactSeeds.empty()) return;
    ImpactStageRun(data, bodies, rules).run();
}

}  // namespace impulse
