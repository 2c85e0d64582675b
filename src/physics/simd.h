// Lane-parallel float math for the contact solver: kSimdWidth contacts at a
// time, one per lane (as in Box2D v3's wide solver). AVX when the build
// enables it (CMake option IMPULSE_AVX2), otherwise SSE2, which every x86-64
// CPU has. Every operation is a plain IEEE single-precision operation per
// lane, so a lane computes exactly what the scalar code would: results do
// not depend on the width.
#pragma once

#if defined(__AVX__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#else
#error "impulse_physics needs SSE2 (x86-64) for its contact solver"
#endif

namespace impulse {

#if defined(__AVX__)
constexpr int kSimdWidth = 8;
struct FloatW {
    __m256 v;
};
inline FloatW splat(float x) { return {_mm256_set1_ps(x)}; }
inline FloatW load(const float* p) { return {_mm256_load_ps(p)}; }
inline void store(float* p, FloatW a) { _mm256_store_ps(p, a.v); }
inline FloatW operator+(FloatW a, FloatW b) { return {_mm256_add_ps(a.v, b.v)}; }
inline FloatW operator-(FloatW a, FloatW b) { return {_mm256_sub_ps(a.v, b.v)}; }
inline FloatW operator*(FloatW a, FloatW b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline FloatW operator/(FloatW a, FloatW b) { return {_mm256_div_ps(a.v, b.v)}; }
// Operands swapped so that, like std::min/std::max, a NaN in `a` comes through.
inline FloatW min(FloatW a, FloatW b) { return {_mm256_min_ps(b.v, a.v)}; }
inline FloatW max(FloatW a, FloatW b) { return {_mm256_max_ps(b.v, a.v)}; }
inline FloatW sqrt(FloatW a) { return {_mm256_sqrt_ps(a.v)}; }
/// All bits set in the lanes where a > b (a mask).
inline FloatW greater(FloatW a, FloatW b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
inline FloatW notEqual(FloatW a, FloatW b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_NEQ_UQ)}; }
inline FloatW operator|(FloatW a, FloatW b) { return {_mm256_or_ps(a.v, b.v)}; }
/// mask ? a : b, lane by lane.
inline FloatW select(FloatW mask, FloatW a, FloatW b) { return {_mm256_blendv_ps(b.v, a.v, mask.v)}; }
/// True if the mask is set in some lane.
inline bool anyLane(FloatW mask) { return _mm256_movemask_ps(mask.v) != 0; }

// An 8x8 transpose in registers: row i, float k -> r[k], lane i.
inline void transpose8x8(__m256 r[8]) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

/// Loads the 8 floats of each lane's row and returns them as columns: out[k]
/// holds float k of every row.
inline void transposeLoad(const float* const rows[kSimdWidth], FloatW out[8]) {
    __m256 r[8];
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(rows[i]);
    transpose8x8(r);
    for (int k = 0; k < 8; ++k) out[k].v = r[k];
}

/// The inverse: column k back into float k of every lane's row (all 8 floats).
inline void transposeStore(float* const rows[kSimdWidth], const FloatW columns[8]) {
    __m256 r[8];
    for (int k = 0; k < 8; ++k) r[k] = columns[k].v;
    transpose8x8(r);
    for (int i = 0; i < 8; ++i) _mm256_storeu_ps(rows[i], r[i]);
}
#else
constexpr int kSimdWidth = 4;
struct FloatW {
    __m128 v;
};
inline FloatW splat(float x) { return {_mm_set1_ps(x)}; }
inline FloatW load(const float* p) { return {_mm_load_ps(p)}; }
inline void store(float* p, FloatW a) { _mm_store_ps(p, a.v); }
inline FloatW operator+(FloatW a, FloatW b) { return {_mm_add_ps(a.v, b.v)}; }
inline FloatW operator-(FloatW a, FloatW b) { return {_mm_sub_ps(a.v, b.v)}; }
inline FloatW operator*(FloatW a, FloatW b) { return {_mm_mul_ps(a.v, b.v)}; }
inline FloatW operator/(FloatW a, FloatW b) { return {_mm_div_ps(a.v, b.v)}; }
inline FloatW min(FloatW a, FloatW b) { return {_mm_min_ps(b.v, a.v)}; }
inline FloatW max(FloatW a, FloatW b) { return {_mm_max_ps(b.v, a.v)}; }
inline FloatW sqrt(FloatW a) { return {_mm_sqrt_ps(a.v)}; }
inline FloatW greater(FloatW a, FloatW b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
inline FloatW notEqual(FloatW a, FloatW b) { return {_mm_cmpneq_ps(a.v, b.v)}; }
inline FloatW operator|(FloatW a, FloatW b) { return {_mm_or_ps(a.v, b.v)}; }
inline FloatW select(FloatW mask, FloatW a, FloatW b) {
    return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))};
}
inline bool anyLane(FloatW mask) { return _mm_movemask_ps(mask.v) != 0; }

inline void transposeLoad(const float* const rows[kSimdWidth], FloatW out[8]) {
    for (int half = 0; half < 2; ++half) {
        __m128 r0 = _mm_loadu_ps(rows[0] + 4 * half), r1 = _mm_loadu_ps(rows[1] + 4 * half);
        __m128 r2 = _mm_loadu_ps(rows[2] + 4 * half), r3 = _mm_loadu_ps(rows[3] + 4 * half);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        out[4 * half + 0].v = r0;
        out[4 * half + 1].v = r1;
        out[4 * half + 2].v = r2;
        out[4 * half + 3].v = r3;
    }
}

inline void transposeStore(float* const rows[kSimdWidth], const FloatW columns[8]) {
    for (int half = 0; half < 2; ++half) {
        __m128 r0 = columns[4 * half].v, r1 = columns[4 * half + 1].v;
        __m128 r2 = columns[4 * half + 2].v, r3 = columns[4 * half + 3].v;
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        _mm_storeu_ps(rows[0] + 4 * half, r0);
        _mm_storeu_ps(rows[1] + 4 * half, r1);
        _mm_storeu_ps(rows[2] + 4 * half, r2);
        _mm_storeu_ps(rows[3] + 4 * half, r3);
    }
}
#endif

inline FloatW operator-(FloatW a) { return splat(0.0f) - a; }

struct Vec3W {
    FloatW x, y, z;
};
inline Vec3W operator+(const Vec3W& a, const Vec3W& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3W operator-(const Vec3W& a, const Vec3W& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3W operator*(FloatW s, const Vec3W& a) { return {s * a.x, s * a.y, s * a.z}; }
inline FloatW dot(const Vec3W& a, const Vec3W& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3W cross(const Vec3W& a, const Vec3W& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Vec3W select(FloatW mask, const Vec3W& a, const Vec3W& b) {
    return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}

/// How a FloatW is kept in memory: one float per lane, aligned for vector loads.
struct alignas(sizeof(float) * kSimdWidth) Lanes {
    float v[kSimdWidth] = {};
};
struct Lanes3 {
    Lanes x, y, z;
};
inline FloatW load(const Lanes& l) { return load(l.v); }
inline void store(Lanes& l, FloatW a) { store(l.v, a); }
inline Vec3W load(const Lanes3& l) { return {load(l.x), load(l.y), load(l.z)}; }
inline void store(Lanes3& l, const Vec3W& a) {
    store(l.x, a.x);
    store(l.y, a.y);
    store(l.z, a.z);
}

}  // namespace impulse
