// One story per out-of-memory failure the program saw. A caching allocator
// (PyTorch's, CuPy's, XLA's) that gets out-of-memory from CUDA frees its
// cache and tries again, and only then fails (PyTorch raises, after calling
// its out-of-memory observer). The failed calls before the failure are its
// attempts, listed inside its event, never events of their own.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::oom {

// Attempts further apart than this from the failure belong to another story.
inline constexpr uint64_t kRetryWindowNs = 10'000'000'000;
// XLA's BFC allocator waits this long for arrays to be freed (retrying its
// pool's growth) before it raises: its failed calls come up to this much
// earlier than its failure (10 s on an H200, jaxlib 0.11), beside the window.
inline constexpr uint64_t kXlaWaitNs = 10'000'000'000;

// A failed call as an attempt of a later failure.
report::OomAttempt attempt_of(const report::OomEvent& failed);

// Whether `failed`, a call made by the caching allocator `failed_cache`
// (empty: none known) and held back, is an attempt of `later`, made by
// `later_cache`: PyTorch's own out-of-memory ends the failed calls of its
// allocator on that device; a retry ends the failed call of the same
// allocator, size and device before it.
bool is_attempt(const report::OomEvent& failed, const std::string& failed_cache, const report::OomEvent& later,
                const std::string& later_cache);

// Reports of format version 1 list the cudaMalloc calls that failed under
// PyTorch as events of their own before PyTorch's: folded into it here, as
// a version 2 report keeps them.
void fold_attempts(std::vector<report::OomEvent>& events);

}  // namespace cudaleak::oom
