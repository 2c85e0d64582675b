// Number formatting and step-time statistics for the --summary JSON of
// impulse-sim and of the benchmark's bullet-sim, so both report the same
// figures the same way.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace impulse::cli {

/// The shortest decimal that reads back as the same float, so a summary shows
/// 1.5 rather than 1.5000000596046448.
inline double shortest(float f) {
    char text[32];
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(f));
        const double d = std::strtod(text, nullptr);
        if (static_cast<float>(d) == f) return d;
    }
    return static_cast<double>(f);
}

/// {median, p95, mean, max} of per-step times in ms; p95 is the nearest-rank percentile.
inline nlohmann::ordered_json stepTimeSummary(std::vector<double> stepMs) {
    if (stepMs.empty()) return {{"median", 0.0}, {"p95", 0.0}, {"mean", 0.0}, {"max", 0.0}};
    std::sort(stepMs.begin(), stepMs.end());
    const std::size_t n = stepMs.size();
    double mean = 0.0;
    for (double t : stepMs) mean += t;
    mean /= static_cast<double>(n);
    const double median = n % 2 == 1 ? stepMs[n / 2] : 0.5 * (stepMs[n / 2 - 1] + stepMs[n / 2]);
    const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
    const double p95 = stepMs[std::min(n - 1, rank == 0 ? 0 : rank - 1)];
    return {{"median", median}, {"p95", p95}, {"mean", mean}, {"max", stepMs.back()}};
}

}  // namespace impulse::cli
