#pragma once
#include <cstdint>
#include <string>

namespace cudaleak {

// The words for quantities, in one place for every rendering: sizes in the
// largest binary unit under 1024 ("1.0 GiB", never "1024.0 MiB"), durations
// in the unit that keeps them readable ("850 ns", "12.5 ms", "2.50 s",
// "3 min 05 s"), and counts with their noun ("1 leak group", "2 leak groups").
std::string format_bytes(uint64_t bytes);
std::string format_duration(uint64_t ns);
std::string count_of(uint64_t n, const std::string& one, const std::string& many);

// Sums of sizes read from files: at most the largest value, never wrapped to
// a small one by a report that holds sizes near 2^64.
inline void add_saturating(uint64_t& into, uint64_t v) { into = into > UINT64_MAX - v ? UINT64_MAX : into + v; }

}  // namespace cudaleak
