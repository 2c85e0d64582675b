#include "app/momenta_diagram.h"

#include <algorithm>
#include <cmath>

namespace impulse::app {

namespace {

MomentumArrow& append(MomentaChain& chain, BodyId body, std::string name, const glm::dvec3& value) {
    MomentumArrow& arrow = chain.arrows.emplace_back();
    arrow.body = body;
    arrow.name = std::move(name);
    arrow.tail = chain.total;
    arrow.tip = chain.total + value;
    chain.total = arrow.tip;
    return arrow;
}

/// The momenta of `motions` (those in `bodies`, or all when that is empty) as a chain,
/// angular ones about `centre`.
MomentaChain chainOf(const World& world, const std::vector<BodyMomentum>& motions, const std::vector<BodyId>& bodies,
                     MomentaQuantity quantity, const glm::dvec3& centre) {
    MomentaChain chain;
    for (const BodyMomentum& m : motions) {
        if (!bodies.empty() && std::find(bodies.begin(), bodies.end(), m.body) == bodies.end()) continue;
        const glm::dvec3 momentum = double(m.mass) * glm::dvec3(m.velocity);
        const glm::dvec3 value = quantity == MomentaQuantity::Linear
                                     ? momentum
                                     : glm::cross(glm::dvec3(m.position) - centre, momentum) + glm::dvec3(m.spin);
        append(chain, m.body, world.isValid(m.body) ? world.body(m.body).name : "(deleted)", value);
    }
    return chain;
}

/// The centre of mass of `motions` (those in `bodies`, or all), m.
glm::dvec3 centreOf(const std::vector<BodyMomentum>& motions, const std::vector<BodyId>& bodies) {
    double mass = 0.0;
    glm::dvec3 moment(0.0);
    for (const BodyMomentum& m : motions) {
        if (!bodies.empty() && std::find(bodies.begin(), bodies.end(), m.body) == bodies.end()) continue;
        mass += m.mass;
        moment += double(m.mass) * glm::dvec3(m.position);
    }
    return mass > 0.0 ? moment / mass : glm::dvec3(0.0);
}

}  // namespace

MomentaDiagram momentaDiagram(const World& world, const ImpactBookkeeping* impact, const std::vector<BodyId>& bodies,
                              MomentaQuantity quantity) {
    MomentaDiagram diagram;
    diagram.impact = impact;
    const std::vector<BodyMomentum> now = impact ? std::vector<BodyMomentum>{} : dynamicBodiesMotion(world);
    const std::vector<BodyMomentum>& after = impact ? impact->bodiesAfter : now;
    const std::vector<BodyMomentum>& before = impact ? impact->bodiesBefore : now;
    // One centre for both: taken after the impact (the step moves it by V dt; the
    // system's L about its moving centre is the same either way for free bodies).
    diagram.centre = centreOf(after, bodies);
    diagram.after = chainOf(world, after, bodies, quantity, diagram.centre);
    diagram.before = chainOf(world, before, bodies, quantity, centreOf(before, bodies));
    if (impact && bodies.empty()) diagram.bodiesLeftOut = impact->bodiesLeftOut;
    for (BodyId id : bodies) {
        const bool dynamic = world.isValid(id) && world.body(id).isDynamic();
        const bool kept = std::any_of(after.begin(), after.end(), [id](const BodyMomentum& m) { return m.body == id; });
        if (dynamic && !kept) ++diagram.bodiesLeftOut;
    }
    return diagram;
}

PlaneAxes planeAxes(MomentaPlane plane) {
    switch (plane) {
    case MomentaPlane::XY:
        return PlaneAxes{0, 1, 1.0, "x-y", "seen from the front (+z toward you)"};
    case MomentaPlane::ZY:
        return PlaneAxes{2, 1, 1.0, "z-y", "seen from -x"};
    case MomentaPlane::XZ:
    default:
        return PlaneAxes{0, 2, -1.0, "x-z", "seen from above (+y toward you)"};
    }
}

MomentaPlane readablePlane(const MomentaDiagram& diagram) {
    glm::dvec3 spread(0.0);
    for (const MomentaChain* chain : {&diagram.before, &diagram.after}) {
        for (const MomentumArrow& a : chain->arrows) spread += glm::abs(a.value());
    }
    if (spread.y <= spread.x && spread.y <= spread.z) return MomentaPlane::XZ;
    return spread.z <= spread.x ? MomentaPlane::XY : MomentaPlane::ZY;
}

glm::dvec2 projectOnPlane(const glm::dvec3& v, const PlaneAxes& axes) {
    return glm::dvec2(v[axes.right], axes.upSign * v[axes.up]);
}

DiagramScale fitDiagram(const MomentaDiagram& diagram, const PlaneAxes& axes, double width, double height,
                        double margin) {
    glm::dvec2 low(0.0), high(0.0);  // the origin is always in the box
    for (const MomentaChain* chain : {&diagram.before, &diagram.after}) {
        for (const MomentumArrow& a : chain->arrows) {
            const glm::dvec2 tip = projectOnPlane(a.tip, axes);
            low = glm::min(low, tip);
            high = glm::max(high, tip);
        }
    }
    const glm::dvec2 room(std::max(width - 2.0 * margin, 1.0), std::max(height - 2.0 * margin, 1.0));
    // Nothing moving: a unit square around the origin, so the scale bar still reads.
    if (low == high) {
        low = glm::dvec2(-0.5);
        high = glm::dvec2(0.5);
    }
    const glm::dvec2 extent = high - low;
    DiagramScale scale;
    scale.pixelsPerUnit = std::min(extent.x > 0.0 ? room.x / extent.x : INFINITY, extent.y > 0.0 ? room.y / extent.y : INFINITY);
    // Centred: screen y grows downward, the plane's up upward.
    scale.origin.x = margin + 0.5 * (room.x - extent.x * scale.pixelsPerUnit) - low.x * scale.pixelsPerUnit;
    scale.origin.y = margin + 0.5 * (room.y - extent.y * scale.pixelsPerUnit) + high.y * scale.pixelsPerUnit;
    // The bar: the largest 1, 2 or 5 x 10^k at most 40 % of the width.
    const double most = 0.4 * room.x / scale.pixelsPerUnit;
    const double decade = std::pow(10.0, std::floor(std::log10(most)));
    scale.barValue = most >= 5.0 * decade ? 5.0 * decade : most >= 2.0 * decade ? 2.0 * decade : decade;
    scale.barPixels = scale.barValue * scale.pixelsPerUnit;
    return scale;
}

glm::dvec2 commonLine(const MomentaDiagram& diagram, const PlaneAxes& axes, const DiagramScale& scale,
                      double tolerance) {
    glm::dvec2 along(0.0);
    for (const MomentaChain* chain : {&diagram.before, &diagram.after}) {
        for (const MomentumArrow& a : chain->arrows) {
            const glm::dvec2 value = projectOnPlane(a.value(), axes) * scale.pixelsPerUnit;
            if (glm::length(value) > glm::length(along)) along = value;
        }
    }
    if (glm::length(along) < tolerance) return glm::dvec2(0.0);
    along = glm::normalize(along);
    for (const MomentaChain* chain : {&diagram.before, &diagram.after}) {
        for (const MomentumArrow& a : chain->arrows) {
            const glm::dvec2 tip = projectOnPlane(a.tip, axes) * scale.pixelsPerUnit;
            if (std::fabs(along.x * tip.y - along.y * tip.x) > tolerance) return glm::dvec2(0.0);
        }
    }
    return along;
}

}  // namespace impulse::app
