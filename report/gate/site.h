// Leak site identity for baselines and diffs: the kind and the first frames
// of the program's own code (up to main; CUDA and C/C++ runtime frames left
// out) as function + source file:line (or module), so that it survives ASLR,
// rebuilds that do not touch the code, and another machine's libc.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::gate {

inline constexpr size_t kSiteFrames = 4;

// `modules`: the report's, to name a frame without a function by its offset
// in its module ("? @ libfoo.so+0x1a2b"), so that sites of an unsymbolized
// report stay apart; without them such a frame is named by its module alone.
std::string site_of(const report::LeakGroup& group, const std::vector<report::Module>& modules = {});

}  // namespace cudaleak::gate
