#include "report/render/jax_text.h"

#include "common/enum_names.h"
#include "common/quantities.h"
#include "report/render/jax_words.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


std::string jax_device_text(const JaxDevice& d, ViewMoment when, const std::string& prefix, const std::string& in) {
  const std::vector<oom::JaxLine> lines = oom::jax_lines(d);
  std::string out = "\n" + prefix + "JAX at " + text_of(when) + " on device " + std::to_string(d.device) +
                    (in.empty() ? "" : " in " + in) + ": " + render::jax_pool_text(d) + " (not leaks, not gated)" +
                    (lines.empty() && !d.no_memory_arrays ? "\n" : ":\n");
  for (size_t i = 0; i < lines.size() && i < 5; ++i) out += "    " + render::jax_line_text(lines[i]) + "\n";
  for (const std::string& text : render::jax_no_memory_texts(d)) out += "    " + text + "\n";
  return out;
}

std::string jax_view_notes(const Report& r) {
  std::string out;
  if (r.jax.source == "live_arrays") out += "    (" + r.jax.note + ")\n";
  if (r.jax.executables_bytes)
    out += "    and " + format_bytes(r.jax.executables_bytes) + " of compiled executables" +
           (r.processes.size() > 1 ? " in all" : "") + ", as JAX's profile counts them\n";
  return out;
}

std::string jax_view_text(const Report& r, const std::string& prefix,
                          const std::function<std::string(int64_t pid, int rank)>& process) {
  if (!r.has_jax || r.jax.when == ViewMoment::Oom) return "";
  std::string out;
  for (const JaxDevice& d : r.jax.devices) {
    if (!d.arrays_bytes && !d.bytes_in_use && !d.no_memory_arrays) continue;
    out += jax_device_text(d, r.jax.when, prefix, r.processes.size() > 1 && d.pid ? process(d.pid, d.rank) : "");
  }
  return out.empty() ? out : out + jax_view_notes(r);
}

}  // namespace cudaleak::render
