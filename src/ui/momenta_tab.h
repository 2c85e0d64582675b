// The Momenta tab (Contact inspector): the momenta diagram of issue 24. The
// bodies' momenta (or angular momenta about their centre of mass) tip to tail
// with the total, just before and just after the last impact at the step shown,
// side by side at one scale, in a coordinate plane said on screen, with the
// totals as numbers under them. The numbers are app::momentaDiagram's; this
// only draws them.
#pragma once

#include "app/momenta_diagram.h"

namespace impulse::ui {

class MomentaTab {
public:
    /// Draws the diagram of `world`'s step shown, about the latest impact of `impacts`
    /// at or before it; `selected` is the body "the selected body" shows.
    void draw(const World& world, BodyId selected, const app::ImpactBookkeepingLog& impacts, float textScale);

private:
    enum class Bodies { All, ImpactPair, Selected };
    app::MomentaQuantity quantity_ = app::MomentaQuantity::Linear;
    Bodies bodies_ = Bodies::All;
    int plane_ = 0;  ///< 0: the readable plane (auto), else 1 + app::MomentaPlane
};

}  // namespace impulse::ui
