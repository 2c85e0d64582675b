// Broadphase: a uniform grid hashed into a power-of-two table. Cost is linear
// in the body count: each body touches a bounded number of cells, and each cell
// holds a bounded number of bodies. Bodies too big for the grid (ground, walls)
// are kept in a short list and tested on their own.
//
// The grid is built over "fat" AABBs, each grown by kFatMargin, and its pairs
// are kept: while every AABB stays inside its fat one (a resting pile), a call
// only filters the kept pairs by the AABBs of now. Any two overlapping AABBs
// lie inside overlapping fat ones, so the answer is the same as a fresh grid's.
// Bodies that leave their fat AABBs (a settling pile) get new ones, and their
// pairs are found again through the grid's cells, which file them under their
// old ones ("stale" bodies: those are tested against each other directly),
// until so many have moved that a new grid is cheaper.
#pragma once

#include "physics/shape.h"

#include <glm/vec3.hpp>

#include <algorithm>
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

    /// Grids built so far (the calls that could not reuse the fat pairs).
    uint64_t gridBuilds() const { return gridBuilds_; }

    /// m on every side. Resting bodies creep far less than this; a larger
    /// margin only adds kept pairs that the filter rejects.
    static constexpr float kFatMargin = 0.05f;
    /// Most stale bodies (out of the fat AABBs the grid was built with) that the
    /// calls handle without building the grid: this many, or one in
    /// kStaleShareOfBodies present bodies if that is more. Each call tests its
    /// movers against every stale body, so their cost grows with the square of
    /// this; a relative limit keeps a large pile from building the grid after
    /// every step in which a few of its bodies move (figures in docs/physics.md).
    static constexpr size_t kMaxStaleWithoutGrid = 32;
    static constexpr size_t kStaleShareOfBodies = 16;
    static size_t maxStaleBodies(size_t presentBodies) {
        return std::max(kMaxStaleWithoutGrid, presentBodies / kStaleShareOfBodies);
    }

private:
    /// Inclusive range of grid cells an AABB touches.
    struct CellRange {
        glm::ivec3 lower;
        glm::ivec3 upper;
    };
    /// Open-addressing slot mapping a cell to its dense id for this call; the
    /// cell itself is cellCoordinates_[id], which keeps slots small.
    struct CellSlot {
        uint32_t id;
        uint32_t stamp;  // the call that filled the slot; other stamps mean empty
    };
    static constexpr uint32_t kNoCell = ~0u;
    void buildFatPairs(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& present,
                       const std::vector<uint8_t>& isStatic);
    /// New fat AABBs for movers_, which become stale, and their pairs found
    /// again: with the stale bodies and the large ones by direct tests, with
    /// the others by looking up the grid's cells.
    void updateMovers(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic);
    /// Pairs of `mover` (stale) with the non-stale grid bodies in the cells of its fat AABB.
    void moverPairsInCells(uint32_t mover, const std::vector<uint8_t>& isStatic);

    float chooseCellSize(const std::vector<Aabb>& aabbs);
    /// The cells `box` touches, with the cell size of the last grid.
    CellRange cellRangeOf(const Aabb& box) const;
    void fillGrid(const std::vector<Aabb>& aabbs);
    void pairsInCells(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic);
    void pairsOfLargeBodies(const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic);
    uint32_t findCell(const glm::ivec3& cell) const;
    uint32_t findOrAddCell(const glm::ivec3& cell);
    /// Calls visit(body) for each grid body filed in the cells of `range` whose
    /// pair with a body of that range belongs to the cell: the one holding the
    /// lower corner of the two ranges' overlap, so that each pair comes once.
    template <typename Visit>
    void forEachBodyInCells(const CellRange& range, Visit visit) const;
    void queryCells(uint32_t large, const std::vector<Aabb>& aabbs, const std::vector<uint8_t>& isStatic);
    void reservePairs(size_t count);
    void addPair(const BodyPair& pair);
    void sortPairs(size_t slotCount, std::vector<BodyPair>& outPairs);

    // Scratch kept between calls so a step does not allocate.
    std::vector<uint32_t> presentBodies_;
    std::vector<uint32_t> smallBodies_;  // in the grid, ascending index
    std::vector<uint32_t> largeBodies_;  // tested on their own, ascending index
    std::vector<CellRange> ranges_;      // per slot; valid for present bodies
    std::vector<float> extents_;
    std::vector<CellSlot> cellSlots_;          // power-of-two size
    std::vector<glm::ivec3> cellCoordinates_;  // per cell id, ids in order of first use
    std::vector<uint32_t> entryBodies_;        // one (body, cell id) entry per cell a body touches,
    std::vector<uint32_t> entryCells_;         // in body order
    std::vector<uint32_t> cellStarts_;         // cell c holds cellBodies_[starts[c], starts[c + 1])
    std::vector<uint32_t> cellBodies_;         // entries' bodies grouped by cell, ascending in a cell
    std::vector<BodyPair> pairs_;              // unsorted; the first pairCount_ are this call's
    size_t pairCount_ = 0;
    std::vector<uint32_t> pairStarts_;  // per body a: first slot of its pairs in the output
    // The grid's input and output, kept for the calls that reuse them.
    std::vector<Aabb> fatAabbs_;
    std::vector<uint8_t> fatPresent_, fatStatic_;
    std::vector<BodyPair> fatPairs_;  // sorted by (a, b)
    std::vector<uint32_t> movers_;    // present bodies out of their fat AABBs, ascending
    std::vector<uint8_t> isMover_;    // per slot
    std::vector<uint32_t> staleBodies_;  // moved out of their fat AABBs since the grid was built
    std::vector<uint8_t> isStale_;       // per slot
    std::vector<BodyPair> moverPairs_, mergedPairs_;
    uint64_t gridBuilds_ = 0;
    double inverseCellSize_ = 1.0;
    uint32_t slotMask_ = 0;
    uint32_t stamp_ = 0;
};

}  // namespace impulse
