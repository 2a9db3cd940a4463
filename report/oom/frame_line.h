// A frame as the out-of-memory text names a place: "function (file:line)",
// the function alone where no file is known. Used by diagnose.h and
// diagnose_jax.h alike, and by the renderers.
#pragma once
#include <string>

#include "report/model/cuda_frames.h"
#include "report/model/report.h"

namespace cudaleak::oom {

inline std::string frame_line(const report::Frame& f) {
  std::string line = f.python ? f.function.str() : report::plain_name(f.function);
  if (!f.file.empty()) line += " (" + report::basename(f.file) + ":" + std::to_string(f.line) + ")";
  return line;
}

}  // namespace cudaleak::oom
