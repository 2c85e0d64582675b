// What World answers without changing anything: ray casts, the bodies outside
// the bounds, the contact
// inspector's points, energies and momenta, and the non-finite guard's check.
#include "physics/world.h"

#include "physics/constants.h"
#include "physics/world_internals.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace impulse {

std::vector<BodyId> World::bodiesOutsideBounds() const {
    const WorldBounds& bounds = settings_.bounds;
    std::vector<BodyId> outside;
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive() || body.isStatic) continue;
        const vec3& p = body.position;
        // Written so that a non-finite position counts as outside.
        const bool inside = p.x >= bounds.min.x && p.x <= bounds.max.x && p.y >= bounds.min.y &&
                            p.y <= bounds.max.y && p.z >= bounds.min.z && p.z <= bounds.max.z;
        if (!inside) outside.push_back(idOf(i));
    }
    return outside;
}

std::optional<RayHit> World::rayCast(const vec3& origin, const vec3& direction, float maxDistance) const {
    const float length = glm::length(direction);
    if (!isFinite(origin) || !isFinite(direction) || !(length > 0.0f)) return std::nullopt;
    const vec3 dir = direction / length;
    std::optional<RayHit> best;
    float bestDistance = maxDistance;
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        const std::optional<ShapeRayHit> hit = rayCastShape(body.shape, body.position, body.orientation, origin, dir);
        if (hit && hit->distance <= bestDistance) {
            bestDistance = hit->distance;
            best = RayHit{idOf(i), origin + hit->distance * dir, hit->normal, hit->distance};
        }
    }
    return best;
}

ContactPointInfo World::contactInfo(const ContactManifold& manifold, const ContactReport& report, int i) const {
    const Body& a = bodies_[manifold.a];
    const Body& b = bodies_[manifold.b];
    const ContactPoint& point = manifold.points[i];
    const ContactPointReport& pointReport = report.points[i];
    ContactPointInfo info;
    info.bodyA = idOf(manifold.a);
    info.bodyB = idOf(manifold.b);
    info.point = point.point;
    info.normal = manifold.normal;
    info.rA = pointReport.rA;
    info.rB = pointReport.rB;
    info.separation = point.separation;
    info.featureId = point.id;
    info.inverseMassA = a.inverseMass;
    info.inverseMassB = b.inverseMass;
    const EffectiveMassTerms terms = effectiveMassTerms(manifold, pointReport, a, b);
    info.angularTermA = terms.angularTermA;
    info.angularTermB = terms.angularTermB;
    info.normalMass = terms.normalMass;
    info.tangentMass[0] = terms.tangentMass[0];
    info.tangentMass[1] = terms.tangentMass[1];
    info.tangent[0] = manifold.tangent[0];
    info.tangent[1] = manifold.tangent[1];
    info.normalVelocityBefore = point.normalVelocityBefore;
    info.normalVelocityAfter = pointReport.normalVelocityAfter;
    info.targetNormalVelocity = pointReport.targetVelocity;
    info.restitution = manifold.restitution;
    info.friction = manifold.friction;
    info.staticFriction = manifold.staticFriction;
    info.normalImpulse = pointReport.stepNormalImpulse;
    info.frictionImpulse = pointReport.stepFrictionImpulse;
    info.frictionBound = pointReport.frictionBound;
    info.sticking = point.sticking;
    info.impactNormalImpulse = pointReport.impactNormalImpulse;
    info.impactFrictionImpulse = pointReport.impactFrictionImpulse;
    info.impactSticking = pointReport.impactSticking;
    info.warmStarted = point.warmStarted;
    return info;
}

std::vector<ContactPointInfo> World::contacts() const {
    std::vector<ContactPointInfo> result;
    // The app asks every frame (thousands of points in a pile): one allocation, not a doubling series.
    size_t pointCount = 0;
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (const ContactManifold& manifold : list->manifolds) pointCount += size_t(manifold.pointCount);
    }
    result.reserve(pointCount);
    // Sleeping islands' contacts too: they hold what they held when the island fell asleep.
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (size_t m = 0; m < list->manifolds.size(); ++m) {
            for (int i = 0; i < list->manifolds[m].pointCount; ++i) {
                result.push_back(contactInfo(list->manifolds[m], list->reports[m], i));
            }
        }
    }
    return result;
}

size_t World::contactPointCount() const {
    size_t count = 0;
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (const ContactManifold& manifold : list->manifolds) count += size_t(manifold.pointCount);
    }
    return count;
}

ContactPointInfo World::contactPoint(size_t index) const {
    size_t first = 0;  // contacts()'s index of the manifold's first point
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (size_t m = 0; m < list->manifolds.size(); ++m) {
            const size_t count = size_t(list->manifolds[m].pointCount);
            if (index < first + count) return contactInfo(list->manifolds[m], list->reports[m], int(index - first));
            first += count;
        }
    }
    assert(false && "contactPoint: index past contactPointCount()");
    return ContactPointInfo{};
}

std::vector<size_t> World::contactIndicesOf(BodyId body) const {
    std::vector<size_t> indices;
    if (!isValid(body)) return indices;
    size_t first = 0;
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (const ContactManifold& manifold : list->manifolds) {
            if (manifold.a == body.index || manifold.b == body.index) {
                for (int i = 0; i < manifold.pointCount; ++i) indices.push_back(first + size_t(i));
            }
            first += size_t(manifold.pointCount);
        }
    }
    return indices;
}

const std::vector<ContactPointInfo>& World::impacts() const { return internals_->stepImpacts; }

float World::contactNormalImpulse(BodyId id) const {
    float total = 0.0f;
    if (!isValid(id)) return total;
    for (const ContactList* list : {&internals_->contacts, &internals_->sleepingContacts}) {
        for (size_t m = 0; m < list->manifolds.size(); ++m) {
            const ContactManifold& manifold = list->manifolds[m];
            if (manifold.a != id.index && manifold.b != id.index) continue;
            for (int i = 0; i < manifold.pointCount; ++i) total += list->reports[m].points[i].stepNormalImpulse;
        }
    }
    return total;
}

double World::kineticEnergy() const {
    double energy = 0.0;
    for (const Body& body : bodies_) {
        if (body.isAlive()) energy += body.kineticEnergy();
    }
    return energy;
}

double World::potentialEnergy() const {
    double energy = 0.0;
    const glm::dvec3 g(settings_.gravity);
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) energy -= body.mass * glm::dot(g, glm::dvec3(body.position));
    }
    return energy;
}

glm::dvec3 World::linearMomentum() const {
    glm::dvec3 momentum(0.0);
    for (const Body& body : bodies_) {
        if (body.isAlive() && body.isDynamic()) momentum += double(body.mass) * glm::dvec3(body.linearVelocity);
    }
    return momentum;
}

glm::dvec3 World::angularMomentum() const {
    glm::dvec3 momentum(0.0);
    for (const Body& body : bodies_) {
        if (!body.isAlive() || body.isStatic) continue;
        momentum += glm::cross(glm::dvec3(body.position), double(body.mass) * glm::dvec3(body.linearVelocity)) +
                    body.spinAngularMomentum();
    }
    return momentum;
}

BodyId World::firstNonFiniteBody() const {
    for (uint32_t i = 0; i < bodies_.size(); ++i) {
        const Body& body = bodies_[i];
        if (!body.isAlive()) continue;
        const bool finite = isFinite(body.position) && isFinite(body.orientation) && isFinite(body.linearVelocity) &&
                            isFinite(body.angularVelocity);
        // Compared without sqrt so an overflowing square also counts as blown up.
        const bool blownUp = glm::dot(body.position, body.position) > kBlownUpPosition * kBlownUpPosition ||
                             glm::dot(body.linearVelocity, body.linearVelocity) > kBlownUpSpeed * kBlownUpSpeed;
        if (!finite || blownUp) return idOf(i);
    }
    return BodyId{};
}

}  // namespace impulse
