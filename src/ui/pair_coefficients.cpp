#include "ui/pair_coefficients.h"

#include "physics/shape.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace impulse::ui {

namespace {

// How the rule reads with its two inputs; the value itself is the physics' own.
std::string ruleExpression(const char* rule, float mine, float theirs) {
    const double a = mine, b = theirs;
    char text[96];
    if (std::strcmp(rule, "multiply") == 0) {
        std::snprintf(text, sizeof text, "%g x %g", a, b);
    } else if (std::strcmp(rule, "geometric") == 0) {
        std::snprintf(text, sizeof text, "sqrt(%g x %g)", a, b);
    } else {
        std::snprintf(text, sizeof text, "%s(%g, %g)", rule, a, b);
    }
    return text;
}

std::string describe(const char* symbol, float value, const char* rule, float mine, float theirs) {
    char head[48];
    std::snprintf(head, sizeof head, "%s %.3g = ", symbol, static_cast<double>(value));
    return head + ruleExpression(rule, mine, theirs);
}

}  // namespace

PairCoefficients combinePair(const World& world, BodyId body, BodyId partner) {
    const WorldSettings& settings = world.settings();
    const Body& a = world.body(body);
    const Body& b = world.body(partner);
    PairCoefficients out;
    out.partner = partner;
    out.restitution = combineRestitution(settings.restitutionCombine, a.restitution, b.restitution);
    out.friction = combineFriction(settings.frictionCombine, a.friction, b.friction);
    out.staticFriction = combineFriction(settings.frictionCombine, a.staticFriction, b.staticFriction);
    const char* restitutionRule = toString(settings.restitutionCombine);
    const char* frictionRule = toString(settings.frictionCombine);
    out.restitutionText = describe("e", out.restitution, restitutionRule, a.restitution, b.restitution);
    out.frictionText = describe("mu", out.friction, frictionRule, a.friction, b.friction);
    out.staticFrictionText =
        describe("mu_s", out.staticFriction, frictionRule, a.staticFriction, b.staticFriction);
    return out;
}

std::vector<BodyId> contactPartners(const std::vector<ContactPointInfo>& contacts, BodyId body) {
    std::vector<BodyId> partners;
    for (const ContactPointInfo& c : contacts) {
        BodyId other;
        if (c.bodyA == body)
            other = c.bodyB;
        else if (c.bodyB == body)
            other = c.bodyA;
        else
            continue;
        if (std::find(partners.begin(), partners.end(), other) == partners.end()) partners.push_back(other);
    }
    return partners;
}

NextStepContacts::Key NextStepContacts::keyOf(const World& world) {
    // FNV-1a over the bytes of each body's id, shape and pose.
    uint64_t hash = 1469598103934665603ull;
    const auto mix = [&hash](const void* data, size_t size) {
        const unsigned char* bytes = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    };
    for (const BodyId id : world.bodyIds()) {
        const Body& b = world.body(id);
        mix(&id.index, sizeof id.index);
        mix(&id.generation, sizeof id.generation);
        mix(&b.shape.type, sizeof b.shape.type);
        mix(&b.shape.halfExtents, sizeof b.shape.halfExtents);
        mix(&b.shape.radius, sizeof b.shape.radius);
        mix(&b.position, sizeof b.position);
        mix(&b.orientation, sizeof b.orientation);
    }
    return Key{world.stepCount(), hash};
}

const std::vector<ContactPointInfo>& NextStepContacts::of(const World& world) { return of(world, keyOf(world)); }

const std::vector<ContactPointInfo>& NextStepContacts::of(const World& world, const Key& key) {
    if (!computed_ || !(key == key_)) {
        World next = world;
        next.step();
        contacts_ = next.contacts();
        key_ = key;
        computed_ = true;
    }
    return contacts_;
}

const std::vector<ContactPointInfo>* NextStepContacts::replacingStale(const World& world, bool paused) {
    const Key key = keyOf(world);
    if (!stepSeen_ || key.step != atStep_.step) {
        atStep_ = key;  // a new step (or a seek): its contacts are the world's own
        stepSeen_ = true;
    }
    return paused && !(key == atStep_) ? &of(world, key) : nullptr;
}

BodyId bodyBelow(const World& world, BodyId body) {
    const Body& b = world.body(body);
    // Start under the body so the ray does not hit the body itself.
    const Aabb bounds = shapeAabb(b.shape, b.position, b.rotation, 0.0f);
    const vec3 origin(b.position.x, bounds.lower.y - 1e-3f, b.position.z);
    const std::optional<RayHit> hit = world.rayCast(origin, vec3(0.0f, -1.0f, 0.0f), 1000.0f);
    return hit ? hit->body : BodyId{};
}

}  // namespace impulse::ui
