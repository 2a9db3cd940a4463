#include "report/gate/site.h"

#include <cinttypes>
#include <cstdio>
#include <string_view>

#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"

namespace cudaleak::gate {

namespace {
// "+0x..." of `f` in its module, when the report lists the module; else "".
std::string module_offset(const report::Frame& f, const std::vector<report::Module>& modules) {
  for (const report::Module& m : modules)
    if (m.path == std::string_view(f.module) && f.ip >= m.base) {
      char text[24];
      std::snprintf(text, sizeof text, "+%#" PRIx64, f.ip - m.base);
      return text;
    }
  return "";
}
}  // namespace

std::string site_of(const report::LeakGroup& g, const std::vector<report::Module>& modules) {
  std::string site = report::text_of(g.kind);
  size_t taken = 0;
  for (const report::Frame* f : report::program_frames(g.stack)) {
    site += " | ";
    site += f->function.empty() ? "?" : f->function;
    if (!f->file.empty()) site += " @ " + report::basename(f->file) + ":" + std::to_string(f->line);
    else if (f->function.empty()) site += " @ " + report::basename(f->module) + module_offset(*f, modules);
    else site += " @ " + report::basename(f->module);
    if (++taken == kSiteFrames || report::is_program_entry(*f)) break;
  }
  if (taken == 0) site += " | " + g.api;
  return site;
}

}  // namespace cudaleak::gate
