#include "report/model/merge.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "common/kinds.h"
#include "report/model/summary.h"

namespace cudaleak::report {

namespace {

// Points carry one byte count per kind of their timeline's kind list; a
// merged timeline has the union of the lists, so points are laid out again.
void add_timeline(Timeline& into, const Timeline& from, int pid, uint64_t shift) {
  for (Kind k : from.kinds)
    if (std::find(into.kinds.begin(), into.kinds.end(), k) == into.kinds.end()) into.kinds.push_back(k);
  std::vector<size_t> slot;
  for (Kind k : from.kinds)
    slot.push_back(size_t(std::find(into.kinds.begin(), into.kinds.end(), k) - into.kinds.begin()));
  for (DeviceTimeline d : from.devices) {
    if (d.pid == 0) d.pid = pid;
    d.peak.time_ns += shift;
    for (TimelinePoint& p : d.points) {
      p.time_ns += shift;
      std::vector<uint64_t> bytes(into.kinds.size());
      for (size_t i = 0; i < p.bytes.size() && i < slot.size(); ++i) bytes[slot[i]] = p.bytes[i];
      p.bytes = std::move(bytes);
    }
    into.devices.push_back(std::move(d));
  }
  for (TimelineMark mark : from.marks) {
    if (mark.pid == 0) mark.pid = pid;
    mark.time_ns += shift;
    into.marks.push_back(std::move(mark));
  }
}

// Each report counts time from its own tracker's start (for a merged input,
// from its earliest process's). The merge counts from the earliest start of
// all, so that ranks started apart line up; 0 when a report does not say.
uint64_t start_of(const Report& r) {
  if (r.processes.empty()) return r.process.start_unix_ns;
  uint64_t first = 0;
  for (const ProcessSummary& p : r.processes)
    if (p.process.start_unix_ns && (!first || p.process.start_unix_ns < first)) first = p.process.start_unix_ns;
  return first;
}

// Which process and run wrote a report; empty when it cannot say (never the
// same as another's).
std::string identity(const Report& r) {
  if (!r.processes.empty()) return "";  // a merged report: many processes, already counted once each
  if (!r.process.run_id.empty()) return r.process.run_id;
  if (r.process.start_unix_ns) return std::to_string(r.process.pid) + "@" + std::to_string(r.process.start_unix_ns);
  return "";
}

// The latest report of each process, in the order given; the others go to `history`.
std::vector<Report> latest_of_each_process(std::vector<Report> reports, std::vector<ProcessSummary>& history) {
  std::map<std::string, size_t> latest;
  std::vector<bool> superseded(reports.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    std::string id = identity(reports[i]);
    if (id.empty()) continue;
    auto [it, first] = latest.try_emplace(id, i);
    if (first) continue;
    const Report &r = reports[i], &kept = reports[it->second];
    bool later = std::tie(r.duration_ns, r.timestamp) >= std::tie(kept.duration_ns, kept.timestamp);
    superseded[later ? it->second : i] = true;
    if (later) it->second = i;
  }
  std::vector<Report> kept;
  for (size_t i = 0; i < reports.size(); ++i) {
    if (superseded[i]) history.push_back(ProcessSummary::of(reports[i]));
    else kept.push_back(std::move(reports[i]));
  }
  return kept;
}

void shift_times(OomEvent& e, uint64_t shift) {
  e.time_ns += shift;
  for (OomSite& s : e.top_sites) s.first_ns += shift, s.last_ns += shift;
  for (OomAttempt& a : e.attempts) a.time_ns += shift;
  for (Reservation& v : e.reservations) v.time_ns += shift;
}

}  // namespace

Report merge_reports(std::vector<Report> all) {
  std::vector<ProcessSummary> history;
  std::vector<Report> reports = latest_of_each_process(std::move(all), history);
  if (reports.size() == 1 && reports[0].processes.empty()) {
    Report single = std::move(reports[0]);
    single.processes.push_back(ProcessSummary::of(single));
    single.history = std::move(history);
    for (auto& g : single.leaks) g.pid = single.process.pid, g.rank = single.process.rank;
    return single;
  }
  Report m;
  m.reason = Reason::Merged;
  m.history = std::move(history);
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
      for (Allocation& a : g.allocations) a.record.time_ns += shift;
      m.leaks.push_back(std::move(g));
    }
    for (const Module& mod : r.modules)
      if (std::find(m.modules.begin(), m.modules.end(), mod) == m.modules.end()) m.modules.push_back(mod);
    for (const SuppressionUse& u : r.suppressions) {
      auto it = std::find_if(m.suppressions.begin(), m.suppressions.end(),
                             [&](const SuppressionUse& x) { return x.rule == u.rule && x.source == u.source; });
      if (it == m.suppressions.end()) it = m.suppressions.insert(m.suppressions.end(), SuppressionUse{u.rule, u.source});
      it->count += u.count;
      it->bytes += u.bytes;
    }
    m.primary_contexts.insert(m.primary_contexts.end(), r.primary_contexts.begin(), r.primary_contexts.end());
    if (m.python.version.empty() && m.python.note.empty()) m.python = r.python;
    if (!m.has_pytorch && r.has_pytorch) m.has_pytorch = true, m.pytorch = r.pytorch;
    if (!m.has_cupy && r.has_cupy) m.has_cupy = true, m.cupy = r.cupy;
    m.notes.insert(m.notes.end(), r.notes.begin(), r.notes.end());
    for (OomEvent e : r.oom_events) {
      if (!e.pid) e.pid = r.process.pid;
      shift_times(e, shift);
      m.oom_events.push_back(std::move(e));
    }
    for (Reservation v : r.reservations) {
      if (!v.pid) v.pid = r.process.pid;
      v.time_ns += shift;
      m.reservations.push_back(std::move(v));
    }
    m.notes_total += r.notes_total;
    add_timeline(m.timeline, r.timeline, r.process.pid, shift);
    if (r.gate.evaluated) {  // the gates the processes asked for; a process that asked none fails none
      m.gate.evaluated = true;
      m.gate.failed |= r.gate.failed;
      m.gate.failing_groups += r.gate.failing_groups;
      m.gate.failing_bytes += r.gate.failing_bytes;
      m.gate.failing_count += r.gate.failing_count;
      m.gate.failing_tensor_groups += r.gate.failing_tensor_groups;
      if (m.gate.error.empty()) m.gate.error = r.gate.error;
    }
  }
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
