#include "common/terminal_text.h"
#include "report/render/text_report.h"
#include "report/render/growth_text.h"
#include "report/render/reach_text.h"
#include "report/render/stack_text.h"

#include <algorithm>

#include "report/analyze/job.h"
#include "report/analyze/job_fold.h"
#include "report/render/job_text.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/model/place_name.h"
#include "report/render/limit_words.h"
#include "report/render/tensor_words.h"
#include "report/render/oom_text.h"
#include "report/render/jax_text.h"
#include "common/kinds.h"
#include "report/model/library_handles.h"
#include "report/model/merge.h"
#include "report/gate/suppressions.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


namespace {

uint64_t tensor_groups(const PyTorchView& view) {
  uint64_t n = 0;
  for (const AllocatorDevice& d : view.devices) n += d.live_tensors.size();
  return n;
}

// "12.4 MiB of device memory, 24 events, 6 streams"
std::string holdings(const std::map<Kind, KindTotal>& holds) {
  std::string memory, handles;
  for (const auto& [kind, t] : holds) {
    if (kind_holds_memory(kind))
      memory += (memory.empty() ? "" : ", ") + format_bytes(t.bytes) + " of " + kind_memory_words(kind) + " memory";
    else handles += (handles.empty() ? "" : ", ") + std::to_string(t.count) + " " + kind_object_words(kind, t.count);
  }
  return memory + (!memory.empty() && !handles.empty() ? ", " : "") + handles;
}

// ", keeping up to 64.0 MiB reserved (release threshold unlimited, set at
// app.cu:12; 0 B in use)": what live pools keep, which no leaked byte shows.
std::string pool_words(const PoolHolding& p) {
  if (!p.threshold_set) return " (" + format_bytes(p.used) + " in use)";
  std::string threshold = p.release_threshold == UINT64_MAX ? "unlimited" : format_bytes(p.release_threshold);
  const Frame* f = report::user_frame(p.threshold_stack);
  std::string where = f ? "set at " + frame_line(*f) : "set by " + p.threshold_api;
  return ", keeping up to " + format_bytes(p.reserved) + " reserved (release threshold " + threshold + ", " + where +
         "; " + format_bytes(p.used) + " in use)";
}

// Kernels that may leak where no host call shows it: said once, with the
// option that shows them.
std::string device_malloc_note(const std::vector<std::string>& modules) {
  std::vector<std::string> names;
  for (const std::string& m : modules)
    names.push_back(m.empty() ? "a module loaded from memory" : printable_name(basename(m)));
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return "note: kernels of " + list + " call device-side malloc, which cudaleak tracks only with --device-heap (what " +
         "they leaked is not in this report)";
}

std::string group_headline(const LeakGroup& g) {
  const Kind kind = g.kind;
  std::string s;
  if (kind == Kind::LibraryHandle) {
    auto object = library_object(g.api);
    s = (g.attributed_by_stack ? plural_objects(g.api) : count_objects(g.api, g.count)) + " never destroyed" +
        (object ? " (" + std::string(object->destroy) + ")" : "") + ", created by " + g.api;
  } else {
    std::string allocations = std::to_string(g.count) + (g.count == 1 ? " allocation" : " allocations");
    std::string memory = kind_memory_words(kind) + " memory";
    if (!kind_holds_memory(kind))  // handles and address ranges: counted, not sized
      s = std::to_string(g.count) + " " + kind_object_words(kind, g.count) +
          (kind == Kind::Module || kind == Kind::Library ? " never unloaded" : " never destroyed") +
          (g.has_pool ? pool_words(g.pool) : "");
    else if (g.bytes == 0 && kind == Kind::IpcMapping)  // imported: its size is known only where it is mapped
      s = allocations + " of " + memory + " of unknown size never freed";
    else s = format_bytes(g.bytes) + " of " + memory + " in " + allocations + " never freed";
    if (kind == Kind::DeviceHeap && !g.stack.empty() && g.stack[0].module == "[device]") {
      // A kernel's malloc: the kernel, the line of the malloc where the
      // cubin has line information, and the launch the program made.
      const Frame& kernel = g.stack[0];
      s += ", made by malloc in " + kernel.function.str();
      if (kernel.line > 0) s += " at " + basename(kernel.file) + ":" + std::to_string(kernel.line);
      if (g.api != "malloc") s += ", launched by " + g.api;
    } else {
      s += ", created by " + g.api;
    }
  }
  if (g.device >= 0) s += " on device " + std::to_string(g.device);
  std::vector<int> devices;  // a group of several ranks: each rank's own device
  for (const RankShare& share : g.ranks)
    if (share.device >= 0) devices.push_back(share.device);
  if (g.device < 0 && !devices.empty()) s += " on devices " + rank_ranges(devices);
  // Managed memory is where it was last prefetched whole; no device is the host.
  if (kind == Kind::Managed && g.device < 0 && devices.empty()) s += ", prefetched to the host";
  if ((kind == Kind::Module || kind == Kind::Library) && g.bytes > 0)
    s += ", holding " + format_bytes(g.bytes) + " of device globals";
  if (!g.holds.empty()) s += ", holding " + holdings(g.holds);
  if (g.attributed_by_stack)
    s += " (found by stack: " + g.api + " is linked into the program statically, so how many handles is not known)";
  if (!g.released_by.empty()) s += " (still alive when released by " + g.released_by + ")";
  if (g.growing) {
    s += " [growing:";
    for (uint64_t c : g.count_history) s += " " + std::to_string(c) + " ->";
    s += " " + std::to_string(g.count) + "]";
  }
  if (g.baseline == BaselineState::New) s += " [new: not in the baseline]";
  if (g.baseline == BaselineState::Grown) s += " [grown beyond the baseline]";
  if (g.baseline == BaselineState::Known) s += " [in the baseline]";
  return s;
}

// ANSI styles, applied only when the text goes to a terminal.
constexpr const char* kBold = "\033[1m";
constexpr const char* kRed = "\033[1;31m";
constexpr const char* kGreen = "\033[1;32m";

std::string paint(const std::string& text, const char* style, bool color) {
  return color ? style + text + "\033[0m" : text;
}

// What begins the report's lines: one process's (a run's report, or one
// file read back), LeakSanitizer's ==PID==; several merged, their count.
std::string line_prefix(const Report& r) {
  return r.processes.size() > 1
             ? "cudaleak (" + count_of(r.processes.size(), "process", "processes") + " merged): "
             : "==" + std::to_string(r.processes.empty() ? r.process.pid : r.processes[0].process.pid) + "==cudaleak: ";
}

// "train (pid 12, rank 0)", or "pid 12" when the process's summary is absent.
std::string process_label(const Report& r, int64_t pid, int rank) {
  std::string exe;
  for (const ProcessSummary& p : r.processes)
    if (p.process.pid == pid) exe = basename(p.process.exe);
  return (exe.empty() ? "pid " + std::to_string(pid) : exe + " (pid " + std::to_string(pid)) +
         (rank >= 0 ? ", rank " + std::to_string(rank) : "") + (exe.empty() ? "" : ")");
}

// In a report of several processes, the process a group belongs to: "train
// (pid 12, rank 0)"; for a site of several ranks, "train on ranks 0-3,5-7 (7 of 8)".
std::string process_of(const Report& r, const LeakGroup& g, size_t of) {
  if (r.processes.size() <= 1) return "";
  if (!g.ranks.empty()) {
    std::vector<int> ranks;
    std::string exe;
    for (const RankShare& share : g.ranks) ranks.push_back(share.rank);
    for (const ProcessSummary& p : r.processes)  // the first rank's program names the site's
      if (p.process.pid == g.ranks.front().pid && p.process.rank == g.ranks.front().rank) exe = basename(p.process.exe);
    return (exe.empty() ? "" : exe + " ") + "on ranks " + rank_list(ranks) + " (" + std::to_string(g.ranks.size()) +
           " of " + std::to_string(of) + ")";
  }
  return process_label(r, g.pid, g.rank);
}

void append_group(std::string& out, const LeakGroup& g, const TextOptions& options, bool from_program = false,
                  const std::string& process = "") {
  out += "\n" +
         paint(reach_mark(g) + group_headline(g) + (process.empty() ? "" : " in " + process) + ":", kBold,
               options.color) +
         "\n";
  size_t first = 0;
  if (auto own = program_frames(g.stack); from_program && !own.empty()) first = size_t(own.front() - g.stack.data());
  append_stack(out, g.stack, first, options.max_frames, options.full_stacks, g.api);
  if (g.stack.empty()) out += "    <no stack>\n";
}

// Each failure's story is told once per line of one process's program: a
// later failure of a call already told (the same API at the same user's line:
// a retry after the program or its library freed what it could, a loop that
// tries again) is counted instead. Not across the processes of a merged
// report, whose pids may repeat on other hosts.
class ToldLines {
 public:
  explicit ToldLines(const Report& r) : merged_(r.processes.size() > 1) {
    for (const OomEvent& e : r.oom_events)
      if (!e.recovered && e.printed) seen_.insert(key(e));
  }
  // Whether `e` repeats a line already told (then counted); otherwise its
  // line is told from now on.
  bool repeated(const OomEvent& e) {
    const std::string k = key(e);
    if (k.empty() || seen_.insert(k).second) return false;
    ++count_;
    return true;
  }
  size_t count() const { return count_; }

 private:
  std::string key(const OomEvent& e) const {
    const Frame* f = merged_ ? nullptr : report::user_frame(e.stack);
    if (!f) return "";
    // Without a file, two calls in one function are told apart by address.
    return e.api + " " + (f->file.empty() ? std::to_string(f->ip) + " " : "") + frame_line(*f);
  }
  bool merged_;
  std::set<std::string> seen_;
  size_t count_ = 0;
};

// The out-of-memory events of ranked processes, first failure first; in a
// merged report with where every other rank stood at that moment. Marks the
// events told, or counted as repeats, in `told`.
std::string ranked_ooms(const Report& r, std::vector<bool>& told, ToldLines& lines) {
  std::string out;
  const bool merged = !r.processes.empty();
  const std::string prefix = line_prefix(r);
  if (!merged) {
    for (size_t i = 0; i < r.oom_events.size(); ++i) {
      const OomEvent& e = r.oom_events[i];
      if (e.recovered || e.printed || e.rank < 0) continue;
      told[i] = true;
      if (!lines.repeated(e)) out += "\n" + prefix + render::render_event(e);
    }
    return out;
  }
  // A merge counts time from its earliest process's start (the launcher's,
  // under torchrun), where the rank's own line said its own time: both are
  // given, so that the two lines are seen to be one moment.
  const uint64_t job_start = start_of(r);
  auto own_time = [&](const OomEvent& e) -> std::string {
    for (const ProcessSummary& p : r.processes)
      if (p.process.pid == e.pid && p.process.rank == e.rank && job_start && p.process.start_unix_ns > job_start &&
          e.time_ns >= p.process.start_unix_ns - job_start)
        return " of the job (" + format_duration(e.time_ns - (p.process.start_unix_ns - job_start)) +
               " into its own run)";
    return "";
  };
  bool first = true;
  for (const JobOom& j : job_ooms(r)) {
    const OomEvent& e = r.oom_events[j.event];
    out += "\n" + prefix + "rank " + std::to_string(e.rank) + " (pid " + std::to_string(e.pid) + ") ran out of memory" +
           (first ? " first" : "") + ", at " + format_duration(e.time_ns) + own_time(e) + ":\n  " +
           render::render_event(e);
    first = false;
    told[j.event] = true;
    if (j.others.empty()) continue;
    out += "  The other ranks at that moment:";
    for (size_t k = 0; k < j.others.size(); ++k) {
      const RankMoment& m = j.others[k];
      out += std::string(k ? ";" : "") + " rank " + std::to_string(m.rank);
      out += rank_moment_text(m);
      if (m.failed)
        out += m.failed_ns < e.time_ns ? " (it had run out of memory at " + format_duration(m.failed_ns) + ")"
                                       : " (it ran out of memory too, at " + format_duration(m.failed_ns) + ")";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_gate_failures(const Report& r, const TextOptions& options) {
  std::string out;
  size_t shown = 0, failing = 0;
  for (const LeakGroup& g : r.leaks) {
    if (!g.fails_gate) continue;
    ++failing;
    if (options.max_groups && shown == options.max_groups) continue;
    append_group(out, g, options, true);
    ++shown;
  }
  if (failing > shown) out += "\n... " + count_of(failing - shown, "more leak group", "more leak groups") + "\n";
  return out;
}

std::string render_grown_sites(const std::vector<PeakGroup>& sites, int device, const TextOptions& options) {
  std::string out;
  for (size_t i = 0; i < sites.size() && (!options.max_groups || i < options.max_groups); ++i) {
    const PeakGroup& g = sites[i];
    out += "\n" + format_bytes(g.bytes) + " of " + kind_memory_words(g.kind) + " memory more than at the start, " +
           "created by " + (g.api.empty() ? "?" : g.api) + (device >= 0 ? " on device " + std::to_string(device) : "") +
           ":\n";
    size_t first = 0;
    if (auto own = program_frames(g.stack); !own.empty()) first = size_t(own.front() - g.stack.data());
    append_stack(out, g.stack, first, options.max_frames, options.full_stacks, g.api);
    if (g.stack.empty()) out += "    <no stack>\n";
  }
  if (options.max_groups && sites.size() > options.max_groups)
    out += "\n... " + count_of(sites.size() - options.max_groups, "more site", "more sites") + "\n";
  return out;
}

std::string render_text(const Report& r, const TextOptions& options) {
  std::string out;
  // One process: LeakSanitizer's ==PID== prefix. Several: no pid of their
  // own, the processes are counted and each group names its process.
  const std::string prefix = line_prefix(r);
  // A job's report names the job, and a rank's out-of-memory comes first:
  // it is what ended the job.
  const JobShape job = job_shape(r);
  std::string job_text = job.any() && !r.processes.empty() ? job_line(job) : "";
  std::string oom_first;
  std::vector<bool> told(r.oom_events.size());
  ToldLines lines(r);
  // A job of several ranks is folded (job_text.h) unless each rank is asked for.
  const bool folded = job.any() && r.processes.size() > 1 && !options.all_ranks;
  if (folded) oom_first = odd_ranks_text(r, prefix) + folded_ooms_text(r, prefix, told);
  else if (job.any()) oom_first = ranked_ooms(r, told, lines);
  const size_t ranks_of_job = job.world_size ? size_t(job.world_size) : job.ranks.size();
  std::vector<const LeakGroup*> visible;
  // What a leaked library handle holds is named in the handle's headline.
  // Still reachable groups are listed apart (reach_text.h).
  for (const LeakGroup& g : r.leaks)
    if (g.suppressed_by.empty() && g.cached_by.empty() && g.owner.empty() && !listed_as_reachable(g))
      visible.push_back(&g);
  if (visible.empty() && options.filtered_out) {
    out += prefix + "no leak group matches the filters (" +
           count_of(options.filtered_out, "leak group", "leak groups") + " in the report left out)\n" + job_text +
           oom_first;
  } else if (visible.empty() && !r.gate.error.empty()) {
    // Nothing seen is no proof of nothing leaked when the process could not be
    // seen whole (a statically linked runtime under the simulated GPU, memory
    // no seen call explains): never the green line.
    out += prefix + paint("no leak seen, but not every CUDA call was: " + r.gate.error, kRed, options.color) + "\n" +
           job_text + oom_first;
  } else if (visible.empty()) {
    // What is alive but not a leak, as the lines below name it.
    bool suppressed = false, cached = false, reachable = false;
    for (const LeakGroup& g : r.leaks) {
      suppressed |= !g.suppressed_by.empty();
      cached |= g.suppressed_by.empty() && !g.cached_by.empty();
      reachable |= listed_as_reachable(g);
    }
    std::string apart = suppressed && cached ? "suppressed ones and what caching allocators hold, listed below"
                        : suppressed         ? "suppressed ones"
                        : cached             ? "what caching allocators hold, listed below"
                                             : "";
    if (reachable) apart += (apart.empty() ? "" : ", and ") + std::string("still reachable ones, listed below");
    out += prefix + paint("no CUDA resources leaked", kGreen, options.color) +
           (apart.empty() ? "" : " (apart from " + apart + ")") + "\n" + job_text + oom_first;
  } else {
    out += prefix + paint("detected CUDA resource leaks", kRed, options.color) + " (" + text_of(r.reason) +
           (r.checkpoint.empty() ? "" : " " + r.checkpoint) + ")\n" + job_text + oom_first;
    size_t shown = 0;
    for (const LeakGroup* group : visible) {
      const LeakGroup& g = *group;
      if (options.max_groups && shown == options.max_groups) {
        out += "\n... " + count_of(visible.size() - shown, "more leak group", "more leak groups") + " in the report\n";
        break;
      }
      append_group(out, g, options, false, process_of(r, g, ranks_of_job));
      ++shown;
    }
  }
  out += still_reachable_text(r, options);
  if (!r.summary.cached_by.empty()) {
    out += "\nHeld by caching allocators (not leaks: their caches are kept until exit by design):\n";
    for (const auto& [name, t] : r.summary.cached_by)
      out += "  " + format_bytes(t.bytes) + " in " + std::to_string(t.count) +
             (t.count == 1 ? " block: " : " blocks: ") + name + "\n";
    // A cache that keeps growing over the observations holds something that is never freed.
    for (const LeakGroup& g : r.leaks) {
      if (g.cached_by.empty() || !g.growing) continue;
      out += "  growing across observations:";
      for (uint64_t c : g.count_history) out += " " + std::to_string(c) + " ->";
      out += " " + std::to_string(g.count) + " blocks (" + format_bytes(g.bytes) + ") cached by the " + g.cached_by +
             ": memory kept alive in the cache (a tensor held from step to step?)\n";
    }
  }
  if (!r.reservations.empty()) {
    out += "\n" + prefix + "Reserved by the context (not leaks: held while the context lives, set by the program):\n";
    for (const Reservation& v : r.reservations) out += "  " + render::describe_reservation(v) + "\n";
  }
  if (!r.device_malloc_modules.empty()) out += "\n" + prefix + device_malloc_note(r.device_malloc_modules) + "\n";
  if (!r.suppressions.empty()) {
    out += "\nSuppressions used:\n  count      bytes  rule\n";
    for (const SuppressionUse& u : r.suppressions) {
      char line[64];
      std::snprintf(line, sizeof line, "  %5" PRIu64 " %10s  ", u.count, format_bytes(u.bytes).c_str());
      out += line + u.rule + " (" + u.source + ")\n";
    }
  }
  if (options.gen_suppressions && !visible.empty()) {
    out += "\nSuppression rules for the leaks above (paste into a suppressions file):\n";
    std::vector<std::string> rules;  // one per distinct rule, in the order of the groups
    for (const LeakGroup* g : visible)
      if (std::string rule = gate::suggest_rule(*g); std::find(rules.begin(), rules.end(), rule) == rules.end())
        rules.push_back(rule);
    for (const std::string& rule : rules) out += rule + "\n";
  }
  // What PyTorch holds for live tensors: not leaks, not gated, but the
  // answer to "who holds the memory?".
  const std::string gate_words = !r.gate.failing_tensor_groups ? " (not leaks, not gated)"
                                 : r.gate.failing_tensor_groups < tensor_groups(r.pytorch)
                                     ? " (the growing ones counted by the gate: gate_growing_tensors)"
                                     : " (counted by the gate: gate_live_tensors)";
  if (r.has_pytorch && folded) out += folded_pytorch_text(r, prefix, gate_words);
  if (r.has_pytorch && !folded && r.pytorch.when != ViewMoment::Oom) {
    for (const AllocatorDevice& d : r.pytorch.devices) {
      if (!d.reserved) continue;
      out += "\n" + prefix + "PyTorch at " + text_of(r.pytorch.when) + " on device " + std::to_string(d.device) +
             (r.processes.size() > 1 && d.pid ? " in " + process_label(r, d.pid, d.rank) : "") + ": " +
             format_bytes(d.reserved) + " reserved, " + render::held_by_live_tensors(d.allocated, d.live_tensors) +
             gate_words + (d.live_tensors.empty() ? "\n" : ":\n");
      out += render::live_tensor_lines(d.live_tensors);
    }
  }
  if (r.has_jax && folded) out += folded_jax_text(r, prefix);
  else out += jax_view_text(r, prefix, [&](int64_t pid, int rank) { return process_label(r, pid, rank); });
  // CuPy's pool: memory it holds for live arrays and as a cache (its
  // segments are the "held by caching allocators" groups).
  if (r.has_cupy && folded) out += folded_cupy_text(r, prefix);
  if (r.has_cupy && !folded) {
    const std::vector<CupyPool> pools = r.cupy_processes.empty() ? std::vector<CupyPool>{r.cupy} : r.cupy_processes;
    for (const CupyPool& c : pools) {
      if (!c.total_bytes) continue;
      uint64_t cached = c.total_bytes > c.used_bytes ? c.total_bytes - c.used_bytes : 0;
      out += "\n" + prefix + "CuPy's memory pool at " + text_of(c.when) + " on device " + std::to_string(c.device) +
             (r.processes.size() > 1 && c.pid ? " in " + process_label(r, c.pid, c.rank) : "") + ": " +
             format_bytes(c.total_bytes) + " held, " + format_bytes(c.used_bytes) + " by live arrays, " +
             format_bytes(cached) + " cached in " + std::to_string(c.free_blocks) +
             (c.free_blocks == 1 ? " free block" : " free blocks") + " (not leaks" +
             (cached ? "; cupy.get_default_memory_pool().free_all_blocks() returns the cache)\n" : ")\n");
    }
  }
  // Each out-of-memory is printed once: those shown when they happened are
  // only counted here, and so are repeats of a line already told.
  size_t shown = 0, recovered = 0;
  for (size_t i = 0; i < r.oom_events.size(); ++i) {
    const OomEvent& e = r.oom_events[i];
    if (e.recovered) ++recovered;
    else if (e.printed) ++shown;
    else if (!told[i] && !lines.repeated(e))  // merged: whose it was, as each leak group says
      out += "\n" + prefix + (r.processes.size() > 1 ? "in " + process_label(r, e.pid, e.rank) + ": " : "") +
             render::render_event(e);
  }
  const size_t repeated = lines.count();
  if (shown)
    out += "\n" + prefix + std::to_string(shown) + (shown == 1 ? " out-of-memory event" : " out-of-memory events") +
           " shown above when " + (shown == 1 ? "it" : "they") + " happened (oom_events in the report)\n";
  if (repeated)
    out += "\n" + prefix + std::to_string(repeated) +
           (repeated == 1 ? " more out-of-memory event" : " more out-of-memory events") +
           " of a call already told above, at the same line (oom_events in the report)\n";
  if (recovered)
    out += "\n" + prefix + std::to_string(recovered) + (recovered == 1 ? " allocation" : " allocations") +
           " failed with out-of-memory and succeeded when the allocator retried after releasing memory it held (its "
           "cache, or the frees it had deferred); "
           "the program saw no failure (oom_events, recovered)\n";
  if (!r.history.empty())
    out += "\n" + prefix + std::to_string(r.history.size()) +
           (r.history.size() == 1 ? " earlier report" : " earlier reports") +
           " of the same processes (snapshots, checkpoints, out-of-memory) not counted: each process counts once, by "
           "its latest report (history in the report)\n";
  for (const Note& n : r.notes)
    if (n.type == NoteType::DeviceHeapExhausted)
      out += "\n" + prefix + render::describe_heap_exhausted(n, r.reservations) + "\n";
  if (r.notes_total) {
    // check_context adds notes of its own (placements checked against the driver).
    bool only_releases = std::all_of(r.notes.begin(), r.notes.end(),
                                     [](const Note& n) { return n.type == NoteType::UnknownRelease; });
    out += "\n" + prefix + std::to_string(r.notes_total) +
           (only_releases ? " release calls of resources it never saw" : " notes") + " (see notes in the report)\n";
  }

  out += render_growth(r, options);
  out += reach_totals_text(r, prefix);
  const bool not_clean = r.summary.leaked_count || !r.gate.error.empty();  // unseen calls are never green
  out += "\n" + paint("SUMMARY:", not_clean ? kRed : kGreen, options.color) +
         " cudaleak: " + format_bytes(r.summary.leaked_bytes) + " leaked in " + std::to_string(r.summary.leaked_count) +
         (r.summary.leaked_count == 1 ? " resource" : " resources");
  if (!r.summary.by_kind.empty()) {
    out += " (";
    bool first = true;
    for (const auto& [kind, t] : r.summary.by_kind) {
      out += (first ? "" : ", ") + text_of(kind) + ": " + std::to_string(t.count);
      if (t.bytes) out += " / " + format_bytes(t.bytes);
      first = false;
    }
    out += ")";
  }
  out += ".";
  if (r.summary.cached_count)
    out += " Cached by allocators: " + std::to_string(r.summary.cached_count) + " / " +
           format_bytes(r.summary.cached_bytes) + ".";
  if (r.summary.pool_reserved_count)
    out += " Kept reserved by " + std::to_string(r.summary.pool_reserved_count) +
           (r.summary.pool_reserved_count == 1 ? " memory pool: " : " memory pools: ") +
           format_bytes(r.summary.pool_reserved_bytes) + " (not in the leaked bytes).";
  if (r.summary.reachable_count)
    out += " Still reachable: " + std::to_string(r.summary.reachable_count) + " / " +
           format_bytes(r.summary.reachable_bytes) + ".";
  if (r.summary.suppressed_count)
    out += " Suppressed: " + std::to_string(r.summary.suppressed_count) + " / " +
           format_bytes(r.summary.suppressed_bytes) + ".";
  if (!options.report_path.empty()) out += " Report: " + options.report_path;
  out += "\n";
  // The verdict the run's gate gave, as stored: a reader of the file sees
  // a gate that could not be evaluated, which the leak list cannot show.
  if (!options.stored_gate) return out;
  if (r.gate.evaluated && !r.gate.error.empty())
    out += prefix + "CI gate of the run: not evaluated: " + r.gate.error + "\n";
  else if (r.gate.evaluated && r.gate.failed)
    out += prefix + "CI gate of the run: failed (" + count_of(r.gate.failing_groups, "leak group", "leak groups") +
           (r.gate.failing_bytes ? ", " + format_bytes(r.gate.failing_bytes) : "") + ")\n";
  else if (r.gate.evaluated) out += prefix + "CI gate of the run: passed\n";
  return out;
}

}  // namespace cudaleak::render
