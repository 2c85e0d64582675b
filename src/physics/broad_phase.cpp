#include "physics/broad_phase.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace impulse {

namespace {

// The cell edge is the 90th percentile of the bodies' largest AABB extents, so
// nine bodies in ten span at most two cells per axis (eight cells), and a cell
// holds about as many bodies as fit in one body's volume. A percentile rather
// than the maximum ignores the ground and walls; recomputing it every call
// follows scenes of 1 cm plates as well as of 10 m boxes.
constexpr double kCellPercentile = 0.9;
constexpr float kFallbackCellSize = 1.0f;  // m, when no body has a usable extent
constexpr float kMinCellSize = 1e-3f;      // m; below this, far bodies would all clamp to one cell
// A body touching more cells than this is "large": the ground and the pen walls
// would cover thousands of cells each, which costs more than testing them apart.
// Bodies up to three cell edges wide (4 x 4 x 4 cells) stay in the grid.
constexpr int64_t kMaxCellsPerGridBody = 64;
// Cell coordinates are clamped to +-2^30, so AABBs 1e6 m away with 1 mm cells,
// or infinite ones, cannot overflow int32 (cellCount saturates the product).
// Clamping keeps the coordinate a non-decreasing function of position, which
// is all the reporting rule below needs.
constexpr double kCellCoordinateLimit = double(1 << 30);
// A large body looks up the cells it covers when that is cheaper than an AABB
// test against every grid body; one lookup (hash, probe, walk of the cell, and
// the same tests) costs about as much as this many sequential AABB tests.
constexpr int64_t kCellLookupCost = 8;
constexpr ptrdiff_t kLongRun = 32;  // pairs of one body; beyond this, std::sort

bool bothStatic(const std::vector<uint8_t>& isStatic, uint32_t a, uint32_t b) {
    return isStatic[a] && isStatic[b];
}

BodyPair orderedPair(uint32_t i, uint32_t j) {
    return i < j ? BodyPair{i, j} : BodyPair{j, i};
}

/// Cells in the range, at most kManyCells (three spans of 2^31 would overflow
/// int64), or 0 for an inverted AABB (lower above upper).
constexpr int64_t kManyCells = int64_t(1) << 40;
int64_t cellCount(const glm::ivec3& lower, const glm::ivec3& upper) {
    int64_t count = 1;
    for (int axis = 0; axis < 3; ++axis) {
        const int64_t span = int64_t(upper[axis]) - int64_t(lower[axis]) + 1;
        if (span <= 0) return 0;
        if (count > kManyCells / span) return kManyCells;
        count *= span;
    }
    return count;
}

/// Aabb::overlaps, the same comparisons, combined without short-circuit jumps.
bool overlapsWithoutBranches(const Aabb& p, const Aabb& q) {
    return (p.lower.x <= q.upper.x) & (q.lower.x <= p.upper.x) & (p.lower.y <= q.upper.y) &
           (q.lower.y <= p.upper.y) & (p.lower.z <= q.upper.z) & (q.lower.z <= p.upper.z);
}

Aabb fatAabb(const Aabb& box) {
    const vec3 margin(BroadPhase::kFatMargin);
    return Aabb{box.lower - margin, box.upper + margin};
}

int32_t cellCoordinate(float position, double inverseCellSize) {
    const double cell = std::floor(double(position) * inverseCellSize);
    // Written so that NaN lands on the lower limit instead of an undefined cast;
    // such a body overlaps nothing, so its cells do not matter.
    if (cell > kCellCoordinateLimit) return static_cast<int32_t>(kCellCoordinateLimit);
    if (cell >= -kCellCoordinateLimit) return static_cast<int32_t>(cell);
    return static_cast<int32_t>(-kCellCoordinateLimit);
}

uint32_t cellHash(const glm::ivec3& cell) {
    // Large odd multipliers spread neighbouring cells apart (Teschner et al. 2003),
    // then a multiply-xorshift finaliser mixes the high bits down to the masked ones.
    uint32_t h =
        uint32_t(cell.x) * 0x8DA6B343u ^ uint32_t(cell.y) * 0xD8163841u ^ uint32_t(cell.z) * 0xCB1AB31Fu;
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    return h;
}

}  // namespace

float BroadPhase::chooseCellSize(const std::vector<Aabb>& aabbs) {
    extents_.clear();
    for (uint32_t index : presentBodies_) {
        const vec3 size = aabbs[index].upper - aabbs[index].lower;
        const float extent = std::max(size.x, std::max(size.y, size.z));
        if (std::isfinite(extent) && extent > 0.0f) extents_.push_back(extent);
    }
    if (extents_.empty()) return kFallbackCellSize;
    // nth_element: O(n), and the value does not depend on the input order.
    const size_t rank = static_cast<size_t>(kCellPercentile * static_cast<double>(extents_.size() - 1));
    std::nth_element(extents_.begin(), extents_.begin() + rank, extents_.end());
    return std::max(extents_[rank], kMinCellSize);
}

uint32_t BroadPhase::findCell(const glm::ivec3& cell) const {
    // Linear probing; the table is at most half full, so probes stay short.
    for (uint32_t slot = cellHash(cell) & slotMask_;; slot = (slot + 1) & slotMask_) {
        const CellSlot& entry = cellSlots_[slot];
        if (entry.stamp != stamp_) return kNoCell;
        if (cellCoordinates_[entry.id] == cell) return entry.id;
    }
}

uint32_t BroadPhase::findOrAddCell(const glm::ivec3& cell) {
    for (uint32_t slot = cellHash(cell) & slotMask_;; slot = (slot + 1) & slotMask_) {
        CellSlot& entry = cellSlots_[slot];
        if (entry.stamp != stamp_) {
            entry = CellSlot{static_cast<uint32_t>(cellCoordinates_.size()), stamp_};
            cellCoordinates_.push_back(cell);
            return entry.id;
        }
        if (cellCoordinates_[entry.id] == cell) return entry.id;
    }
}

BroadPhase::CellRange BroadPhase::cellRangeOf(const Aabb& box) const {
    CellRange range;
    for (int axis = 0; axis < 3; ++axis) {
        range.lower[axis] = cellCoordinate(box.lower[axis], inverseCellSize_);
        range.upper[axis] = cellCoordinate(box.upper[axis], inverseCellSize_);
    }
    return range;
}

void BroadPhase::fillGrid(const std::vector<Aabb>& aabbs) {
    inverseCellSize_ = 1.0 / double(chooseCellSize(aabbs));
    smallBodies_.clear();
    largeBodies_.clear();
    size_t entryCount = 0;
    for (uint32_t index : presentBodies_) {
        ranges_[index] = cellRangeOf(aabbs[index]);
        const CellRange& range = ranges_[index];
        const int64_t cells = cellCount(range.lower, range.upper);
        // Inverted AABBs also go to the large list, where every test is the exact
        // Aabb::overlaps, so the answer matches brute force even for them.
        if (cells <= 0 || cells > kMaxCellsPerGridBody) {
            largeBodies_.push_back(index);
        } else {
            smallBodies_.push_back(index);
            entryCount += static_cast<size_t>(cells);
        }
    }

    // Give each occupied cell a dense id through an open-addressing table. Slots
    // carry the stamp of the call that filled them, so the table is never cleared.
    size_t slotCount = 16;
    while (slotCount < 2 * entryCount) slotCount *= 2;
    if (cellSlots_.size() < slotCount) cellSlots_.resize(slotCount);
    slotMask_ = static_cast<uint32_t>(slotCount - 1);
    if (++stamp_ == 0) {  // wrapped after 2^32 calls: old stamps could look current
        for (CellSlot& slot : cellSlots_) slot.stamp = 0;
        stamp_ = 1;
    }
    cellCoordinates_.clear();
    entryBodies_.clear();
    entryCells_.clear();
    for (uint32_t index : smallBodies_) {
        const CellRange& range = ranges_[index];
        glm::ivec3 cell;
        for (cell.z = range.lower.z; cell.z <= range.upper.z; ++cell.z) {
            for (cell.y = range.lower.y; cell.y <= range.upper.y; ++cell.y) {
                for (cell.x = range.lower.x; cell.x <= range.upper.x; ++cell.x) {
                    entryBodies_.push_back(index);
                    entryCells_.push_back(findOrAddCell(cell));
                }
            }
        }
    }

    // Counting sort of the entries by cell id. Filling each cell from its end,
    // walking the entries backwards, keeps body order inside a cell and leaves
    // cellStarts_[c] at the cell's start.
    const size_t cellTotal = cellCoordinates_.size();
    cellStarts_.assign(cellTotal + 1, 0);
    for (uint32_t cell : entryCells_) ++cellStarts_[cell];
    uint32_t end = 0;
    for (size_t cell = 0; cell < cellTotal; ++cell) {
        end += cellStarts_[cell];
        cellStarts_[cell] = end;
    }
    cellStarts_[cellTotal] = end;
    cellBodies_.resize(entryBodies_.size());
    for (size_t i = entryBodies_.size(); i-- > 0;)
        cellBodies_[--cellStarts_[entryCells_[i]]] = entryBodies_[i];
}

void BroadPhase::pairsInCells(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic) {
    // Most candidates in a cell are rejected, half of them as duplicates, in no
    // predictable pattern: the tests are combined with & and every candidate is
    // written, kept only if it passes, so the loop has no data-dependent branch.
    for (size_t cell = 0; cell < cellCoordinates_.size(); ++cell) {
        const glm::ivec3 coordinates = cellCoordinates_[cell];
        const uint32_t end = cellStarts_[cell + 1];
        for (uint32_t i = cellStarts_[cell]; i + 1 < end; ++i) {
            const uint32_t a = cellBodies_[i];
            const Aabb boxA = aabbs[a];
            const glm::ivec3 lowerA = ranges_[a].lower;
            const bool staticA = isStatic[a] != 0;
            reservePairs(end - i - 1);
            BodyPair* out = pairs_.data() + pairCount_;
            for (uint32_t j = i + 1; j < end; ++j) {
                const uint32_t b = cellBodies_[j];  // b > a: body order within a cell
                // Report a pair only from the cell holding the lower corner of the
                // two AABBs' intersection: one cell per pair, so no duplicates.
                const glm::ivec3 corner = glm::max(lowerA, ranges_[b].lower);
                const bool inThisCell =
                    (corner.x == coordinates.x) & (corner.y == coordinates.y) & (corner.z == coordinates.z);
                const bool overlap = overlapsWithoutBranches(boxA, aabbs[b]);
                *out = BodyPair{a, b};
                out += inThisCell & !(staticA & (isStatic[b] != 0)) & overlap;
            }
            pairCount_ = static_cast<size_t>(out - pairs_.data());
        }
    }
}

template <typename Visit>
void BroadPhase::forEachBodyInCells(const CellRange& range, Visit visit) const {
    glm::ivec3 cell;
    for (cell.z = range.lower.z; cell.z <= range.upper.z; ++cell.z) {
        for (cell.y = range.lower.y; cell.y <= range.upper.y; ++cell.y) {
            for (cell.x = range.lower.x; cell.x <= range.upper.x; ++cell.x) {
                const uint32_t id = findCell(cell);
                if (id == kNoCell) continue;
                for (uint32_t i = cellStarts_[id]; i < cellStarts_[id + 1]; ++i) {
                    const uint32_t other = cellBodies_[i];
                    // Same one-cell rule as between grid bodies.
                    if (glm::max(range.lower, ranges_[other].lower) == cell) visit(other);
                }
            }
        }
    }
}

void BroadPhase::queryCells(uint32_t large, const std::vector<Aabb>& aabbs,
                            const std::vector<uint8_t>& isStatic) {
    const Aabb& box = aabbs[large];
    forEachBodyInCells(ranges_[large], [&](uint32_t other) {
        if (bothStatic(isStatic, large, other)) return;
        if (box.overlaps(aabbs[other])) addPair(orderedPair(large, other));
    });
}

void BroadPhase::pairsOfLargeBodies(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic) {
    // Large bodies are few (the ground, walls, a few big boxes), so all pairs among them.
    for (size_t i = 0; i < largeBodies_.size(); ++i) {
        const uint32_t a = largeBodies_[i];
        for (size_t j = i + 1; j < largeBodies_.size(); ++j) {
            const uint32_t b = largeBodies_[j];
            if (!bothStatic(isStatic, a, b) && aabbs[a].overlaps(aabbs[b])) addPair(BodyPair{a, b});
        }
    }
    const int64_t gridBodyCount = static_cast<int64_t>(smallBodies_.size());
    for (uint32_t large : largeBodies_) {
        const int64_t cells = cellCount(ranges_[large].lower, ranges_[large].upper);
        if (cells > 0 && cells * kCellLookupCost < gridBodyCount) {
            queryCells(large, aabbs, isStatic);
            continue;
        }
        const Aabb& box = aabbs[large];
        for (uint32_t other : smallBodies_) {
            if (!bothStatic(isStatic, large, other) && box.overlaps(aabbs[other])) {
                addPair(orderedPair(large, other));
            }
        }
    }
}

void BroadPhase::reservePairs(size_t count) {
    // pairs_ only grows and is never cleared: its size is capacity, pairCount_ the fill.
    if (pairs_.size() < pairCount_ + count) pairs_.resize(std::max(2 * pairs_.size(), pairCount_ + count));
}

void BroadPhase::addPair(const BodyPair& pair) {
    reservePairs(1);
    pairs_[pairCount_++] = pair;
}

void BroadPhase::sortPairs(size_t slotCount, std::vector<BodyPair>& outPairs) {
    // Counting sort by a (O(pairs + slots)), then each body's short run by b,
    // instead of an O(P log P) sort of the whole list.
    pairStarts_.assign(slotCount + 1, 0);
    for (size_t i = 0; i < pairCount_; ++i) ++pairStarts_[pairs_[i].a];
    uint32_t end = 0;
    for (size_t a = 0; a < slotCount; ++a) {
        end += pairStarts_[a];
        pairStarts_[a] = end;
    }
    pairStarts_[slotCount] = end;
    // Backwards from each run's end, so a run keeps the order the pairs were found in.
    outPairs.resize(pairCount_);
    for (size_t i = pairCount_; i-- > 0;) outPairs[--pairStarts_[pairs_[i].a]] = pairs_[i];
    const auto byB = [](const BodyPair& p, const BodyPair& q) { return p.b < q.b; };
    for (size_t a = 0; a < slotCount; ++a) {
        BodyPair* begin = outPairs.data() + pairStarts_[a];
        BodyPair* runEnd = outPairs.data() + pairStarts_[a + 1];
        if (runEnd - begin < 2) continue;  // (and begin + 1 must stay inside the array)
        // Distinct b within a run, so any sort gives the same order. Long runs
        // (the ground's) come from a scan in body order and are already sorted;
        // short ones are a few contacts, where insertion sort is quickest.
        if (runEnd - begin > kLongRun) {
            if (!std::is_sorted(begin, runEnd, byB)) std::sort(begin, runEnd, byB);
            continue;
        }
        for (BodyPair* next = begin + 1; next < runEnd; ++next) {
            const BodyPair moving = *next;
            BodyPair* hole = next;
            for (; hole > begin && moving.b < (hole - 1)->b; --hole) *hole = *(hole - 1);
            *hole = moving;
        }
    }
}

void BroadPhase::buildFatPairs(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& present,
                               const std::vector<uint8_t>& isStatic) {
    presentBodies_.clear();
    for (uint32_t i = 0; i < present.size(); ++i) {
        if (present[i]) presentBodies_.push_back(i);
    }
    fatAabbs_.resize(aabbs.size());
    for (uint32_t index : presentBodies_) fatAabbs_[index] = fatAabb(aabbs[index]);
    ranges_.resize(present.size());
    pairCount_ = 0;
    fillGrid(fatAabbs_);
    pairsInCells(fatAabbs_, isStatic);
    pairsOfLargeBodies(fatAabbs_, isStatic);
    sortPairs(present.size(), fatPairs_);
    isStale_.assign(present.size(), 0);
    staleBodies_.clear();
    fatPresent_ = present;
    fatStatic_ = isStatic;
    ++gridBuilds_;
}

void BroadPhase::updateMovers(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic) {
    isMover_.assign(aabbs.size(), 0);
    for (uint32_t mover : movers_) {
        isMover_[mover] = 1;
        fatAabbs_[mover] = fatAabb(aabbs[mover]);
        if (!isStale_[mover]) {
            isStale_[mover] = 1;
            staleBodies_.push_back(mover);
        }
    }
    // Pairs of two bodies that kept their fat AABBs still hold.
    fatPairs_.erase(std::remove_if(fatPairs_.begin(), fatPairs_.end(),
                                   [this](const BodyPair& p) { return isMover_[p.a] || isMover_[p.b]; }),
                    fatPairs_.end());
    moverPairs_.clear();
    for (uint32_t mover : movers_) {
        const Aabb& box = fatAabbs_[mover];
        // The grid files stale bodies under their old cells: they are tested
        // directly. A pair of two movers is tested from the lower one only.
        for (uint32_t other : staleBodies_) {
            const bool testedBefore = isMover_[other] && other <= mover;
            if (testedBefore || bothStatic(isStatic, mover, other)) continue;
            if (box.overlaps(fatAabbs_[other])) moverPairs_.push_back(orderedPair(mover, other));
        }
        for (uint32_t large : largeBodies_) {
            if (isStale_[large] || bothStatic(isStatic, mover, large)) continue;
            if (box.overlaps(fatAabbs_[large])) moverPairs_.push_back(orderedPair(mover, large));
        }
        moverPairsInCells(mover, isStatic);
    }
    const auto byKey = [](const BodyPair& p, const BodyPair& q) { return p.key() < q.key(); };
    std::sort(moverPairs_.begin(), moverPairs_.end(), byKey);
    mergedPairs_.clear();
    std::merge(fatPairs_.begin(), fatPairs_.end(), moverPairs_.begin(), moverPairs_.end(),
               std::back_inserter(mergedPairs_), byKey);
    std::swap(fatPairs_, mergedPairs_);
}

void BroadPhase::moverPairsInCells(uint32_t mover, const std::vector<uint8_t>& isStatic) {
    const Aabb& box = fatAabbs_[mover];
    const CellRange range = cellRangeOf(box);
    const int64_t cells = cellCount(range.lower, range.upper);
    if (cells <= 0 || cells > kMaxCellsPerGridBody) {
        // Too big for the grid now (or inverted): tested against every grid body, as a large body is.
        for (uint32_t other : smallBodies_) {
            if (isStale_[other] || bothStatic(isStatic, mover, other)) continue;
            if (box.overlaps(fatAabbs_[other])) moverPairs_.push_back(orderedPair(mover, other));
        }
        return;
    }
    // The mover's cells of now against the others' cells of the build.
    forEachBodyInCells(range, [&](uint32_t other) {
        if (isStale_[other] || bothStatic(isStatic, mover, other)) return;
        if (box.overlaps(fatAabbs_[other])) moverPairs_.push_back(orderedPair(mover, other));
    });
}

void BroadPhase::findPairs(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& present,
                           const std::vector<uint8_t>& isStatic, std::vector<BodyPair>& outPairs) {
    if (gridBuilds_ == 0 || present != fatPresent_ || isStatic != fatStatic_) {
        buildFatPairs(aabbs, present, isStatic);
    } else {
        movers_.clear();
        for (uint32_t index : presentBodies_) {
            const Aabb& box = aabbs[index];
            const Aabb& fat = fatAabbs_[index];
            // Written so that a NaN coordinate counts as out.
            const bool inside = (fat.lower.x <= box.lower.x) & (fat.lower.y <= box.lower.y) &
                                (fat.lower.z <= box.lower.z) & (box.upper.x <= fat.upper.x) &
                                (box.upper.y <= fat.upper.y) & (box.upper.z <= fat.upper.z);
            if (!inside) movers_.push_back(index);
        }
        size_t newlyStale = 0;
        for (uint32_t mover : movers_) newlyStale += isStale_[mover] ? 0 : 1;
        if (staleBodies_.size() + newlyStale > maxStaleBodies(presentBodies_.size())) {
            buildFatPairs(aabbs, present, isStatic);
        } else if (!movers_.empty()) {
            updateMovers(aabbs, isStatic);
        }
    }
    outPairs.clear();
    for (const BodyPair& pair : fatPairs_) {
        if (aabbs[pair.a].overlaps(aabbs[pair.b])) outPairs.push_back(pair);
    }
}

}  // namespace impulse
