// Issue 45: the classroom labels show what 3 figures can tell (a resting body's float
// noise reads 0) and stay inside the view, not cut by the panels beside it.
#include "app/classroom.h"

#include <gtest/gtest.h>

using namespace impulse;

TEST(ClassroomLabels, ShowThreeFiguresAndNoiseAsZero) {
    EXPECT_EQ(app::labelValue(3.64e-12), "0");
    EXPECT_EQ(app::labelValue(-2e-7), "0");
    EXPECT_EQ(app::labelValue(0.0), "0");
    EXPECT_EQ(app::labelValue(3.6449), "3.64");
    EXPECT_EQ(app::labelValue(0.0123), "0.0123");
    EXPECT_EQ(app::labelValue(152.4), "152");
}

TEST(ClassroomLabels, StayInsideTheView) {
    const glm::vec4 view(300.0f, 20.0f, 600.0f, 400.0f);
    const glm::vec2 size(180.0f, 14.0f);
    // By the right panel: moved left until it ends 2 px inside the view.
    glm::vec2 at = app::labelInsideView(glm::vec2(850.0f, 100.0f), size, view);
    EXPECT_FLOAT_EQ(at.x, 900.0f - 180.0f - 2.0f);
    EXPECT_FLOAT_EQ(at.y, 100.0f);
    // Above the top and left of the left panel's edge.
    at = app::labelInsideView(glm::vec2(250.0f, 5.0f), size, view);
    EXPECT_FLOAT_EQ(at.x, 302.0f);
    EXPECT_FLOAT_EQ(at.y, 22.0f);
    // Below the bottom.
    at = app::labelInsideView(glm::vec2(400.0f, 419.0f), size, view);
    EXPECT_FLOAT_EQ(at.y, 420.0f - 14.0f - 2.0f);
    // Inside: where it was.
    at = app::labelInsideView(glm::vec2(400.0f, 200.0f), size, view);
    EXPECT_FLOAT_EQ(at.x, 400.0f);
    EXPECT_FLOAT_EQ(at.y, 200.0f);
}
