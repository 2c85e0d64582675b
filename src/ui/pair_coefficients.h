// What governs a body's contacts: the pair's e, mu and mu_s as the solver
// combines them from both bodies' values under the world's rules, with the
// rule written out, so a panel can show "e 0.5 = max(0.1, 0.5)". The values
// come from the physics' own combineRestitution / combineFriction.
#pragma once

#include "physics/world.h"

#include <string>
#include <vector>

namespace impulse::ui {

/// The combined coefficients of `body` against `partner`.
struct PairCoefficients {
    BodyId partner;
    float restitution = 0.0f, friction = 0.0f, staticFriction = 0.0f;
    /// Each value with the rule that produced it, the body's value first: "e 0.500 = max(0.1, 0.5)".
    std::string restitutionText, frictionText, staticFrictionText;
};
PairCoefficients combinePair(const World& world, BodyId body, BodyId partner);

/// The bodies `body` touches in `contacts`, each once, in the contacts' order.
std::vector<BodyId> contactPartners(const std::vector<ContactPointInfo>& contacts, BodyId body);

/// The contacts the next step will use: those of a copy of the world stepped once (a world
/// just loaded has none of its own yet; one edited while paused has its last step's, at
/// the poses before the edit). The view's contact points and the Body panel's "Contacts
/// use" read one of these, so they agree.
class NextStepContacts {
public:
    /// Kept while the world's step and every body's shape and pose stay as they were:
    /// stepping a copy each frame would cost a step's time each frame.
    const std::vector<ContactPointInfo>& of(const World& world);
    /// Paused, with a body moved, reshaped, added or removed since the world's last step
    /// (or seek): of(world), the world's own contacts being out of date; else null.
    const std::vector<ContactPointInfo>* replacingStale(const World& world, bool paused);

private:
    struct Key {
        uint64_t step = 0;
        uint64_t bodies = 0;  ///< a digest of every body's id, shape and pose
        bool operator==(const Key& o) const { return step == o.step && bodies == o.bodies; }
    };
    static Key keyOf(const World& world);
    const std::vector<ContactPointInfo>& of(const World& world, const Key& key);
    bool computed_ = false;
    Key key_;
    std::vector<ContactPointInfo> contacts_;
    bool stepSeen_ = false;
    Key atStep_;  ///< the world as first seen at its step
};

/// The first body straight below `body` (a ray down from just under its bounding box), or null.
BodyId bodyBelow(const World& world, BodyId body);

}  // namespace impulse::ui
