// ByteDelta (byte_delta.h): an array kept as its bytes that differ from a base.
#include "physics/byte_delta.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace impulse {
namespace {

/// 37 bytes: four whole words and a partial one.
std::vector<uint8_t> baseBytes() {
    std::vector<uint8_t> bytes(37);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(3 * i + 1);
    return bytes;
}

TEST(ByteDelta, GivesTheArrayBackFromItsBase) {
    const std::vector<uint8_t> base = baseBytes();
    std::vector<uint8_t> now = base;
    now[0] ^= 0x01;   // first byte
    now[13] = 0;      // inside a word
    now[14] = 0xFF;   // a neighbour in the same word
    now[36] ^= 0x80;  // last byte, in the partial word
    const ByteDelta delta = ByteDelta::encode(now.data(), base.data(), now.size());
    std::vector<uint8_t> restored = base;
    delta.applyTo(restored.data());
    EXPECT_EQ(restored, now);
    // The word bitmap, then three changed words: a mask and their changed bytes each.
    EXPECT_EQ(ByteDelta::encodedBytes(now.data(), base.data(), now.size()), sizeof(uint64_t) + 3 + 4);
}

TEST(ByteDelta, HoldsOnlyTheChangedBytes) {
    const std::vector<uint8_t> base = baseBytes();
    EXPECT_EQ(ByteDelta::encodedBytes(base.data(), base.data(), base.size()), sizeof(uint64_t))
        << "the bitmap only";
    const ByteDelta none = ByteDelta::encode(base.data(), base.data(), base.size());
    std::vector<uint8_t> copy = base;
    none.applyTo(copy.data());
    EXPECT_EQ(copy, base);
}

// What a delta gives back is its base with the changes: applied to another base, the
// bytes it did not keep come from that one. So a base that changed (or a delta applied
// to the wrong one) shows in what is restored.
TEST(ByteDelta, TheBytesItDidNotKeepComeFromTheBase) {
    const std::vector<uint8_t> base = baseBytes();
    std::vector<uint8_t> now = base;
    now[5] = 0xAB;
    const ByteDelta delta = ByteDelta::encode(now.data(), base.data(), now.size());
    std::vector<uint8_t> otherBase = base;
    otherBase[20] = 0x77;
    delta.applyTo(otherBase.data());
    EXPECT_EQ(otherBase[5], 0xAB);
    EXPECT_EQ(otherBase[20], 0x77);
    otherBase[20] = now[20];
    EXPECT_EQ(otherBase, now);
}

}  // namespace
}  // namespace impulse
