#include "report/model/merge.h"

#include "common/quantities.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>

#include "common/kinds.h"
#include "report/model/cuda_frames.h"
#include "report/model/summary.h"

namespace cudaleak::report {

namespace {

// Points carry one byte count per kind of their timeline's kind list; a
// merged timeline has the union of the lists, so points are laid out again.
void add_timeline(Timeline& into, const Timeline& from, int pid, int rank, uint64_t shift) {
  for (Kind k : from.kinds)
    if (std::find(into.kinds.begin(), into.kinds.end(), k) == into.kinds.end()) into.kinds.push_back(k);
  std::vector<size_t> slot;
  for (Kind k : from.kinds)
    slot.push_back(size_t(std::find(into.kinds.begin(), into.kinds.end(), k) - into.kinds.begin()));
  for (DeviceTimeline d : from.devices) {
    if (d.pid == 0) d.pid = pid, d.rank = rank;
    d.peak.time_ns += shift;
    for (TimelinePoint& p : d.points) {
      p.time_ns += shift;
      std::vector<uint64_t> bytes(into.kinds.size());
      for (size_t i = 0; i < p.bytes.size() && i < slot.size(); ++i) bytes[slot[i]] = p.bytes[i];
      p.bytes = std::move(bytes);
    }
    for (SiteGrowth& g : d.growth) {
      g.history_ns += shift;
      g.since_ns += shift;
      if (g.last_rise_ns) g.last_rise_ns += shift;
    }
    into.devices.push_back(std::move(d));
  }
  for (TimelineMark mark : from.marks) {
    if (mark.pid == 0) mark.pid = pid;
    mark.time_ns += shift;
    into.marks.push_back(std::move(mark));
  }
}

// Which process and run wrote a report; empty when it cannot say (never the
// same as another's).
std::string identity(const Report& r) {
  if (!r.processes.empty()) return "";  // a merged report: many processes, already counted once each
  if (!r.process.run_id.empty()) return r.process.run_id;
  if (r.process.start_unix_ns) return std::to_string(r.process.pid) + "@" + std::to_string(r.process.start_unix_ns);
  return "";
}

}  // namespace

std::vector<Report> latest_of_each_process(std::vector<Report> reports, std::vector<ProcessSummary>& history) {
  // A merged input already holds its processes: their own reports beside it
  // (a folder holding the ranks' reports and their merge) are the same
  // reports again, dropped: neither counted twice nor "earlier reports".
  std::set<std::string> in_merged;
  for (const Report& r : reports)
    for (const ProcessSummary& p : r.processes)
      if (!p.process.run_id.empty()) in_merged.insert(p.process.run_id);
  std::map<std::string, size_t> latest;
  std::vector<bool> superseded(reports.size()), duplicate(reports.size());
  // A merged input whose processes another merged input holds too (the same
  // merge twice, a merge of a subset) is dropped: each process counts once.
  std::vector<std::set<std::string>> merged_ids(reports.size());
  for (size_t i = 0; i < reports.size(); ++i)
    for (const ProcessSummary& p : reports[i].processes)
      if (!p.process.run_id.empty()) merged_ids[i].insert(p.process.run_id);
  for (size_t j = 0; j < reports.size(); ++j)
    for (size_t i = 0; i < reports.size() && !merged_ids[j].empty() && !duplicate[j]; ++i)
      if (i != j && !duplicate[i] &&
          std::includes(merged_ids[i].begin(), merged_ids[i].end(), merged_ids[j].begin(), merged_ids[j].end()) &&
          (merged_ids[i].size() > merged_ids[j].size() || i < j))
        duplicate[j] = true;
  for (size_t i = 0; i < reports.size(); ++i) {
    std::string id = identity(reports[i]);
    if (id.empty()) continue;
    if (in_merged.count(reports[i].process.run_id)) {
      duplicate[i] = true;
      continue;
    }
    auto [it, first] = latest.try_emplace(id, i);
    if (first) continue;
    const Report &r = reports[i], &kept = reports[it->second];
    bool later = std::tie(r.duration_ns, r.timestamp) >= std::tie(kept.duration_ns, kept.timestamp);
    superseded[later ? it->second : i] = true;
    if (later) it->second = i;
  }
  std::vector<Report> kept;
  for (size_t i = 0; i < reports.size(); ++i) {
    if (duplicate[i]) continue;
    if (superseded[i]) history.push_back(ProcessSummary::of(reports[i]));
    else kept.push_back(std::move(reports[i]));
  }
  return kept;
}

namespace {

void shift_times(OomEvent& e, uint64_t shift) {
  e.time_ns += shift;
  for (OomSite& s : e.top_sites) s.first_ns += shift, s.last_ns += shift;
  for (OomAttempt& a : e.attempts) a.time_ns += shift;
  for (Reservation& v : e.reservations) v.time_ns += shift;
}

// What makes two ranks' groups one site: everything the builder and the gate
// group by but the process, with each frame as its function and line (its
// offset in its module where unsymbolized), which the ranks' address-space
// layouts do not change.
std::string site_key(const LeakGroup& g, const std::vector<Module>& modules) {
  std::string key = std::string(kind_name(g.kind)) + '\n' + g.api + '\n' + g.released_by + '\n' + g.owner + '\n' +
                    g.suppressed_by + '\n' + g.cached_by + '\n' + std::string(name_of(g.baseline)) + '\n' +
                    std::string(name_of(g.reachability)) + (g.attributed_by_stack ? "\nby stack" : "") + '\n';
  for (const Frame& f : g.stack) {
    if (!f.function.empty()) {
      key += f.function.str() + '@' + f.file.str() + ':' + std::to_string(f.line) + (f.inlined ? "+" : "") + '\n';
      continue;
    }
    // The frame's module by its path; a frame may name it by another
    // spelling than the module list (libcudart.so.13.0.96 against the
    // libcudart.so.13 link it was loaded by), so failing that, the module
    // loaded nearest below the address, which is the one holding it.
    uint64_t base = 0, nearest = 0;
    for (const Module& m : modules) {
      if (m.base > f.ip) continue;
      if (m.path == f.module.str()) base = std::max(base, m.base);
      nearest = std::max(nearest, m.base);
    }
    key += basename(f.module.str()) + '+' + std::to_string(f.ip - (base ? base : nearest)) + '\n';
  }
  return key;
}

// The ranks' groups of one site as one group (merge.h).
void add_share(LeakGroup& into, LeakGroup& g) {
  // Up to the longest list of a rank, and each rank's first whatever the
  // cap: a view of one rank (--rank) still lists one of its own.
  const size_t cap = std::max(into.allocations.size(), g.allocations.size());
  add_saturating(into.bytes, g.bytes);
  into.count += g.count;
  for (size_t i = 0; i < g.allocations.size(); ++i)
    if (i == 0 || into.allocations.size() < cap) into.allocations.push_back(std::move(g.allocations[i]));
  for (const auto& [kind, t] : g.holds)
    add_saturating(into.holds[kind].bytes, t.bytes), into.holds[kind].count += t.count;
  if (g.has_pool) {
    if (!into.has_pool)
      into.pool.threshold_set = g.pool.threshold_set, into.pool.release_threshold = g.pool.release_threshold,
      into.pool.threshold_api = g.pool.threshold_api, into.pool.threshold_stack = g.pool.threshold_stack;
    into.has_pool = true;
    add_saturating(into.pool.reserved, g.pool.reserved);
    add_saturating(into.pool.used, g.pool.used);
    add_saturating(into.pool.high_water, g.pool.high_water);
  }
  into.fails_gate |= g.fails_gate;
  into.growing |= g.growing;
  into.ranks.insert(into.ranks.end(), g.ranks.begin(), g.ranks.end());
}

bool shares_a_rank(const LeakGroup& a, const LeakGroup& b) {
  for (const RankShare& x : a.ranks)
    for (const RankShare& y : b.ranks)
      if (x.rank == y.rank) return true;
  return false;
}

// Groups of ranked processes with the same site key become one, listing each
// rank's share; a rank's own groups are never folded together, and processes
// without a rank keep a group each.
// `gated[i]`: groups[i] is one its process's gate counted (failing_groups);
// *counted_twice: how many of those were folded into a group that was one
// already, so that the job's count is of the groups it shows.
std::vector<LeakGroup> fold_by_rank(std::vector<LeakGroup> groups, const std::vector<std::string>& keys,
                                    const std::vector<bool>& gated, uint64_t* counted_twice) {
  std::vector<LeakGroup> out;
  std::vector<bool> out_gated;
  // Each site's groups so far. A rank's group joins one that has no share of
  // that rank yet, preferring one on the same device (a rank that leaks at
  // one site on two devices makes two folded groups, one per device, in any
  // order of the input); else it starts another.
  std::map<std::string, std::vector<size_t>> of_site;
  for (size_t i = 0; i < groups.size(); ++i) {
    LeakGroup& g = groups[i];
    if (g.ranks.empty()) {
      out.push_back(std::move(g));
      out_gated.push_back(gated[i]);
      continue;
    }
    for (Allocation& a : g.allocations) a.rank = g.ranks.front().rank;  // whose, once folded
    std::vector<size_t>& candidates = of_site[keys[i]];
    std::optional<size_t> into;
    for (size_t c : candidates) {
      if (shares_a_rank(out[c], g)) continue;
      if (!into) into = c;
      if (out[c].ranks.front().device == g.ranks.front().device) {
        into = c;
        break;
      }
    }
    if (into) {
      add_share(out[*into], g);
      *counted_twice += gated[i] && out_gated[*into];
      out_gated[*into] = out_gated[*into] || gated[i];
      continue;
    }
    candidates.push_back(out.size());
    out.push_back(std::move(g));
    out_gated.push_back(gated[i]);
  }
  for (LeakGroup& g : out) {
    if (g.ranks.size() == 1) {  // one rank: the group says it with pid and rank, as before
      g.ranks.clear();
      for (Allocation& a : g.allocations) a.rank = -1;
      continue;
    }
    if (g.ranks.empty()) continue;
    std::stable_sort(g.ranks.begin(), g.ranks.end(),
                     [](const RankShare& a, const RankShare& b) { return a.rank < b.rank; });
    g.pid = 0;
    g.rank = -1;
    g.device = g.ranks.front().device;
    for (const RankShare& s : g.ranks)
      if (s.device != g.device) g.device = -1;
  }
  return out;
}

// Another process an out-of-memory event names is a rank of the job when a
// process of that pid on the event's host was merged.
void name_other_ranks(std::vector<OomEvent>& events, const std::vector<std::string>& hosts,
                      const std::vector<ProcessSummary>& processes) {
  for (size_t i = 0; i < events.size(); ++i)
    for (OtherProcessUsage& o : events[i].other_processes) {
      if (o.rank >= 0) continue;
      for (const ProcessSummary& p : processes)
        if (p.process.pid == o.pid && p.process.host == hosts[i] && p.process.rank >= 0) o.rank = p.process.rank;
    }
}

}  // namespace

namespace {

// Launchers from the innermost: torchrun inside srun or mpirun, mpirun inside
// a SLURM allocation (symbols/launcher_env.h reads them in this order).
int launcher_depth(const std::string& launcher) {
  static const char* const order[] = {"torchrun", "openmpi", "pmi", "slurm"};
  for (int i = 0; i < 4; ++i)
    if (launcher == order[i]) return i;
  return 4;
}

// A launcher's agent that started ranks of an inner launcher is not a rank
// itself: torchrun's agent under `srun` holds SLURM_PROCID (the node's
// index) but no RANK, and would claim the rank of that number. It is the
// parent, on the same host, of ranks that an inner launcher numbered.
void keep_innermost_ranks(std::vector<Report>& reports) {
  std::vector<size_t> agents;
  for (size_t i = 0; i < reports.size(); ++i) {
    const Process& p = reports[i].process;
    if (!reports[i].processes.empty() || p.rank < 0) continue;
    for (const Report& other : reports)
      if (other.processes.empty() && other.process.rank >= 0 && other.process.ppid == p.pid &&
          other.process.host == p.host && launcher_depth(other.process.launcher) < launcher_depth(p.launcher)) {
        agents.push_back(i);
        break;
      }
  }
  for (size_t i : agents) {
    Process& p = reports[i].process;
    p.rank = p.local_rank = -1;
    p.world_size = 0;
    p.launcher.clear();
  }
}

}  // namespace

// Each report counts time from its own tracker's start (for a merged input,
// from its earliest process's). The merge counts from the earliest start of
// all, so that ranks started apart line up.
uint64_t start_of(const Report& r) {
  if (r.processes.empty()) return r.process.start_unix_ns;
  uint64_t first = 0;
  for (const ProcessSummary& p : r.processes)
    if (p.process.start_unix_ns && (!first || p.process.start_unix_ns < first)) first = p.process.start_unix_ns;
  return first;
}

Report merge_reports(std::vector<Report> all) {
  std::vector<ProcessSummary> history;
  std::vector<Report> reports = latest_of_each_process(std::move(all), history);
  keep_innermost_ranks(reports);
  if (reports.size() == 1 && reports[0].processes.empty()) {
    Report single = std::move(reports[0]);
    single.processes.push_back(ProcessSummary::of(single));
    single.history = std::move(history);
    for (auto& g : single.leaks) g.pid = single.process.pid, g.rank = single.process.rank;
    for (OomEvent& e : single.oom_events)
      if (e.rank < 0) e.rank = single.process.rank;
    return single;
  }
  Report m;
  m.reason = Reason::Merged;
  m.history = std::move(history);
  std::vector<std::string> keys;                 // of m.leaks, for folding by rank
  std::vector<bool> gated;                       // of m.leaks: counted by its process's gate
  std::vector<std::string> event_hosts;          // of m.oom_events, for naming other ranks
  std::unordered_set<std::string> modules_seen;  // of m.modules
  std::vector<uint64_t> starts;
  for (const Report& r : reports) starts.push_back(start_of(r));
  uint64_t origin = 0;
  for (uint64_t start : starts)
    if (start && (!origin || start < origin)) origin = start;
  for (size_t i = 0; i < reports.size(); ++i) {
    Report& r = reports[i];
    const uint64_t shift = starts[i] ? starts[i] - origin : 0;
    if (m.tool_version.empty()) m.tool_version = r.tool_version;
    m.timestamp = std::max(m.timestamp, r.timestamp);
    m.symbolized = m.processes.empty() ? r.symbolized : (m.symbolized && r.symbolized);
    m.duration_ns = std::max(m.duration_ns, shift + r.duration_ns);
    // A merged input brings its processes along; a single report is one process.
    if (!r.processes.empty()) m.processes.insert(m.processes.end(), r.processes.begin(), r.processes.end());
    else m.processes.push_back(ProcessSummary::of(r));
    m.history.insert(m.history.end(), r.history.begin(), r.history.end());
    for (LeakGroup& moved : r.leaks) {
      LeakGroup g = std::move(moved);
      if (r.processes.empty()) g.pid = r.process.pid, g.rank = r.process.rank;
      if (g.ranks.empty() && g.rank >= 0) {
        std::string host = r.process.host;
        for (const ProcessSummary& p : r.processes)  // a merged input's group: its process's host
          if (p.process.pid == g.pid && p.process.rank == g.rank) host = p.process.host;
        g.ranks.push_back(RankShare{g.rank, g.pid, host, g.device, g.bytes, g.count});
      }
      for (Allocation& a : g.allocations) a.record.time_ns += shift;
      keys.push_back(site_key(g, r.modules));
      gated.push_back(r.gate.evaluated && g.fails_gate);
      m.leaks.push_back(std::move(g));
    }
    // Each rank maps its libraries elsewhere (ASLR): a job of 1,024 ranks
    // brings ~100,000 modules, found in a set, not by a scan of the list.
    for (const Module& mod : r.modules)
      if (modules_seen.insert(mod.path + '\n' + std::to_string(mod.base) + '\n' + mod.build_id).second)
        m.modules.push_back(mod);
    for (const SuppressionUse& u : r.suppressions) {
      auto it = std::find_if(m.suppressions.begin(), m.suppressions.end(),
                             [&](const SuppressionUse& x) { return x.rule == u.rule && x.source == u.source; });
      if (it == m.suppressions.end())
        it = m.suppressions.insert(m.suppressions.end(), SuppressionUse{u.rule, u.source});
      it->count += u.count;
      add_saturating(it->bytes, u.bytes);
    }
    m.primary_contexts.insert(m.primary_contexts.end(), r.primary_contexts.begin(), r.primary_contexts.end());
    if (m.python.version.empty() && m.python.note.empty()) m.python = r.python;
    // Every process's PyTorch devices, each named by its process: a job's
    // ranks each have a device 0 of their own allocator.
    if (r.has_pytorch) {
      if (!m.has_pytorch)
        m.has_pytorch = true, m.pytorch.when = r.pytorch.when, m.pytorch.settings = r.pytorch.settings;
      for (AllocatorDevice& d : r.pytorch.devices) {
        if (r.processes.empty()) d.pid = r.process.pid, d.rank = r.process.rank;
        m.pytorch.devices.push_back(std::move(d));
      }
    }
    // Every process's JAX devices, each named by its process, as PyTorch's.
    if (r.has_jax) {
      if (!m.has_jax) {
        m.has_jax = true;
        m.jax.when = r.jax.when, m.jax.settings = r.jax.settings, m.jax.versions = r.jax.versions;
        m.jax.source = r.jax.source, m.jax.note = r.jax.note;
      }
      m.jax.executables_bytes += r.jax.executables_bytes;
      for (JaxDevice& d : r.jax.devices) {
        if (r.processes.empty()) d.pid = r.process.pid, d.rank = r.process.rank;
        m.jax.devices.push_back(std::move(d));
      }
    }
    // Every process's CuPy pool, each named by its process.
    if (r.has_cupy) {
      if (r.cupy_processes.empty()) {
        CupyPool c = r.cupy;
        if (r.processes.empty()) c.pid = r.process.pid, c.rank = r.process.rank;
        m.cupy_processes.push_back(c);
      } else {
        m.cupy_processes.insert(m.cupy_processes.end(), r.cupy_processes.begin(), r.cupy_processes.end());
      }
      if (!m.has_cupy) m.has_cupy = true, m.cupy = m.cupy_processes.front();
    }
    m.notes.insert(m.notes.end(), r.notes.begin(), r.notes.end());
    for (OomEvent e : r.oom_events) {
      if (!e.pid) e.pid = r.process.pid;
      if (e.rank < 0 && r.processes.empty()) e.rank = r.process.rank;
      shift_times(e, shift);
      std::string host = r.process.host;
      for (const ProcessSummary& p : r.processes)
        if (p.process.pid == e.pid && p.process.rank == e.rank) host = p.process.host;
      event_hosts.push_back(host);
      m.oom_events.push_back(std::move(e));
    }
    for (Reservation v : r.reservations) {
      if (!v.pid) v.pid = r.process.pid;
      v.time_ns += shift;
      m.reservations.push_back(std::move(v));
    }
    m.notes_total += r.notes_total;
    add_timeline(m.timeline, r.timeline, r.process.pid, r.processes.empty() ? r.process.rank : -1, shift);
    if (r.gate.evaluated) {  // the gates the processes asked for; a process that asked none fails none
      m.gate.evaluated = true;
      m.gate.failed |= r.gate.failed;
      m.gate.failing_groups += r.gate.failing_groups;
      add_saturating(m.gate.failing_bytes, r.gate.failing_bytes);
      m.gate.failing_count += r.gate.failing_count;
      m.gate.failing_tensor_groups += r.gate.failing_tensor_groups;
      m.gate.failing_growth_sites += r.gate.failing_growth_sites;
      if (m.gate.error.empty()) m.gate.error = r.gate.error;
    }
  }
  uint64_t counted_twice = 0;
  m.leaks = fold_by_rank(std::move(m.leaks), keys, gated, &counted_twice);
  m.gate.failing_groups -= std::min(counted_twice, m.gate.failing_groups);
  name_other_ranks(m.oom_events, event_hosts, m.processes);
  std::stable_sort(m.leaks.begin(), m.leaks.end(), [](const LeakGroup& a, const LeakGroup& b) {
    return std::tie(a.bytes, a.count) > std::tie(b.bytes, b.count);
  });
  std::stable_sort(m.timeline.marks.begin(), m.timeline.marks.end(),
                   [](const TimelineMark& a, const TimelineMark& b) { return a.time_ns < b.time_ns; });
  for (DeviceTimeline& d : m.timeline.devices)  // kinds added by later reports: none of theirs
    for (TimelinePoint& p : d.points) p.bytes.resize(m.timeline.kinds.size());
  m.summary = summarize(m.leaks);
  return m;
}

}  // namespace cudaleak::report
