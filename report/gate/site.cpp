#include "site.h"

#include "cuda_frames.h"

namespace cudaleak::gate {

namespace {
std::string basename(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

std::string site_of(const report::LeakGroup& g) {
  std::string site = g.kind;
  size_t taken = 0;
  for (const auto& f : g.stack) {
    if (report::is_cuda_frame(f)) continue;
    site += " | ";
    site += f.function.empty() ? "?" : f.function;
    if (!f.file.empty()) site += " @ " + basename(f.file) + ":" + std::to_string(f.line);
    else site += " @ " + basename(f.module);
    if (++taken == kSiteFrames) break;
  }
  if (taken == 0) site += " | " + g.api;
  return site;
}

}  // namespace cudaleak::gate
