#include "report/oom/diagnose_jax.h"

#include <algorithm>
#include <map>

#include "report/model/frame_owner.h"

namespace cudaleak::oom {

namespace {

using report::Cause;
using report::Diagnosis;
using report::DiagnosisForm;

// The line of the program whose arrays fill the pool: three or more arrays
// holding at least half of every live array's bytes.
const JaxLine* growing_line(const std::vector<JaxLine>& lines, uint64_t arrays_bytes) {
  for (const JaxLine& l : lines)
    if (l.group && report::user_frame(l.group->stack) && l.count >= 3 && l.bytes * 2 >= arrays_bytes) return &l;
  return nullptr;
}

void diagnose_compiled(const report::OomEvent& e, std::vector<Diagnosis>& out) {
  if (e.jax.compiled.total_bytes) out.push_back({Cause::CompiledPeak, e.jax.compiled.total_bytes, ""});
}

void diagnose_arrays(const report::OomEvent& e, const std::vector<JaxLine>& lines, std::vector<Diagnosis>& out) {
  const report::JaxDevice& d = e.jax.device;
  if (!d.arrays_bytes || lines.empty()) return;
  const JaxLine* grower = growing_line(lines, d.arrays_bytes);
  if (!grower && d.bytes_limit && d.arrays_bytes * 10 < d.bytes_limit && d.arrays_bytes < e.request_bytes) return;
  Diagnosis arrays{Cause::LiveTensors, d.arrays_bytes, ""};
  arrays.form = DiagnosisForm::Jax;
  arrays.accumulates = grower != nullptr;
  out.push_back(arrays);
}

void diagnose_pool(const report::OomEvent& e, const std::vector<JaxLine>& lines, std::vector<Diagnosis>& out) {
  const report::JaxDevice& d = e.jax.device;
  const uint64_t request = e.request_bytes, total = e.total_bytes;
  // Free in the pool is what XLA has taken from the device and not handed
  // out: its limit less what is in use only when it took the whole limit
  // (preallocation). Allocating on demand, the rest of the limit is still the
  // device's, which another process may hold: not the pool's to fragment.
  const uint64_t taken = d.pool_bytes ? std::min(d.pool_bytes, std::max(d.bytes_limit, d.pool_bytes)) : d.bytes_limit;
  const uint64_t free_in_pool = taken > d.bytes_in_use ? taken - d.bytes_in_use : 0;
  if (d.largest_free_block && free_in_pool >= request && d.largest_free_block < request) {
    Diagnosis pieces{Cause::Fragmentation, free_in_pool, ""};
    pieces.form = DiagnosisForm::Jax;
    out.push_back(pieces);
  }
  if (d.bytes_limit && request > d.bytes_limit && !e.jax.compiled.total_bytes) {
    Diagnosis over{Cause::PoolLimit, request, ""};
    over.form = DiagnosisForm::JaxRequestOverPool;
    out.push_back(over);
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
  Diagnosis limit{Cause::PoolLimit, room, ""};
  limit.form = DiagnosisForm::Jax;
  // The fraction that fits what is there, rounded down to hundredths, at
  // most 0.9 (the driver and the libraries need the rest).
  limit.suggested_fraction = std::min<uint64_t>(90, (d.bytes_limit + room) * 100 / total);
  if (const JaxLine* grower = growing_line(lines, d.arrays_bytes))
    limit.growing.group = int(grower->group - d.groups.data());
  out.push_back(limit);
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

std::string jax_line_key(const JaxLine& l) {
  const report::Frame* f = l.group ? report::user_frame(l.group->stack) : nullptr;
  return f ? f->function.str() + '@' + f->file.str() + ':' + std::to_string(f->line) : "shape " + l.shape;
}

void diagnose_jax(const report::OomEvent& e, std::vector<report::Diagnosis>& out) {
  const std::vector<JaxLine> lines = jax_lines(e.jax.device);
  diagnose_compiled(e, out);
  diagnose_arrays(e, lines, out);
  diagnose_pool(e, lines, out);
}

}  // namespace cudaleak::oom
