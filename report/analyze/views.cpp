#include "report/analyze/views.h"

#include "common/quantities.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "report/model/function_names.h"
#include "report/model/merge.h"
#include "report/model/summary.h"
#include "common/kinds.h"
#include "report/gate/pattern.h"
#include "report/gate/site.h"
#include "report/model/summary.h"

namespace cudaleak::report {

const Frame* allocation_frame(const LeakGroup& g) {
  // The innermost of the user's frames, native or Python: a library of the
  // user's that a script calls through ctypes is named, not the script's line.
  for (const Frame& f : g.stack)
    if (owner_of(f) == FrameOwner::User) return &f;
  auto nearest = program_frames(g.stack);
  return nearest.empty() ? nullptr : nearest.front();
}

namespace {

// The group as far as it belongs to the ranks asked for: false when none.
bool keep_ranks(LeakGroup& g, const std::vector<int>& wanted, int process_rank) {
  auto asked = [&](int rank) { return std::find(wanted.begin(), wanted.end(), rank) != wanted.end(); };
  if (g.ranks.empty()) return asked(g.rank >= 0 ? g.rank : process_rank);
  std::erase_if(g.ranks, [&](const RankShare& s) { return !asked(s.rank); });
  if (g.ranks.empty()) return false;
  g.bytes = g.count = 0;
  for (const RankShare& s : g.ranks) add_saturating(g.bytes, s.bytes), g.count += s.count;
  // The allocations listed stay those of the ranks kept.
  std::erase_if(g.allocations, [&](const Allocation& a) { return a.rank >= 0 && !asked(a.rank); });
  if (g.ranks.size() == 1) {  // one rank left: said as a rank's own group
    g.pid = g.ranks[0].pid, g.rank = g.ranks[0].rank, g.device = g.ranks[0].device;
    g.ranks.clear();
    for (Allocation& a : g.allocations) a.rank = -1;
  } else {
    g.device = g.ranks.front().device;
    for (const RankShare& s : g.ranks)
      if (s.device != g.device) g.device = -1;
  }
  return true;
}

}  // namespace

Report filter_report(Report in, const Filter& f) {
  Report out = std::move(in);
  std::vector<LeakGroup> all = std::move(out.leaks);
  out.leaks.clear();
  // The summary counts what the filters select, suppressed groups as
  // suppressed (as the run's summary did); the list shows them only when asked.
  std::vector<LeakGroup> selected;
  for (LeakGroup& g : all) {
    if (!f.ranks.empty() && !keep_ranks(g, f.ranks, out.process.rank)) continue;
    if (!f.kinds.empty() && std::find(f.kinds.begin(), f.kinds.end(), g.kind) == f.kinds.end()) continue;
    if (f.device && g.device != *f.device) continue;
    if (g.bytes < f.min_bytes) continue;
    auto any_frame = [&](const std::string& pattern, auto field) {
      return std::any_of(g.stack.begin(), g.stack.end(),
                         [&](const Frame& fr) { return gate::pattern_matches(pattern, field(fr)); });
    };
    if (!f.module.empty() && !any_frame(f.module, [](const Frame& fr) { return fr.module; })) continue;
    if (!f.function.empty() && !any_frame(f.function, [](const Frame& fr) { return fr.function; })) continue;
    selected.push_back(std::move(g));
  }
  // A view of some ranks tells their out-of-memory events and their
  // frameworks' views only; the other ranks stay among the processes, so
  // that where they stood at those events is still said.
  if (!f.ranks.empty() && out.processes.size() > 1) {
    auto asked = [&](int rank) { return std::find(f.ranks.begin(), f.ranks.end(), rank) != f.ranks.end(); };
    std::erase_if(out.oom_events, [&](const OomEvent& e) { return e.rank >= 0 && !asked(e.rank); });
    std::erase_if(out.pytorch.devices, [&](const AllocatorDevice& d) { return d.rank >= 0 && !asked(d.rank); });
    std::erase_if(out.cupy_processes, [&](const CupyPool& c) { return c.rank >= 0 && !asked(c.rank); });
  }
  out.summary = summarize(selected);
  for (LeakGroup& g : selected)
    if (f.include_suppressed || g.suppressed_by.empty()) out.leaks.push_back(std::move(g));
  return out;
}

std::vector<Aggregate> aggregate(const Report& r, const std::string& by) {
  if (by != "stack" && by != "function" && by != "module" && by != "file" && by != "kind" && by != "rank")
    throw std::invalid_argument("--by must be one of stack, function, module, file, kind, rank (got '" + by + "')");
  std::map<std::string, Aggregate> folded;
  auto add = [&](const std::string& key, Kind kind, uint64_t bytes, uint64_t count) {
    Aggregate& a = folded[key];
    a.key = key;
    if (kind_holds_memory(kind)) add_saturating(a.bytes, bytes);  // address ranges are not memory of their own
    a.count += count;
    ++a.groups;
    if (std::find(a.kinds.begin(), a.kinds.end(), kind) == a.kinds.end()) a.kinds.push_back(kind);
  };
  for (const LeakGroup& g : r.leaks) {
    if (by == "rank") {  // each rank's share; a process without a rank by its pid
      for (const RankShare& s : g.ranks) add("rank " + std::to_string(s.rank), g.kind, s.bytes, s.count);
      const int rank = g.rank >= 0 ? g.rank : r.processes.empty() ? r.process.rank : -1;
      const int pid = g.pid ? g.pid : r.process.pid;
      if (g.ranks.empty())
        add(rank >= 0 ? "rank " + std::to_string(rank) : "pid " + std::to_string(pid), g.kind, g.bytes, g.count);
      continue;
    }
    std::string key;
    const Frame* f = allocation_frame(g);
    if (by == "kind") key = text_of(g.kind);
    else if (by == "stack") key = g.site.empty() ? gate::site_of(g) : g.site;
    else if (!f) key = "(" + g.api + ")";
    // Functions fold by the name a reader sees: the instances of one template,
    // whose names differ only past 160 characters, are one row.
    else if (by == "function") key = f->function.empty() ? "??" : readable_function_name(f->function.str());
    else if (by == "module") key = f->module;
    else key = f->file.empty() ? "(" + f->module + ")" : f->file.str();
    add(key, g.kind, g.bytes, g.count);
  }
  std::vector<Aggregate> out;
  for (auto& [key, a] : folded) out.push_back(std::move(a));
  std::stable_sort(out.begin(), out.end(), [](const Aggregate& a, const Aggregate& b) {
    return std::tie(a.bytes, a.count) > std::tie(b.bytes, b.count);
  });
  return out;
}

std::vector<SiteChange> diff_reports(const std::vector<Report>& old_runs, const std::vector<Report>& new_runs) {
  struct Totals {
    Kind kind = Kind::Device;
    uint64_t bytes = 0, count = 0;
    std::vector<int> ranks;
  };
  auto sites = [](const std::vector<Report>& all) {
    std::vector<ProcessSummary> superseded;
    const std::vector<Report> runs = latest_of_each_process(all, superseded);
    std::map<std::string, Totals> out;
    for (const Report& r : runs)
      for (const LeakGroup& g : r.leaks) {
        // The leaks the report counts: what is still reachable, cached or
        // suppressed is no leak site, as in the summary.
        if (counted_as(g) != CountedAs::Leaked) continue;
        Totals& t = out[g.site.empty() ? gate::site_of(g) : g.site];
        t.kind = g.kind;
        add_saturating(t.bytes, g.bytes);
        t.count += g.count;
        // A single rank's report, a merged group of one rank, or of several.
        if (r.processes.empty() && r.process.rank >= 0) t.ranks.push_back(r.process.rank);
        else if (g.rank >= 0) t.ranks.push_back(g.rank);
        for (const RankShare& share : g.ranks) t.ranks.push_back(share.rank);
      }
    for (auto& [site, t] : out) {
      std::sort(t.ranks.begin(), t.ranks.end());
      t.ranks.erase(std::unique(t.ranks.begin(), t.ranks.end()), t.ranks.end());
    }
    return out;
  };
  auto before = sites(old_runs), after = sites(new_runs);
  std::vector<SiteChange> changes;
  for (const auto& [site, n] : after) {
    auto it = before.find(site);
    SiteChange c{site, n.kind, Change::New, 0, n.bytes, 0, n.count, {}, n.ranks};
    if (it != before.end()) {
      c.old_bytes = it->second.bytes;
      c.old_count = it->second.count;
      c.old_ranks = it->second.ranks;
      c.change = (n.bytes > c.old_bytes || n.count > c.old_count)   ? Change::Grown
                 : (n.bytes < c.old_bytes || n.count < c.old_count) ? Change::Shrunk
                                                                    : Change::Same;
    }
    changes.push_back(c);
  }
  for (const auto& [site, o] : before)
    if (!after.count(site))
      changes.push_back(SiteChange{site, o.kind, Change::Gone, o.bytes, 0, o.count, 0, o.ranks, {}});
  // Change's values come in the order a diff lists them; biggest first within each.
  std::stable_sort(changes.begin(), changes.end(), [&](const SiteChange& a, const SiteChange& b) {
    return std::make_tuple(a.change, std::max(b.new_bytes, b.old_bytes)) <
           std::make_tuple(b.change, std::max(a.new_bytes, a.old_bytes));
  });
  return changes;
}

size_t new_or_grown(const std::vector<SiteChange>& changes) {
  return size_t(std::count_if(changes.begin(), changes.end(), [](const SiteChange& c) {
    return c.change == Change::New || c.change == Change::Grown;
  }));
}

}  // namespace cudaleak::report
