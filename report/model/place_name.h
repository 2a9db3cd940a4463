// A place in the program as a report names it: "function (file:line)", the
// function alone where no file is known. The report stores such names (an
// out-of-memory site's and a growing line's `where`), so they are made below
// the assembler and every renderer.
#pragma once
#include <string>
#include <vector>

#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/model/report.h"

namespace cudaleak::report {

inline std::string frame_line(const Frame& f) {
  std::string line = f.python ? f.function.str() : plain_name(f.function);
  if (!f.file.empty()) line += " (" + basename(f.file) + ":" + std::to_string(f.line) + ")";
  return line;
}

// frame_line of the user_frame of `stack`; `api` when it has none.
inline std::string where_of(const std::vector<Frame>& stack, const std::string& api) {
  const Frame* f = user_frame(stack);
  return f ? frame_line(*f) : api;
}

}  // namespace cudaleak::report
