// Leak site identity for baselines and diffs: the kind and the first frames
// of the program's own code (up to main; CUDA and C/C++ runtime frames left
// out) as function + source file:line (or module), so that it survives ASLR,
// rebuilds that do not touch the code, and another machine's libc.
#pragma once
#include <string>

#include "report/model/report.h"

namespace cudaleak::gate {

inline constexpr size_t kSiteFrames = 4;

std::string site_of(const report::LeakGroup& group);

}  // namespace cudaleak::gate
