#include "physics/contact.h"

#include "physics/constants.h"
#include "physics/prefetch.h"
#include "physics/solver_data.h"

namespace impulse {

EffectiveMassTerms effectiveMassTerms(const ContactManifold& manifold, const ContactPointReport& p, const Body& a,
                                      const Body& b) {
    EffectiveMassTerms terms;
    terms.angularTermA = angularTerm(a.inverseInertiaWorld, p.rA, manifold.normal);
    terms.angularTermB = angularTerm(b.inverseInertiaWorld, p.rB, manifold.normal);
    const auto mass = [&](float angularA, float angularB) {
        const float k = a.inverseMass + b.inverseMass + angularA + angularB;
        return k > 0.0f ? 1.0f / k : 0.0f;
    };
    terms.normalMass = mass(terms.angularTermA, terms.angularTermB);
    for (int t = 0; t < 2; ++t) {
        const vec3& d = manifold.tangent[t];
        terms.tangentMass[t] =
            mass(angularTerm(a.inverseInertiaWorld, p.rA, d), angularTerm(b.inverseInertiaWorld, p.rB, d));
    }
    return terms;
}

void initManifold(ContactManifold& out, const Manifold& manifold, const ContactManifold* previous,
                  bool warmStarting) {
    out.normal = manifold.normal;
    out.pointCount = manifold.pointCount;
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& source = manifold.points[i];
        ContactPoint& point = out.points[i];
        point = ContactPoint{};
        point.id = source.id;
        point.point = source.point;
        point.separation = source.separation;
        if (previous == nullptr) continue;
        const ContactPoint* match = nullptr;
        for (int k = 0; k < previous->pointCount && match == nullptr; ++k) {
            if (previous->points[k].id == source.id) match = &previous->points[k];
        }
        // A reference-face switch renames every feature; the same physical
        // point is then still found by proximity.
        for (int k = 0; k < previous->pointCount && match == nullptr; ++k) {
            const vec3 offset = previous->points[k].point - source.point;
            if (glm::dot(offset, offset) < kContactMatchDistance * kContactMatchDistance) match = &previous->points[k];
        }
        if (match == nullptr || !warmStarting) continue;
        point.normalImpulse = match->normalImpulse;
        // Keep only the part of last step's friction that lies in today's tangent plane.
        point.frictionImpulse = match->frictionImpulse - glm::dot(match->frictionImpulse, out.normal) * out.normal;
        point.warmStarted = true;
    }
}

void finishContacts(ContactSolverData& data, std::vector<ContactManifold>& manifolds,
                    std::vector<ContactReport>& reports, std::vector<Body>& bodies) {
    for (size_t slot = 1; slot < data.bodies.size(); ++slot) {
        if (slot + kPrefetchRecordsAhead < data.bodies.size()) {
            prefetchBody(bodies[data.bodyOfSlot[slot + kPrefetchRecordsAhead]]);
        }
        const SolverBody& solverBody = data.bodies[slot];
        Body& body = bodies[data.bodyOfSlot[slot]];
        body.linearVelocity = solverBody.linearVelocity;
        body.angularVelocity = solverBody.angularVelocity;
        body.position += solverBody.deltaPosition;
        body.orientation = solverBody.orientation;
        body.spinClamped = body.spinClamped || solverBody.spinClamped != 0.0f;
        body.updateWorldInertia();
    }
    reports.resize(manifolds.size());
    for (size_t m = 0; m < manifolds.size(); ++m) {
        prefetchAheadForWrite(manifolds, m);
        prefetchAhead(data.constraints, m);
        prefetchAheadForWrite(reports, m);
        ContactManifold& manifold = manifolds[m];
        const ContactConstraint& c = data.constraints[m];
        const SolverBody& a = data.bodies[c.a];
        const SolverBody& b = data.bodies[c.b];
        for (int i = 0; i < manifold.pointCount; ++i) {
            ContactPoint& point = manifold.points[i];
            ContactPointReport& report = reports[m].points[i];
            const ConstraintPoint& p = pointOf(data, c, i);
            point.normalImpulse = p.normalImpulse;
            point.frictionImpulse = p.tangentImpulse[0] * c.tangent[0] + p.tangentImpulse[1] * c.tangent[1];
            report.stepNormalImpulse = p.stepNormalImpulse;
            report.stepFrictionImpulse = p.stepFrictionImpulse;
            // At the points' offsets from the start of the step, as the solver saw them.
            report.rA = p.rA;
            report.rB = p.rB;
            const auto [rA, rB] = surfaceArms(c, p);
            const vec3 velocity = (b.linearVelocity + glm::cross(b.angularVelocity, rB)) -
                                  (a.linearVelocity + glm::cross(a.angularVelocity, rA));
            report.normalVelocityAfter = glm::dot(velocity, c.normal);
            report.targetVelocity = p.restitutionTarget;
            // Friction held the point if it pushed and ends the step not sliding.
            const float slip0 = glm::dot(velocity, c.tangent[0]);
            const float slip1 = glm::dot(velocity, c.tangent[1]);
            point.sticking = p.stepNormalImpulse > 0.0f && slip0 * slip0 + slip1 * slip1 < kStickSpeed * kStickSpeed;
            report.frictionBound = (point.sticking ? c.staticFriction : c.friction) * p.stepNormalImpulse;
            report.impactNormalImpulse = p.impactNormalImpulse;
            report.impactFrictionImpulse = p.impactFrictionImpulse;
            report.impactSticking = p.impactSticking;
        }
    }
}

}  // namespace impulse
