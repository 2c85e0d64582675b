// Which classroom vectors the 3D view draws, each with its own scale: velocity,
// momentum, angular velocity and angular momentum on every dynamic body, the
// change of momentum of both bodies of the last impact (shown for a moment
// after it), the system's centre of mass with its velocity, and the bodies'
// trails. Set in World > Classroom vectors, by a scene's `show` key, or for a run
// by --show.
#pragma once

#include "scene/scene.h"

#include <string>
#include <vector>

namespace impulse::app {

struct ClassroomView {
    bool velocity = false;
    bool momentum = false;
    bool angularVelocity = false;
    bool angularMomentum = false;  ///< I w about the body's own centre of mass
    bool impactMomentum = false;   ///< the last impact's change of momentum, both bodies
    bool systemCentre = false;     ///< the dynamic bodies' centre of mass and its velocity
    /// The Contact inspector's Momenta tab (the momenta diagram) is in front: turned on
    /// (a scene's `show`, --show), the panels bring it forward; they keep this switch
    /// to whether it is, so a saved scene opens as it was left.
    bool momentaDiagram = false;
    float velocityScale = 0.5f;          ///< m of arrow per m/s
    /// m of arrow per kg m/s, for p and for the impact's change of p alike: a
    /// body's p before, its dp and its p after read tip to tail at one scale.
    float momentumScale = 0.5f;
    float angularVelocityScale = 0.05f;  ///< m of arrow per rad/s
    float angularMomentumScale = 0.5f;   ///< m of arrow per kg m^2/s
    /// The paths of the dynamic bodies' centres of mass and of a marked point on each
    /// (its spin), from the run's record (app/trails.h), fading with age.
    bool trails = false;
    bool markedPoints = false;
    float trailSeconds = 2.0f;  ///< of simulated time; at most BodyTrails::kMaxSeconds

    /// The switch of a view as scene files and --show name it.
    bool& switchFor(scene::ShownView view) { return switchOf(*this, view); }
    bool switchFor(scene::ShownView view) const { return switchOf(*this, view); }
    /// Turns on exactly `views` (a scene's `show`, or --show); the scales stay.
    void showOnly(const std::vector<scene::ShownView>& views) {
        for (const scene::ShownViewName& v : scene::kShownViewNames) switchFor(v.view) = false;
        for (scene::ShownView view : views) switchFor(view) = true;
    }
    /// The views turned on, in the format's order (a saved scene's `show`).
    std::vector<scene::ShownView> shown() const {
        std::vector<scene::ShownView> on;
        for (const scene::ShownViewName& v : scene::kShownViewNames) {
            if (switchFor(v.view)) on.push_back(v.view);
        }
        return on;
    }

private:
    // One switch for switchFor and its const twin.
    template <class View>
    static auto switchOf(View& c, scene::ShownView view) -> decltype((c.velocity)) {
        switch (view) {
            case scene::ShownView::Velocity: return c.velocity;
            case scene::ShownView::Momentum: return c.momentum;
            case scene::ShownView::AngularVelocity: return c.angularVelocity;
            case scene::ShownView::AngularMomentum: return c.angularMomentum;
            case scene::ShownView::ImpactMomentum: return c.impactMomentum;
            case scene::ShownView::SystemCentre: return c.systemCentre;
            case scene::ShownView::MomentaDiagram: return c.momentaDiagram;
            case scene::ShownView::Trails: return c.trails;
            case scene::ShownView::MarkedPoints: return c.markedPoints;
        }
        return c.velocity;  // unreachable: every view has a case (-Wswitch says when one is added)
    }
};

/// The views named in a comma-separated `list` (as a scene's `show` names them),
/// into `out`; returns "" or a message naming the unknown name and the known ones.
std::string parseShownViews(const std::string& list, std::vector<scene::ShownView>& out);

}  // namespace impulse::app
