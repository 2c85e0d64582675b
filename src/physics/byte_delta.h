// An array's bytes stored as where they differ from a base array of the same
// length: a keyframe of a resting pile differs from an earlier one in about a
// tenth of its bytes (the low bits of jittering floats), so it is kept as those
// bytes against a shared full keyframe (world_snapshot.h).
//
// Layout: one bit per 8-byte word of the array (set: the word differs), then for
// each differing word a byte whose bits say which of its bytes differ, followed
// by those bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace impulse {

class ByteDelta {
public:
    /// The bytes of `now` that differ from `base` (both `size` bytes long).
    static ByteDelta encode(const void* now, const void* base, size_t size);
    /// Bytes encode() would keep for these arrays, without keeping them: to decide
    /// between a delta and a full copy before allocating either.
    static size_t encodedBytes(const void* now, const void* base, size_t size);
    /// Writes the differing bytes over `target`, which holds the base's bytes (the
    /// last word's padding never differs, so nothing is written past the end).
    void applyTo(void* target) const;
    /// Bytes held.
    size_t bytes() const { return changedWords_.capacity() * sizeof(uint64_t) + changes_.capacity(); }

private:
    std::vector<uint64_t> changedWords_;  // a bit per 8-byte word
    std::vector<uint8_t> changes_;        // per changed word: its byte mask, then those bytes
};

}  // namespace impulse
