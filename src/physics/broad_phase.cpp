#include "physics/broad_phase.h"

#include <algorithm>

namespace impulse {

int BroadPhase::chooseAxis(const std::vector<Aabb>& aabbs) const {
    // Variance of the AABB centres per axis; sweeping along the widest spread
    // keeps the active intervals short.
    glm::dvec3 sum(0.0), sumSquares(0.0);
    for (uint32_t index : order_) {
        const glm::dvec3 centre = glm::dvec3(aabbs[index].lower + aabbs[index].upper) * 0.5;
        sum += centre;
        sumSquares += centre * centre;
    }
    const double n = static_cast<double>(std::max<size_t>(order_.size(), 1));
    const glm::dvec3 variance = sumSquares / n - (sum / n) * (sum / n);
    int best = axis_;
    // Hysteresis: switching axis costs a full sort, so only switch for a clear win.
    for (int axis = 0; axis < 3; ++axis) {
        if (variance[axis] > 1.5 * variance[best]) best = axis;
    }
    return best;
}

void BroadPhase::findPairs(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& present,
                           const std::vector<uint8_t>& isStatic, std::vector<BodyPair>& outPairs) {
    outPairs.clear();
    // Keep the persistent order in step with the set of bodies.
    size_t presentCount = 0;
    for (uint8_t p : present) presentCount += p;
    bool rebuilt = false;
    if (presentCount != order_.size() ||
        std::any_of(order_.begin(), order_.end(), [&](uint32_t i) { return i >= present.size() || !present[i]; })) {
        order_.clear();
        for (uint32_t i = 0; i < present.size(); ++i) {
            if (present[i]) order_.push_back(i);
        }
        rebuilt = true;
    }
    const int axis = chooseAxis(aabbs);
    auto lowerOf = [&](uint32_t index) { return aabbs[index].lower[axis]; };
    // Ties are broken by index so the order, and so the pair list, is deterministic.
    auto less = [&](uint32_t i, uint32_t j) { return lowerOf(i) < lowerOf(j) || (lowerOf(i) == lowerOf(j) && i < j); };
    if (rebuilt || axis != axis_) {
        std::sort(order_.begin(), order_.end(), less);
        axis_ = axis;
    } else {
        for (size_t i = 1; i < order_.size(); ++i) {
            const uint32_t moving = order_[i];
            size_t j = i;
            while (j > 0 && less(moving, order_[j - 1])) {
                order_[j] = order_[j - 1];
                --j;
            }
            order_[j] = moving;
        }
    }
    for (size_t i = 0; i < order_.size(); ++i) {
        const uint32_t a = order_[i];
        const Aabb& boxA = aabbs[a];
        const float upperA = boxA.upper[axis];
        for (size_t j = i + 1; j < order_.size(); ++j) {
            const uint32_t b = order_[j];
            if (aabbs[b].lower[axis] > upperA) break;
            if (isStatic[a] && isStatic[b]) continue;
            if (!boxA.overlaps(aabbs[b])) continue;
            outPairs.push_back(a < b ? BodyPair{a, b} : BodyPair{b, a});
        }
    }
    std::sort(outPairs.begin(), outPairs.end(), [](const BodyPair& p, const BodyPair& q) { return p.key() < q.key(); });
}

}  // namespace impulse
