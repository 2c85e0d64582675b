// Broadphase: sweep-and-prune over body AABBs along the axis where the bodies
// are most spread out. The sorted order persists between steps, so the
// insertion sort that keeps it sorted costs about O(n) for coherent motion.
#pragma once

#include "physics/shape.h"

#include <cstdint>
#include <vector>

namespace impulse {

/// A pair of body indices whose AABBs overlap; a < b.
struct BodyPair {
    uint32_t a = 0;
    uint32_t b = 0;
    uint64_t key() const { return (uint64_t(a) << 32) | b; }
};

class BroadPhase {
public:
    /// One entry per body slot; `present[i]` false for free slots. Pairs of two
    /// static bodies are never reported. Output pairs are sorted by (a, b).
    void findPairs(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& present,
                   const std::vector<uint8_t>& isStatic, std::vector<BodyPair>& outPairs);

private:
    int chooseAxis(const std::vector<Aabb>& aabbs) const;

    std::vector<uint32_t> order_;  // present body indices sorted by lower bound on axis_
    int axis_ = 0;
};

}  // namespace impulse
