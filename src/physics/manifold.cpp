// Narrowphase. Box-box follows the classic separating-axis test over 15 axes
// (Gottschalk's OBB test) with Sutherland-Hodgman clipping of the incident face
// against the reference face's side planes (as in qu3e and Box2D v3).
#include "physics/manifold.h"

#include "physics/constants.h"

#include <cfloat>
#include <cmath>

namespace impulse {
namespace {

Manifold flipped(Manifold m) {
    m.normal = -m.normal;
    return m;
}

// Feature-id layout for box-box points.
constexpr uint32_t kEdgeContactBit = 1u << 13;
constexpr uint32_t kReferenceIsBBit = 1u << 12;

// A vertex of the clipped incident face and the two lines meeting there:
// codes 0-3 are incident face edges, 4-7 the reference face's side planes.
// The pair (inLine, outLine) names the vertex independently of the pose.
struct ClipVertex {
    vec3 position;
    uint8_t inLine;
    uint8_t outLine;
};

int clipAgainstPlane(const ClipVertex* input, int count, const vec3& planeNormal, float planeOffset, uint8_t code,
                     ClipVertex* output) {
    int outCount = 0;
    for (int i = 0; i < count; ++i) {
        const ClipVertex& p = input[i];
        const ClipVertex& q = input[(i + 1) % count];
        const float dp = glm::dot(planeNormal, p.position) - planeOffset;
        const float dq = glm::dot(planeNormal, q.position) - planeOffset;
        if (dp <= 0.0f) output[outCount++] = p;
        if ((dp <= 0.0f) != (dq <= 0.0f)) {
            const float t = dp / (dp - dq);
            ClipVertex crossing;
            crossing.position = p.position + t * (q.position - p.position);
            // Leaving the half-space the polygon continues along the plane;
            // entering it, along the segment's own line.
            crossing.inLine = dp <= 0.0f ? p.outLine : code;
            crossing.outLine = dp <= 0.0f ? code : p.outLine;
            output[outCount++] = crossing;
        }
    }
    return outCount;
}

// Keeps 4 of more than 4 points: the deepest, the one farthest from it, and the
// two spanning the largest area on either side of that diagonal.
void reduceToFour(const vec3 positions[], const float separations[], int count, const vec3& normal, int chosen[4]) {
    int deepest = 0;
    for (int i = 1; i < count; ++i) {
        if (separations[i] < separations[deepest]) deepest = i;
    }
    int farthest = deepest == 0 ? 1 : 0;
    float farthestDistance = -1.0f;
    for (int i = 0; i < count; ++i) {
        const vec3 d = positions[i] - positions[deepest];
        const float distance = glm::dot(d, d);
        if (i != deepest && distance > farthestDistance) {
            farthestDistance = distance;
            farthest = i;
        }
    }
    int maxSide = -1, minSide = -1;
    float maxArea = 0.0f, minArea = 0.0f;
    const vec3 diagonal = positions[farthest] - positions[deepest];
    for (int i = 0; i < count; ++i) {
        if (i == deepest || i == farthest) continue;
        const float area = glm::dot(glm::cross(diagonal, positions[i] - positions[deepest]), normal);
        if (maxSide < 0 || area > maxArea) {
            maxArea = area;
            maxSide = i;
        }
        if (minSide < 0 || area < minArea) {
            minArea = area;
            minSide = i;
        }
    }
    if (minSide == maxSide) {
        // All remaining points collinear with the diagonal: take any other one.
        for (int i = 0; i < count; ++i) {
            if (i != deepest && i != farthest && i != maxSide) {
                minSide = i;
                break;
            }
        }
    }
    chosen[0] = deepest;
    chosen[1] = farthest;
    chosen[2] = maxSide;
    chosen[3] = minSide;
}

struct FaceQuery {
    float separation = -FLT_MAX;
    int axis = 0;
};

struct EdgeQuery {
    float separation = -FLT_MAX;
    int axisA = -1, axisB = -1;
    vec3 normal{0.0f};  // from A to B
};

Manifold faceContact(const ShapePose& reference, const ShapePose& incident, int referenceAxis, bool referenceIsB,
                     float margin) {
    const vec3& hRef = reference.shape->halfExtents;
    const vec3& hInc = incident.shape->halfExtents;
    const vec3 toIncident = incident.position - reference.position;
    const vec3 refAxis = reference.rotation[referenceAxis];
    const bool refPositive = glm::dot(toIncident, refAxis) >= 0.0f;
    const vec3 faceNormal = refPositive ? refAxis : -refAxis;

    // Incident face: the face of the other box most opposed to the reference normal.
    int incAxis = 0;
    float bestAlignment = -1.0f;
    for (int k = 0; k < 3; ++k) {
        const float alignment = std::fabs(glm::dot(incident.rotation[k], faceNormal));
        if (alignment > bestAlignment) {
            bestAlignment = alignment;
            incAxis = k;
        }
    }
    const bool incPositive = glm::dot(incident.rotation[incAxis], faceNormal) < 0.0f;
    const vec3 incNormal = incPositive ? incident.rotation[incAxis] : -incident.rotation[incAxis];
    const vec3 incCentre = incident.position + incNormal * hInc[incAxis];
    const vec3 u = incident.rotation[(incAxis + 1) % 3] * hInc[(incAxis + 1) % 3];
    const vec3 v = incident.rotation[(incAxis + 2) % 3] * hInc[(incAxis + 2) % 3];

    ClipVertex polygon[8];
    const vec3 corners[4] = {incCentre + u + v, incCentre - u + v, incCentre - u - v, incCentre + u - v};
    for (int i = 0; i < 4; ++i) {
        polygon[i] = ClipVertex{corners[i], static_cast<uint8_t>((i + 3) % 4), static_cast<uint8_t>(i)};
    }
    int count = 4;
    ClipVertex scratch[8];
    uint8_t code = 4;
    for (int side = 1; side <= 2; ++side) {
        const int sideAxis = (referenceAxis + side) % 3;
        const vec3 sideNormal = reference.rotation[sideAxis];
        const float centreOffset = glm::dot(sideNormal, reference.position);
        count = clipAgainstPlane(polygon, count, sideNormal, centreOffset + hRef[sideAxis], code++, scratch);
        count = clipAgainstPlane(scratch, count, -sideNormal, -centreOffset + hRef[sideAxis], code++, polygon);
        if (count == 0) return Manifold{};
    }

    const vec3 faceCentre = reference.position + faceNormal * hRef[referenceAxis];
    vec3 positions[8];
    float separations[8];
    uint32_t ids[8];
    int kept = 0;
    const uint32_t faceBits = (referenceIsB ? kReferenceIsBBit : 0u) |
                              (uint32_t(referenceAxis * 2 + (refPositive ? 1 : 0)) << 9) |
                              (uint32_t(incAxis * 2 + (incPositive ? 1 : 0)) << 6);
    for (int i = 0; i < count; ++i) {
        const float separation = glm::dot(polygon[i].position - faceCentre, faceNormal);
        if (separation > margin) continue;
        positions[kept] = polygon[i].position - (0.5f * separation) * faceNormal;
        separations[kept] = separation;
        ids[kept] = faceBits | uint32_t(polygon[i].inLine * 8 + polygon[i].outLine);
        ++kept;
    }

    Manifold manifold;
    manifold.normal = referenceIsB ? -faceNormal : faceNormal;
    if (kept <= kMaxManifoldPoints) {
        for (int i = 0; i < kept; ++i) manifold.points[i] = ManifoldPoint{positions[i], separations[i], ids[i]};
        manifold.pointCount = kept;
    } else {
        int chosen[4];
        reduceToFour(positions, separations, kept, faceNormal, chosen);
        for (int i = 0; i < 4; ++i) {
            manifold.points[i] = ManifoldPoint{positions[chosen[i]], separations[chosen[i]], ids[chosen[i]]};
        }
        manifold.pointCount = 4;
    }
    return manifold;
}

Manifold edgeContact(const ShapePose& a, const ShapePose& b, const EdgeQuery& query, float margin) {
    const vec3& hA = a.shape->halfExtents;
    const vec3& hB = b.shape->halfExtents;
    const vec3& n = query.normal;
    // The supporting edges: A's farthest along n, B's farthest along -n.
    vec3 edgeCentreA = a.position, edgeCentreB = b.position;
    uint32_t signBits = 0;
    for (int k = 0; k < 3; ++k) {
        if (k != query.axisA) {
            const bool positive = glm::dot(a.rotation[k], n) > 0.0f;
            edgeCentreA += a.rotation[k] * (positive ? hA[k] : -hA[k]);
            signBits |= (positive ? 1u : 0u) << k;
        }
        if (k != query.axisB) {
            const bool positive = glm::dot(b.rotation[k], n) < 0.0f;
            edgeCentreB += b.rotation[k] * (positive ? hB[k] : -hB[k]);
            signBits |= (positive ? 1u : 0u) << (3 + k);
        }
    }
    const vec3 dirA = a.rotation[query.axisA];
    const vec3 dirB = b.rotation[query.axisB];
    // Closest points of the two edge lines, clamped to the edges.
    const vec3 w = edgeCentreA - edgeCentreB;
    const float cosine = glm::dot(dirA, dirB);
    const float d = glm::dot(dirA, w);
    const float e = glm::dot(dirB, w);
    const float denominator = 1.0f - cosine * cosine;  // > 0: parallel edges never reach here
    float s = (cosine * e - d) / denominator;
    float t = (e - cosine * d) / denominator;
    s = glm::clamp(s, -hA[query.axisA], hA[query.axisA]);
    t = glm::clamp(t, -hB[query.axisB], hB[query.axisB]);
    const vec3 pointA = edgeCentreA + s * dirA;
    const vec3 pointB = edgeCentreB + t * dirB;
    const float separation = glm::dot(pointB - pointA, n);
    Manifold manifold;
    if (separation > margin) return manifold;
    manifold.normal = n;
    manifold.pointCount = 1;
    manifold.points[0] = ManifoldPoint{0.5f * (pointA + pointB), separation,
                                       kEdgeContactBit | uint32_t(query.axisA * 3 + query.axisB) << 6 | signBits};
    return manifold;
}

}  // namespace

Manifold collideSpheres(const ShapePose& a, const ShapePose& b, float margin) {
    Manifold manifold;
    const vec3 d = b.position - a.position;
    const float distance = glm::length(d);
    const float radiusA = a.shape->radius, radiusB = b.shape->radius;
    const float separation = distance - radiusA - radiusB;
    if (separation > margin) return manifold;
    // Coincident centres have no direction; any unit normal resolves the overlap.
    manifold.normal = distance > 1e-6f ? d / distance : vec3(0.0f, 1.0f, 0.0f);
    const vec3 surfaceA = a.position + radiusA * manifold.normal;
    const vec3 surfaceB = b.position - radiusB * manifold.normal;
    manifold.pointCount = 1;
    manifold.points[0] = ManifoldPoint{0.5f * (surfaceA + surfaceB), separation, 0};
    return manifold;
}

void aimSpheresAtArrival(Manifold& manifold, const ShapePose& a, const ShapePose& b, const vec3& relativeVelocity,
                         float dt) {
    if (manifold.pointCount != 1 || manifold.points[0].separation <= 0.0f) return;
    // |d + v t| = R: t^2 |v|^2 + 2 t (d.v) + |d|^2 - R^2 = 0, the first root.
    const vec3 d = b.position - a.position;
    const float radiusA = a.shape->radius, radiusB = b.shape->radius, reach = radiusA + radiusB;
    const float closing = glm::dot(d, relativeVelocity), speedSquared = glm::dot(relativeVelocity, relativeVelocity);
    const float discriminant = closing * closing - speedSquared * (glm::dot(d, d) - reach * reach);
    if (closing >= 0.0f || discriminant < 0.0f) return;
    const float arrival = (-closing - std::sqrt(discriminant)) / speedSquared;
    // Within reach: the way to arrival no longer than the pass's travel and the gap. A
    // meeting further off is not turned to (a jostling pile's slow pairs keep their line).
    const float speed = std::sqrt(speedSquared), gap = manifold.points[0].separation;
    if (!(arrival > 0.0f && arrival * speed <= dt * speed + gap)) return;
    const vec3 line = d + arrival * relativeVelocity;
    const float length = glm::length(line);
    if (!(length > 1e-6f)) return;
    manifold.normal = line / length;
    const vec3 surfaceA = a.position + radiusA * manifold.normal;
    const vec3 surfaceB = b.position - radiusB * manifold.normal;
    manifold.points[0].point = 0.5f * (surfaceA + surfaceB);
    manifold.points[0].separation = glm::dot(d, manifold.normal) - reach;
}

Manifold collideSphereBox(const ShapePose& sphere, const ShapePose& box, float margin) {
    Manifold manifold;
    const vec3& h = box.shape->halfExtents;
    const float radius = sphere.shape->radius;
    const vec3 centre = glm::transpose(box.rotation) * (sphere.position - box.position);
    const vec3 closest = glm::clamp(centre, -h, h);
    vec3 localNormal;  // from the sphere toward the box, box frame
    vec3 localSurface;  // closest point on the box surface, box frame
    float separation;
    if (closest != centre) {
        const vec3 outward = centre - closest;
        const float distance = glm::length(outward);
        separation = distance - radius;
        if (separation > margin) return manifold;
        localNormal = -outward / distance;
        localSurface = closest;
    } else {
        // Centre inside the box: push out through the nearest face.
        int axis = 0;
        float depth = h.x - std::fabs(centre.x);
        for (int k = 1; k < 3; ++k) {
            const float faceDepth = h[k] - std::fabs(centre[k]);
            if (faceDepth < depth) {
                depth = faceDepth;
                axis = k;
            }
        }
        const float side = centre[axis] >= 0.0f ? 1.0f : -1.0f;
        localNormal = vec3(0.0f);
        localNormal[axis] = -side;
        localSurface = centre;
        localSurface[axis] = side * h[axis];
        separation = -depth - radius;
    }
    manifold.normal = box.rotation * localNormal;
    const vec3 surfaceBox = box.position + box.rotation * localSurface;
    const vec3 surfaceSphere = sphere.position + radius * manifold.normal;
    manifold.pointCount = 1;
    manifold.points[0] = ManifoldPoint{0.5f * (surfaceBox + surfaceSphere), separation, 0};
    return manifold;
}

void aimSphereAtBoxArrival(Manifold& manifold, const ShapePose& sphere, const ShapePose& box,
                           const vec3& sphereVelocity, float dt) {
    if (manifold.pointCount != 1 || manifold.points[0].separation <= 0.0f) return;
    const vec3& h = box.shape->halfExtents;
    const float radius = sphere.shape->radius, gap = manifold.points[0].separation;
    const mat3 toBox = glm::transpose(box.rotation);
    const vec3 centre = toBox * (sphere.position - box.position), velocity = toBox * sphereVelocity;
    const float speed = glm::length(velocity);
    if (!(speed > 0.0f)) return;
    // The centre's distance to the box is convex along its path, so conservative
    // advancement (step by the distance left over the speed) closes on the first
    // touch from before it; and it is at least the gap less the approach of now
    // times the time, so a path moving away now never touches, and one closing
    // slowly (a ball rolling on a box) cannot touch within reach.
    const float reach = dt * speed + gap;  // the way to arrival, at most (as for a sphere pair)
    vec3 position = centre, closest = glm::clamp(centre, -h, h);
    const float approach = -glm::dot(velocity, glm::normalize(position - closest));
    if (!(approach > 0.0f) || gap * speed > approach * reach) return;
    float travelled = 0.0f;
    for (int i = 0; i < kArrivalAdvanceSteps; ++i) {
        const float distance = glm::length(position - closest) - radius;
        if (distance <= kArrivalTolerance) break;
        travelled += distance;
        if (travelled > reach) return;
        position = centre + (travelled / speed) * velocity;
        closest = glm::clamp(position, -h, h);
    }
    const vec3 outward = position - closest;
    const float length = glm::length(outward);
    if (!(length > 1e-6f) || length - radius > kArrivalTolerance) return;
    const vec3 localNormal = -outward / length;  // from the sphere toward the box
    manifold.normal = box.rotation * localNormal;
    const vec3 surfaceBox = box.position + box.rotation * closest;
    const vec3 surfaceSphere = sphere.position + radius * manifold.normal;
    manifold.points[0].point = 0.5f * (surfaceBox + surfaceSphere);
    // The gap along that normal, which the approach closes at the same moment.
    manifold.points[0].separation = glm::dot(centre - closest, -localNormal) - radius;
}

Manifold collideBoxes(const ShapePose& a, const ShapePose& b, float margin) {
    const vec3& hA = a.shape->halfExtents;
    const vec3& hB = b.shape->halfExtents;
    const vec3 d = b.position - a.position;
    // Bounding spheres apart: no axis needs testing (most pairs from the broadphase).
    const float reach = glm::length(hA) + glm::length(hB) + margin;
    if (glm::dot(d, d) > reach * reach) return Manifold{};
    // c[i][j] = a_i . b_j; the small epsilon keeps near-parallel edges from
    // producing a false separating axis out of rounding (Gottschalk).
    float absC[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) absC[i][j] = std::fabs(glm::dot(a.rotation[i], b.rotation[j])) + 1e-6f;

    FaceQuery faceA, faceB;
    for (int i = 0; i < 3; ++i) {
        const float projectedB = hB.x * absC[i][0] + hB.y * absC[i][1] + hB.z * absC[i][2];
        const float separation = std::fabs(glm::dot(d, a.rotation[i])) - (hA[i] + projectedB);
        if (separation > margin) return Manifold{};
        if (separation > faceA.separation) faceA = FaceQuery{separation, i};
    }
    for (int j = 0; j < 3; ++j) {
        const float projectedA = hA.x * absC[0][j] + hA.y * absC[1][j] + hA.z * absC[2][j];
        const float separation = std::fabs(glm::dot(d, b.rotation[j])) - (projectedA + hB[j]);
        if (separation > margin) return Manifold{};
        if (separation > faceB.separation) faceB = FaceQuery{separation, j};
    }
    EdgeQuery edge;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
            vec3 axis = glm::cross(a.rotation[i], b.rotation[j]);
            const float length = glm::length(axis);
            if (length < 1e-4f) continue;  // parallel edges: the face axes cover them
            axis /= length;
            float projectedA = 0.0f, projectedB = 0.0f;
            for (int k = 0; k < 3; ++k) {
                projectedA += hA[k] * std::fabs(glm::dot(a.rotation[k], axis));
                projectedB += hB[k] * std::fabs(glm::dot(b.rotation[k], axis));
            }
            const float distance = glm::dot(d, axis);
            const float separation = std::fabs(distance) - (projectedA + projectedB);
            if (separation > margin) return Manifold{};
            if (separation > edge.separation) {
                edge = EdgeQuery{separation, i, j, distance >= 0.0f ? axis : -axis};
            }
        }
    }
    // Prefer faces, and A's face over B's, unless clearly worse: the choice then
    // stays the same from step to step and the feature ids persist.
        const bool referenceIsB = faceB.separation > faceA.separation + kReferenceFaceTolerance;
    const float faceSeparation = referenceIsB ? faceB.separation : faceA.separation;
    if (edge.axisA >= 0 && edge.separation > faceSeparation + kEdgeContactTolerance) {
        Manifold manifold = edgeContact(a, b, edge, margin);
        if (manifold.pointCount > 0) return manifold;
    }
    return referenceIsB ? faceContact(b, a, faceB.axis, true, margin) : faceContact(a, b, faceA.axis, false, margin);
}

Manifold collide(const ShapePose& a, const ShapePose& b, float margin, const vec3& relativeVelocity, float dt) {
    const bool sphereA = a.shape->type == ShapeType::Sphere;
    const bool sphereB = b.shape->type == ShapeType::Sphere;
    if (sphereA && sphereB) {
        Manifold manifold = collideSpheres(a, b, margin);
        aimSpheresAtArrival(manifold, a, b, relativeVelocity, dt);
        return manifold;
    }
    if (sphereA) {
        Manifold manifold = collideSphereBox(a, b, margin);
        aimSphereAtBoxArrival(manifold, a, b, -relativeVelocity, dt);
        return manifold;
    }
    if (sphereB) {
        Manifold manifold = collideSphereBox(b, a, margin);
        aimSphereAtBoxArrival(manifold, b, a, relativeVelocity, dt);
        return flipped(manifold);
    }
    return collideBoxes(a, b, margin);
}

ManifoldCache cacheManifold(const Manifold& manifold, const BodyPose& a, const BodyPose& b, float margin) {
    ManifoldCache cache;
    cache.valid = true;
    cache.margin = margin;
    cache.relativePosition = glm::transpose(*a.rotation) * (b.position - a.position);
    cache.relativeOrientation = glm::conjugate(a.orientation) * b.orientation;
    cache.localNormal = glm::transpose(*a.rotation) * manifold.normal;
    cache.pointCount = uint8_t(manifold.pointCount);
    for (int i = 0; i < manifold.pointCount; ++i) {
        const ManifoldPoint& point = manifold.points[i];
        const vec3 halfGap = (0.5f * point.separation) * manifold.normal;
        cache.localSurfaceA[i] = glm::transpose(*a.rotation) * (point.point - halfGap - a.position);
        cache.localSurfaceB[i] = glm::transpose(*b.rotation) * (point.point + halfGap - b.position);
        cache.ids[i] = point.id;
    }
    return cache;
}

bool reuseManifold(const ManifoldCache& cache, const BodyPose& a, const BodyPose& b, float margin, Manifold& out) {
    if (!cache.valid) return false;
    // A cache from a shorter reach lacks the features a longer one finds: a
    // spinning plate's cache from a pass one sub-step long held one corner, and
    // reused over the next whole step it let another corner 5 cm into the ground.
    if (margin > cache.margin + kManifoldReuseDistance) return false;
    const vec3 moved = glm::transpose(*a.rotation) * (b.position - a.position) - cache.relativePosition;
    if (glm::dot(moved, moved) > kManifoldReuseDistance * kManifoldReuseDistance) return false;
    // |q1.q2| = cos(theta / 2) for the rotation theta between the two relative orientations.
    const quat turned = glm::conjugate(a.orientation) * b.orientation;
    if (std::fabs(glm::dot(turned, cache.relativeOrientation)) < kManifoldReuseCosHalfAngle) return false;
    out.normal = *a.rotation * cache.localNormal;
    out.pointCount = cache.pointCount;
    for (int i = 0; i < cache.pointCount; ++i) {
        const vec3 surfaceA = a.position + *a.rotation * cache.localSurfaceA[i];
        const vec3 surfaceB = b.position + *b.rotation * cache.localSurfaceB[i];
        out.points[i] = ManifoldPoint{0.5f * (surfaceA + surfaceB), glm::dot(surfaceB - surfaceA, out.normal), cache.ids[i]};
    }
    return true;
}

}  // namespace impulse
