#include "physics/byte_delta.h"

#include <cstring>

namespace impulse {

namespace {

constexpr size_t kWord = 8;
constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;

size_t wordCount(size_t size) {
    return (size + kWord - 1) / kWord;
}

/// Word `index` of `bytes` (`size` long); the last one is padded with zeros.
uint64_t wordAt(const uint8_t* bytes, size_t size, size_t index) {
    uint64_t word = 0;
    const size_t offset = index * kWord;
    if (size - offset >= kWord) {
        std::memcpy(&word, bytes + offset, kWord);
    } else {
        std::memcpy(&word, bytes + offset, size - offset);
    }
    return word;
}

/// The high bit of each byte of `x` that is not zero, without a loop over them.
uint64_t nonZeroByteHighBits(uint64_t x) {
    return (((x & kLow7) + kLow7) | x) & ~kLow7;
}

/// Those high bits packed into a byte, bit k for byte k.
unsigned packHighBits(uint64_t highBits) {
    return unsigned(((highBits >> 7) * 0x0102040810204080ULL) >> 56);
}

}  // namespace

size_t ByteDelta::encodedBytes(const void* now, const void* base, size_t size) {
    const auto* a = static_cast<const uint8_t*>(now);
    const auto* b = static_cast<const uint8_t*>(base);
    size_t total = (wordCount(size) + 63) / 64 * sizeof(uint64_t);
    for (size_t w = 0; w < wordCount(size); ++w) {
        const uint64_t diff = wordAt(a, size, w) ^ wordAt(b, size, w);
        if (diff != 0) total += 1 + size_t(__builtin_popcountll(nonZeroByteHighBits(diff)));
    }
    return total;
}

ByteDelta ByteDelta::encode(const void* now, const void* base, size_t size) {
    const auto* a = static_cast<const uint8_t*>(now);
    const auto* b = static_cast<const uint8_t*>(base);
    ByteDelta delta;
    delta.changedWords_.assign((wordCount(size) + 63) / 64, 0);
    // Written to a scratch buffer of the most it can take, reused (a fresh one would be
    // paged in on every call), then copied to one allocation of its exact size.
    thread_local std::vector<uint8_t> scratch;
    scratch.resize(wordCount(size) * (kWord + 1));
    uint8_t* out = scratch.data();
    for (size_t w = 0; w < wordCount(size); ++w) {
        const uint64_t word = wordAt(a, size, w);
        const uint64_t diff = word ^ wordAt(b, size, w);
        if (diff == 0) continue;
        delta.changedWords_[w / 64] |= uint64_t(1) << (w % 64);
        const unsigned mask = packHighBits(nonZeroByteHighBits(diff));
        *out++ = uint8_t(mask);
        for (unsigned bits = mask; bits != 0; bits &= bits - 1)
            *out++ = uint8_t(word >> (8 * __builtin_ctz(bits)));
    }
    delta.changes_.assign(scratch.data(), out);
    return delta;
}

void ByteDelta::applyTo(void* target) const {
    auto* bytes = static_cast<uint8_t*>(target);
    const uint8_t* in = changes_.data();
    for (size_t group = 0; group < changedWords_.size(); ++group) {
        for (uint64_t words = changedWords_[group]; words != 0; words &= words - 1) {
            uint8_t* word = bytes + (group * 64 + size_t(__builtin_ctzll(words))) * kWord;
            for (unsigned mask = *in++; mask != 0; mask &= mask - 1) word[__builtin_ctz(mask)] = *in++;
        }
    }
}

}  // namespace impulse
