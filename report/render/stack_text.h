// A stack as the text renderings print it: frames numbered from the
// innermost, runs inside one CUDA library and static cudart's internals
// counted, the C runtime below main left out (unless full stacks are asked
// for). Apart from the text report so that its sections (growth_text.h) can
// print stacks without including it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "common/record/frame.h"
#include "report/render/text_options.h"

namespace cudaleak::render {

// A stack as the summaries print it (CUDA libraries' runs counted, the C
// runtime below main left out, as `options` says), or "<no stack>".
std::string stack_text(const std::vector<report::Frame>& stack, const TextOptions& options, const std::string& api);
// The frames of `stack` from `first` on, at most `max_frames` of them (every
// one with `full_stacks`), appended to `out`; `api` names a static cudart
// frame that no public entry point follows. Nothing for an empty stack.
void append_stack(std::string& out, const std::vector<report::Frame>& stack, size_t first, size_t max_frames,
                  bool full_stacks, const std::string& api);

}  // namespace cudaleak::render
