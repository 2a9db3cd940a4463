#include "report/render/jax_text.h"

#include "common/enum_names.h"
#include "common/quantities.h"
#include "report/oom/diagnose_jax.h"

namespace cudaleak::report {

std::string jax_view_text(const Report& r, const std::string& prefix,
                          const std::function<std::string(int64_t pid, int rank)>& process) {
  if (!r.has_jax || r.jax.when == ViewMoment::Oom) return "";
  std::string out;
  for (const JaxDevice& d : r.jax.devices) {
    if (!d.arrays_bytes && !d.bytes_in_use && !d.no_memory_arrays) continue;
    const std::vector<oom::JaxLine> lines = oom::jax_lines(d);
    out += "\n" + prefix + "JAX at " + text_of(r.jax.when) + " on device " + std::to_string(d.device) +
           (r.processes.size() > 1 && d.pid ? " in " + process(d.pid, d.rank) : "") + ": " + oom::jax_pool_text(d) +
           " (not leaks, not gated)" + (lines.empty() && !d.no_memory_arrays ? "\n" : ":\n");
    for (size_t i = 0; i < lines.size() && i < 5; ++i) out += "    " + oom::jax_line_text(lines[i]) + "\n";
    for (const std::string& text : oom::jax_no_memory_texts(d)) out += "    " + text + "\n";
  }
  if (!out.empty() && r.jax.source == "live_arrays") out += "    (" + r.jax.note + ")\n";
  if (!out.empty() && r.jax.executables_bytes)
    out += "    and " + format_bytes(r.jax.executables_bytes) + " of compiled executables, as JAX's profile counts them\n";
  return out;
}

}  // namespace cudaleak::report
