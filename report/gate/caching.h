// Memory held by a known caching allocator at exit is not a leak: PyTorch,
// CuPy, JAX/XLA and RMM keep freed blocks in their caches until the process
// ends, by design, and numba's freed arrays wait in its deallocation queue.
// Such groups are classified by their stack (the allocator's own frames,
// documented in docs/ci.md#caching-allocators) and reported as
// "cached by <allocator>", apart from leaks, and not counted by the gate
// unless asked (gate_cached).
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::gate {

// The allocator that holds `group`, or "" when none of the known ones does.
std::string caching_allocator_of(const report::LeakGroup& group);
// The same, for the stack that made a resource.
std::string caching_allocator_of(const std::vector<report::Frame>& stack);
// Whether `frame` is a function of a known caching allocator's own code.
bool in_caching_allocator(const report::Frame& frame);
// Whether what `allocator` holds while the program runs is freed blocks kept
// for reuse (PyTorch's, CuPy's, XLA's, RMM's), rather than the program's own
// arrays whose frees it merely delays (numba's deallocation queue, emptied
// before an allocation is allowed to fail).
bool keeps_freed_blocks(const std::string& allocator);

}  // namespace cudaleak::gate
