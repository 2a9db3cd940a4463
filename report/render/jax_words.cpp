#include "report/render/jax_words.h"

#include "common/quantities.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/model/place_name.h"

namespace cudaleak::render {

using report::Cause;
using report::frame_line;

namespace {

// The value of one XLA_PYTHON_CLIENT_* variable in "A=1 B=2"; "" when unset.
std::string setting(const std::string& settings, const std::string& name) {
  const std::string key = name + "=";
  for (size_t at = settings.find(key); at != std::string::npos; at = settings.find(key, at + 1))
    if (at == 0 || settings[at - 1] == ' ') {
      const size_t start = at + key.size();
      return settings.substr(start, settings.find(' ', start) - start);
    }
  return "";
}

// The operator's own name in XLA's op_name: "jit(step)/jit(main)/dot_general[...]" -> "dot_general".
std::string op_of(const std::string& op_name) {
  std::string s = op_name.substr(0, op_name.find('['));
  if (size_t slash = s.rfind('/'); slash != std::string::npos) s = s.substr(slash + 1);
  return s;
}

std::string peak_buffer_text(const report::JaxPeakBuffer& b) {
  std::string s = format_bytes(b.bytes);
  if (!b.shape.empty()) s += " " + b.shape;
  if (!b.op.empty()) s += " for " + op_of(b.op);
  if (!b.file.empty()) s += " at " + report::basename(b.file) + ":" + std::to_string(b.line);
  return s;
}

std::string percent(uint64_t part, uint64_t whole) {
  return std::to_string(whole ? (part * 100 + whole / 2) / whole : 0) + "%";
}

std::string compiled_text(const report::OomEvent& e) {
  const report::JaxCompiled& c = e.jax.compiled;
  const report::JaxDevice& d = e.jax.device;
  std::string msg = "the jitted function's own buffers need " + format_bytes(c.total_bytes) + " at once (arguments " +
                    format_bytes(c.parameter_bytes) + ", outputs " + format_bytes(c.output_bytes) + ", temporaries " +
                    format_bytes(c.temp_bytes) + ")";
  if (d.bytes_limit)
    msg += c.total_bytes > d.bytes_limit ? ", more than XLA's whole pool (" + format_bytes(d.bytes_limit) + ")"
                                         : " beside the " + format_bytes(d.bytes_in_use) + " already in use of XLA's " +
                                               format_bytes(d.bytes_limit) + " pool";
  if (!c.peak_buffers.empty()) {
    msg += "; its biggest buffers: ";
    for (size_t i = 0; i < c.peak_buffers.size() && i < 3; ++i)
      msg += (i ? "; " : "") + peak_buffer_text(c.peak_buffers[i]);
  }
  return msg +
         ". Fix: a smaller batch, donate the arguments it replaces (jax.jit(..., donate_argnums=...)), or recompute "
         "activations in the backward pass (jax.checkpoint)";
}

std::string arrays_text(const report::OomEvent& e, const report::Diagnosis& diagnosis) {
  const report::JaxDevice& d = e.jax.device;
  const std::vector<oom::JaxLine> lines = oom::jax_lines(d);
  std::string msg = format_bytes(d.arrays_bytes) + " is held by " + count_of(d.arrays, "live array", "live arrays") +
                    ": ";
  for (size_t i = 0; i < lines.size() && i < 3; ++i) msg += (i ? "; " : "") + jax_line_text(lines[i]);
  if (diagnosis.accumulates)
    msg +=
        "; arrays from one line that stay alive accumulate (kept in a list, a dict of every step's results or "
        "params, a closure): del them or keep only what later steps need (jax.device_get copies a result to the host)";
  return msg;
}

std::string pool_pieces_text(const report::OomEvent& e, const report::Diagnosis& d) {
  return "XLA's pool has " + format_bytes(d.bytes) + " free, but in pieces no larger than " +
         format_bytes(e.jax.device.largest_free_block) + ": the " + format_bytes(e.request_bytes) +
         " request fits in none. XLA_PYTHON_CLIENT_ALLOCATOR=platform allocates each array on its own";
}

std::string request_over_pool_text(const report::OomEvent& e) {
  const report::JaxDevice& d = e.jax.device;
  const uint64_t total = e.total_bytes;
  return "the request (" + format_bytes(e.request_bytes) + ") is larger than XLA's whole pool (" +
         format_bytes(d.bytes_limit) + (total ? ", " + percent(d.bytes_limit, total) + " of the device" : "") +
         "): it cannot succeed under this limit. Fix: smaller arrays (a smaller batch, sharding over "
         "devices), or XLA_PYTHON_CLIENT_MEM_FRACTION raised where the device is larger";
}

std::string pool_limit_text(const report::OomEvent& e, const report::Diagnosis& diagnosis) {
  const report::JaxDevice& d = e.jax.device;
  const uint64_t total = e.total_bytes, room = diagnosis.bytes, hundredths = diagnosis.suggested_fraction;
  const std::string fraction = setting(e.jax.settings, "XLA_PYTHON_CLIENT_MEM_FRACTION");
  const bool on_demand = setting(e.jax.settings, "XLA_PYTHON_CLIENT_PREALLOCATE") == "false";
  const std::string suggested = "0." + std::string(hundredths < 10 ? "0" : "") +
                                std::to_string(hundredths % 10 ? hundredths : hundredths / 10);
  std::string msg = "XLA's pool is limited to " + format_bytes(d.bytes_limit) + ", " + percent(d.bytes_limit, total) +
                    " of the device's " + format_bytes(total) + " (XLA_PYTHON_CLIENT_MEM_FRACTION" +
                    (fraction.empty() ? " 0.75 by default" : "=" + fraction) + "), and holds " +
                    format_bytes(d.bytes_in_use) + "; the device has " + format_bytes(room) +
                    (e.device_info ? " free" : "") + " beyond it" +
                    (e.device_info && total - d.bytes_limit > room + (64ull << 20)
                         ? " (other processes and this one's other memory hold the rest)"
                         : "") +
                    ". Fix: XLA_PYTHON_CLIENT_MEM_FRACTION=" + suggested + " gives XLA more of the device" +
                    (on_demand ? "" : ", XLA_PYTHON_CLIENT_PREALLOCATE=false takes memory only as arrays need it");
  if (diagnosis.growing.group >= 0)
    msg += "; while the arrays from " + frame_line(*report::user_frame(d.groups[diagnosis.growing.group].stack)) +
           " keep growing, a bigger pool only delays the failure";
  return msg;
}

}  // namespace

std::string jax_line_text(const oom::JaxLine& l) {
  return format_bytes(l.bytes) + " in " + count_of(l.count, "array", "arrays") + jax_line_origin(l);
}

std::string jax_line_origin(const oom::JaxLine& l) {
  std::string s;
  const report::Frame* f = l.group ? report::user_frame(l.group->stack) : nullptr;
  if (!f) return s + (l.shape.empty() ? "" : " of " + l.shape) + " (no line: JAX gave no stack for them)";
  s += " from " + frame_line(*f);
  if (report::is_library_frame(*f)) s += " (library code: no line of the program among the frames JAX kept)";
  if (!l.shape.empty()) s += (l.count == 1 ? ", " : ", the largest ") + l.shape;
  if (l.count > 1 && l.largest_bytes) s += " (" + format_bytes(l.largest_bytes) + ")";
  return s;
}

std::string jax_pool_text(const report::JaxDevice& d) {
  std::string s;
  if (d.bytes_limit) {
    s = "XLA's pool " + format_bytes(d.bytes_in_use) + " in use of its " + format_bytes(d.bytes_limit) + " limit";
    if (d.peak_bytes_in_use) s += " (peak " + format_bytes(d.peak_bytes_in_use) + ")";
    if (d.largest_free_block) s += ", largest free block " + format_bytes(d.largest_free_block);
    s += "; ";
  }
  s += "live arrays " + format_bytes(d.arrays_bytes) + " in " + std::to_string(d.arrays);
  if (d.no_memory_arrays) s += " (and " + std::to_string(d.no_memory_arrays) + " that hold no memory)";
  return s;
}

std::vector<std::string> jax_no_memory_texts(const report::JaxDevice& d) {
  std::vector<std::string> out;
  for (const report::JaxArrayGroup& g : d.groups) {
    if (!g.no_memory_count) continue;
    const report::Frame* f = report::user_frame(g.stack);
    out.push_back(count_of(g.no_memory_count, "array", "arrays") + (f ? " from " + frame_line(*f) : "") +
                  (g.no_memory_count == 1 ? " holds" : " hold") + " no memory (" + format_bytes(g.no_memory_bytes) +
                  " as their shapes count it, more than XLA's pool holds): their computation failed (XLA ran out of "
                  "memory) and nothing read them, so no error was raised; block_until_ready() or reading a result "
                  "each step raises it where it happens");
  }
  return out;
}

std::string jax_cause_text(const report::OomEvent& e, const report::Diagnosis& d) {
  if (d.form == report::DiagnosisForm::JaxRequestOverPool) return request_over_pool_text(e);
  switch (d.cause) {
    case Cause::CompiledPeak: return compiled_text(e);
    case Cause::LiveTensors: return arrays_text(e, d);
    case Cause::Fragmentation: return pool_pieces_text(e, d);
    default: return pool_limit_text(e, d);
  }
}

}  // namespace cudaleak::render
