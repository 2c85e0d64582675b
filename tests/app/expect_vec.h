// A vector compared component by component, each failure naming the vector and
// the component: the classroom tests' check of hand-computed momenta.
#pragma once

#include <glm/glm.hpp>
#include <gtest/gtest.h>

#include <string>

namespace impulse::test {

inline void expectNearVec(const glm::dvec3& actual, const glm::dvec3& expected, double tolerance,
                          const std::string& what) {
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(actual[i], expected[i], tolerance) << what << "[" << i << "]";
}

}  // namespace impulse::test
