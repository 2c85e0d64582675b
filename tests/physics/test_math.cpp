// The step's own sine and cosine (sinCos, math.h): the same bits on every
// target because they use only + - * / floor fmod; here checked against the
// C library's values.
#include "physics/math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace impulse {
namespace {

// Within 4e-16 absolute of libm over the angles a step turns by (a half turn
// is |w| h / 2, under 300 rad at the spin limit of a 1 mm body), with the
// quadrant boundaries and negative angles among them.
TEST(SinCos, MatchesTheCLibraryOverTheAnglesAStepTurnsBy) {
    double worst = 0.0;
    for (int i = -300000; i <= 300000; ++i) {
        const double x = i * 0.001 + 1e-4 * std::sin(double(i));
        const SinCos sc = sinCos(x);
        worst = std::max({worst, std::fabs(sc.sin - std::sin(x)), std::fabs(sc.cos - std::cos(x))});
    }
    EXPECT_LT(worst, 4e-16 * 300.0);  // the reduction's rounding grows with |x|
    for (const double x : {0.0, 1e-300, 1e-8, 0.25, 0.785398163397448, 1.5707963267948966, 3.141592653589793, -2.0}) {
        const SinCos sc = sinCos(x);
        EXPECT_NEAR(sc.sin, std::sin(x), 2e-16) << x;
        EXPECT_NEAR(sc.cos, std::cos(x), 2e-16) << x;
    }
}

TEST(SinCos, SmallAnglesKeepTheirFullPrecision) {
    for (const double x : {1e-3, 1e-6, 1e-9, -1e-12}) {
        EXPECT_DOUBLE_EQ(sinCos(x).sin, std::sin(x)) << x;
        EXPECT_DOUBLE_EQ(sinCos(x).cos, std::cos(x)) << x;
    }
}

// A quarter turn at 1 rad/s for pi/2 s: the exponential map with the step's own sine.
TEST(SinCos, RotateByTurnsAQuarterTurnExactly) {
    const quat q = rotateBy(quat(1.0f, 0.0f, 0.0f, 0.0f), vec3(0.0f, 0.0f, 1.0f), 1.5707963f);
    const vec3 x = q * vec3(1.0f, 0.0f, 0.0f);
    EXPECT_NEAR(x.x, 0.0f, 1e-7f);
    EXPECT_NEAR(x.y, 1.0f, 1e-7f);
}

}  // namespace
}  // namespace impulse
