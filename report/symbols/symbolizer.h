// Resolves instruction pointers of this process to module, function (demangled)
// and file:line with elfutils libdw; falls back to dladdr for the function name
// where an object has no usable symbol table.
#pragma once
#include <memory>

#include "../model/raw.h"

namespace cudaleak::symbols {

std::unique_ptr<report::FrameResolver> make_process_symbolizer();

// Only the module of each frame, for reports written without symbolization.
std::unique_ptr<report::FrameResolver> make_module_resolver();

}  // namespace cudaleak::symbols
