// Forgetting the stacks that nothing holds any more (stack_depot.h says when
// a collection runs and why a forgotten id is never handed out again).
// Gathers every stack id the tracker keeps (live and torn-down records, notes,
// reservations, the timeline's sites, points and peaks) and what the layers
// above keep, through the function they set at start-up.
#pragma once
#include <cstdint>
#include <vector>

namespace cudaleak::tracker {

struct State;

// The runtime's holders (out-of-memory events, growth history, launches in
// flight): appends their stack ids. Called with no lock held; takes theirs.
void set_stack_holders(void (*holders)(std::vector<uint32_t>& out));

// Runs a collection if one is due and none is under way. The caller holds no
// lock: this takes the registry's, the side state's, the timeline's and the
// holders' in turn, one at a time.
void collect_stacks(State& s);

}  // namespace cudaleak::tracker
