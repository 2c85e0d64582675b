// The momenta diagram's numbers, without its drawing: the bodies' momenta (or
// angular momenta about their centre of mass) as arrows tip to tail, whose
// chain ends at the total, just before and just after an impact; the plane the
// diagram is drawn in and a scale that fits it. No GL, SDL or ImGui: the Momenta
// tab (src/ui/momenta_tab.h) draws these, the tests check them.
#pragma once

#include "app/classroom.h"

#include <string>
#include <vector>

namespace impulse::app {

enum class MomentaQuantity { Linear, Angular };

/// One body's arrow in a chain: from `tail` (the previous arrow's tip) to `tip`, in
/// kg m/s (linear) or kg m^2/s (angular, about the diagram's centre of mass).
struct MomentumArrow {
    BodyId body;
    std::string name;
    glm::dvec3 tail{0.0}, tip{0.0};
    glm::dvec3 value() const { return tip - tail; }
};

/// The arrows tip to tail from the origin; `total` is the last tip (the sum).
struct MomentaChain {
    std::vector<MomentumArrow> arrows;
    glm::dvec3 total{0.0};
};

struct MomentaDiagram {
    /// The impact the diagram is about, or null: then `before` and `after` are both
    /// the bodies' values at the world's step.
    const ImpactBookkeeping* impact = nullptr;
    /// Empty `before` with an impact: the log did not see the step before it.
    MomentaChain before, after;
    /// The bodies' centre of mass after the impact, m: `after`'s angular momenta are
    /// about it, `before`'s about the centre a step earlier.
    glm::dvec3 centre{0.0};
    /// Bodies asked for that the impact did not keep (beyond kMomentaBodiesKept): left out.
    size_t bodiesLeftOut = 0;
};

/// The diagram of `bodies` (every dynamic body when empty) around `impact`: before =
/// the bodies as they were just before the impact's step, after = just after it, as
/// the impact kept them. Recorded, not computed back from the impact's impulse: a
/// cradle's impact passes down the row within the step, through contacts that are
/// not the impact's pair. So the totals differ by what acted on the bodies in that
/// one step besides their impacts with each other: gravity (m g dt), the floor's
/// push and friction, a static body's or an unshown body's impulse. Without an
/// impact (null), both are the world's bodies now.
MomentaDiagram momentaDiagram(const World& world, const ImpactBookkeeping* impact, const std::vector<BodyId>& bodies,
                              MomentaQuantity quantity);

/// A plane the diagram is drawn in, as seen by someone looking at it: which world
/// axes point right and up on the screen.
enum class MomentaPlane { XZ, XY, ZY };

struct PlaneAxes {
    int right = 0, up = 2;   ///< world axis indices (x 0, y 1, z 2)
    double upSign = -1.0;    ///< the screen's up is upSign times that axis
    const char* name = "";   ///< "x-z", ...
    const char* seenFrom = "";  ///< how the plane is seen, said on screen
};
PlaneAxes planeAxes(MomentaPlane plane);

/// The coordinate plane that shows most of the diagram: the one without the axis
/// along which the arrows (before and after) have the least (sum of |component|);
/// on a tie x-z, a table seen from above.
MomentaPlane readablePlane(const MomentaDiagram& diagram);

/// `v` in the plane's screen coordinates (right, up), same units.
glm::dvec2 projectOnPlane(const glm::dvec3& v, const PlaneAxes& axes);

/// The mapping from the diagram's units to pixels of a `width` x `height` box (both
/// chains share it, so before and after compare), and a scale bar.
struct DiagramScale {
    double pixelsPerUnit = 1.0;
    glm::dvec2 origin{0.0};  ///< where the chains start, pixels from the box's top left
    double barValue = 1.0;   ///< the scale bar's length in units (1, 2 or 5 x 10^k)
    double barPixels = 0.0;
};
/// Fits both chains (and the origin) inside the box with `margin` pixels on every side.
DiagramScale fitDiagram(const MomentaDiagram& diagram, const PlaneAxes& axes, double width, double height,
                        double margin);

/// The line every arrow of both chains lies on (a head-on impact), as a unit direction
/// on the screen (right, up); zero when the arrows span a plane, or are all shorter than
/// `tolerance`. Every tip within `tolerance` pixels of the line at `scale` counts as on it.
/// The tab then draws each arrow on a row of its own: on the line they would cover each other.
glm::dvec2 commonLine(const MomentaDiagram& diagram, const PlaneAxes& axes, const DiagramScale& scale,
                      double tolerance);

}  // namespace impulse::app
