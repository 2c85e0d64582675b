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

/// The bodies `body` will touch in the next step: those of a copy of `world` stepped once
/// (a world just loaded or edited has no contacts of its own yet).
std::vector<BodyId> nextStepPartners(const World& world, BodyId body);

/// The first body straight below `body` (a ray down from just under its bounding box), or null.
BodyId bodyBelow(const World& world, BodyId body);

}  // namespace impulse::ui
