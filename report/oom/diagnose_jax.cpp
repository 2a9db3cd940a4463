#include "report/oom/diagnose_jax.h"

#include <algorithm>
#include <map>

#include "common/quantities.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/oom/frame_line.h"

namespace cudaleak::oom {

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

// The line of the program whose arrays fill the pool: three or more arrays
// holding at least half of every live array's bytes.
const JaxLine* growing_line(const std::vector<JaxLine>& lines, uint64_t arrays_bytes) {
  for (const JaxLine& l : lines)
    if (l.group && report::user_frame(l.group->stack) && l.count >= 3 && l.bytes * 2 >= arrays_bytes) return &l;
  return nullptr;
}

std::string percent(uint64_t part, uint64_t whole) {
  return std::to_string(whole ? (part * 100 + whole / 2) / whole : 0) + "%";
}

void diagnose_compiled(const report::OomEvent& e, std::vector<report::Diagnosis>& out) {
  const report::JaxCompiled& c = e.jax.compiled;
  if (!c.total_bytes) return;
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
  msg +=
      ". Fix: a smaller batch, donate the arguments it replaces (jax.jit(..., donate_argnums=...)), or recompute "
      "activations in the backward pass (jax.checkpoint)";
  out.push_back({report::Cause::CompiledPeak, c.total_bytes, msg});
}

void diagnose_arrays(const report::OomEvent& e, const std::vector<JaxLine>& lines,
                     std::vector<report::Diagnosis>& out) {
  const report::JaxDevice& d = e.jax.device;
  if (!d.arrays_bytes || lines.empty()) return;
  const JaxLine* grower = growing_line(lines, d.arrays_bytes);
  if (!grower && d.bytes_limit && d.arrays_bytes * 10 < d.bytes_limit && d.arrays_bytes < e.request_bytes) return;
  std::string msg = format_bytes(d.arrays_bytes) + " is held by " + count_of(d.arrays, "live array", "live arrays") +
                    ": ";
  for (size_t i = 0; i < lines.size() && i < 3; ++i) msg += (i ? "; " : "") + jax_line_text(lines[i]);
  if (grower)
    msg +=
        "; arrays from one line that stay alive accumulate (kept in a list, a dict of every step's results or "
        "params, a closure): del them or keep only what later steps need (jax.device_get copies a result to the host)";
  out.push_back({report::Cause::LiveTensors, d.arrays_bytes, msg});
}

void diagnose_pool(const report::OomEvent& e, const std::vector<JaxLine>& lines, std::vector<report::Diagnosis>& out) {
  const report::JaxDevice& d = e.jax.device;
  const uint64_t request = e.request_bytes, total = e.total_bytes;
  // Free in the pool is what XLA has taken from the device and not handed
  // out: its limit less what is in use only when it took the whole limit
  // (preallocation). Allocating on demand, the rest of the limit is still the
  // device's, which another process may hold: not the pool's to fragment.
  const uint64_t taken = d.pool_bytes ? std::min(d.pool_bytes, std::max(d.bytes_limit, d.pool_bytes)) : d.bytes_limit;
  const uint64_t free_in_pool = taken > d.bytes_in_use ? taken - d.bytes_in_use : 0;
  if (d.largest_free_block && free_in_pool >= request && d.largest_free_block < request)
    out.push_back({report::Cause::Fragmentation, free_in_pool,
                   "XLA's pool has " + format_bytes(free_in_pool) + " free, but in pieces no larger than " +
                       format_bytes(d.largest_free_block) + ": the " + format_bytes(request) +
                       " request fits in none. XLA_PYTHON_CLIENT_ALLOCATOR=platform allocates each array on its own"});
  if (d.bytes_limit && request > d.bytes_limit && !e.jax.compiled.total_bytes) {
    out.push_back({report::Cause::PoolLimit, request,
                   "the request (" + format_bytes(request) + ") is larger than XLA's whole pool (" +
                       format_bytes(d.bytes_limit) +
                       (total ? ", " + percent(d.bytes_limit, total) + " of the device" : "") +
                       "): it cannot succeed under this limit. Fix: smaller arrays (a smaller batch, sharding over "
                       "devices), or XLA_PYTHON_CLIENT_MEM_FRACTION raised where the device is larger"});
    return;
  }
  // The pool limit is the cause where the device had room beyond it: what
  // is free on the device less the part of the limit XLA has not taken yet
  // (other processes may hold the rest), or, where the device could not be
  // read, all of the device beyond the limit.
  if (!d.bytes_limit || !total || d.bytes_limit >= total) return;
  const uint64_t untaken = d.bytes_limit > taken ? d.bytes_limit - taken : 0;
  const uint64_t room = !e.device_info ? total - d.bytes_limit : e.free_bytes > untaken ? e.free_bytes - untaken : 0;
  if (room < request) return;
  const std::string fraction = setting(e.jax.settings, "XLA_PYTHON_CLIENT_MEM_FRACTION");
  const bool on_demand = setting(e.jax.settings, "XLA_PYTHON_CLIENT_PREALLOCATE") == "false";
  // The fraction that fits what is there, two digits rounded down, at most
  // 0.9 (the driver and the libraries need the rest).
  const uint64_t hundredths = std::min<uint64_t>(90, (d.bytes_limit + room) * 100 / total);
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
  if (const JaxLine* grower = growing_line(lines, d.arrays_bytes))
    msg += "; while the arrays from " + frame_line(*report::user_frame(grower->group->stack)) +
           " keep growing, a bigger pool only delays the failure";
  out.push_back({report::Cause::PoolLimit, room, msg});
}

}  // namespace

std::vector<JaxLine> jax_lines(const report::JaxDevice& d) {
  std::map<std::pair<std::string, int>, JaxLine> by_line;
  std::vector<JaxLine> out;
  for (const report::JaxArrayGroup& g : d.groups) {
    const report::Frame* f = report::user_frame(g.stack);
    JaxLine& l = f ? by_line[{f->file.str(), f->line}] : out.emplace_back();
    l.bytes += g.bytes;
    l.count += g.count;
    if (!l.group || g.bytes > l.group->bytes) l.group = &g;
    if (g.largest_bytes > l.largest_bytes || (g.largest_bytes == l.largest_bytes && l.shape.empty())) {
      l.largest_bytes = g.largest_bytes;
      l.shape = g.shape;
    }
  }
  for (auto& [where, l] : by_line) out.push_back(l);
  std::stable_sort(out.begin(), out.end(), [](const JaxLine& a, const JaxLine& b) { return a.bytes > b.bytes; });
  return out;
}

std::string jax_line_text(const JaxLine& l) {
  return format_bytes(l.bytes) + " in " + count_of(l.count, "array", "arrays") + jax_line_origin(l);
}

std::string jax_line_key(const JaxLine& l) {
  const report::Frame* f = l.group ? report::user_frame(l.group->stack) : nullptr;
  return f ? f->function.str() + '@' + f->file.str() + ':' + std::to_string(f->line) : "shape " + l.shape;
}

std::string jax_line_origin(const JaxLine& l) {
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

void diagnose_jax(const report::OomEvent& e, std::vector<report::Diagnosis>& out) {
  const std::vector<JaxLine> lines = jax_lines(e.jax.device);
  diagnose_compiled(e, out);
  diagnose_arrays(e, lines, out);
  diagnose_pool(e, lines, out);
}

}  // namespace cudaleak::oom
