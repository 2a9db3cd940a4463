// Leak site identity for baselines and diffs: the kind and the first frames
// of the program's own code as function + source file:line (or module), so
// that it survives ASLR and rebuilds that do not touch the code.
#pragma once
#include <string>

#include "report.h"

namespace cudaleak::gate {

inline constexpr size_t kSiteFrames = 4;

std::string site_of(const report::LeakGroup& group);

}  // namespace cudaleak::gate
