#include "site.h"

#include "cuda_frames.h"

namespace cudaleak::gate {

namespace {
std::string basename(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

// The C and C++ runtime differ between the machine that wrote a baseline and
// the CI machine that reads it; their frames say nothing about the leak.
bool is_system_frame(const report::Frame& f) {
  std::string m = basename(f.module);
  for (const char* prefix : {"libc.so", "ld-linux", "libstdc++", "libgcc_s", "libpthread", "libdl.so"})
    if (m.rfind(prefix, 0) == 0) return true;
  return f.function == "_start";
}

std::string site_of(const report::LeakGroup& g) {
  std::string site = g.kind;
  size_t taken = 0;
  for (const auto& f : g.stack) {
    if (report::is_cuda_frame(f) || is_system_frame(f)) continue;
    site += " | ";
    site += f.function.empty() ? "?" : f.function;
    if (!f.file.empty()) site += " @ " + basename(f.file) + ":" + std::to_string(f.line);
    else site += " @ " + basename(f.module);
    if (++taken == kSiteFrames || f.function == "main") break;
  }
  if (taken == 0) site += " | " + g.api;
  return site;
}

}  // namespace cudaleak::gate
