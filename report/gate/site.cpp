#include "report/gate/site.h"

#include "report/model/cuda_frames.h"

namespace cudaleak::gate {

std::string site_of(const report::LeakGroup& g) {
  std::string site = report::text_of(g.kind);
  size_t taken = 0;
  for (const report::Frame* f : report::program_frames(g.stack)) {
    site += " | ";
    site += f->function.empty() ? "?" : f->function;
    if (!f->file.empty()) site += " @ " + report::basename(f->file) + ":" + std::to_string(f->line);
    else site += " @ " + report::basename(f->module);
    if (++taken == kSiteFrames || report::is_program_entry(*f)) break;
  }
  if (taken == 0) site += " | " + g.api;
  return site;
}

}  // namespace cudaleak::gate
