// Software prefetch for the step's passes over large records. In a large
// scene the manifolds, constraints and bodies do not fit in the caches, and
// the hardware prefetcher does not keep up with walks at such strides, even in
// order (docs/physics.md, "Batches", has the figures).
#pragma once

#include <cstddef>
#include <vector>

namespace impulse {

/// How many records ahead an in-order walk asks for: about what arrives from
/// memory while the walk works on one.
inline constexpr size_t kPrefetchRecordsAhead = 4;
/// How many pairs ahead a walk over the pairs in key order asks for the second
/// body of a pair, which it reaches out of order.
inline constexpr size_t kPrefetchPairsAhead = 8;

/// Asks for the cache lines of `bytes` bytes from `first`, to read or to write.
inline void prefetchBytes(const void* first, size_t bytes) {
    for (size_t offset = 0; offset < bytes; offset += 64) {
        __builtin_prefetch(static_cast<const char*>(first) + offset, 0);
    }
}
inline void prefetchBytesForWrite(const void* first, size_t bytes) {
    for (size_t offset = 0; offset < bytes; offset += 64) {
        __builtin_prefetch(static_cast<const char*>(first) + offset, 1);
    }
}

/// For a walk over `records` that is at `index`: the record kPrefetchRecordsAhead on.
template <typename T>
inline void prefetchAhead(const std::vector<T>& records, size_t index) {
    if (index + kPrefetchRecordsAhead < records.size()) {
        prefetchBytes(&records[index + kPrefetchRecordsAhead], sizeof(T));
    }
}
template <typename T>
inline void prefetchAheadForWrite(const std::vector<T>& records, size_t index) {
    if (index + kPrefetchRecordsAhead < records.size()) {
        prefetchBytesForWrite(&records[index + kPrefetchRecordsAhead], sizeof(T));
    }
}

/// For a walk over `records` that is at `index` and reaches something out of
/// order through each record (the second body of a manifold): the record
/// kPrefetchPairsAhead on, to ask for what it leads to, or null past the end.
/// That record's first line was asked for as many records before, here, so
/// reading it does not stall. (A pointer, not a callback: GCC 12 drops a
/// prefetch made in a lambda, taking the call for one without effect.)
template <typename T>
inline const T* recordToPrefetchThrough(const std::vector<T>& records, size_t index) {
    const size_t target = index + kPrefetchPairsAhead, header = target + kPrefetchPairsAhead;
    if (header < records.size()) prefetchBytes(&records[header], 1);
    return target < records.size() ? &records[target] : nullptr;
}

}  // namespace impulse
