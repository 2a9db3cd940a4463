#include "merge.h"

#include <algorithm>

#include "kinds.h"

namespace cudaleak::report {

Report merge_reports(const std::vector<Report>& reports) {
  if (reports.size() == 1 && reports[0].processes.empty()) {
    Report single = reports[0];
    single.processes.push_back(ProcessSummary::of(single));
    for (auto& g : single.leaks) g.pid = single.process.pid, g.rank = single.process.rank;
    return single;
  }
  Report m;
  m.reason = "merged";
  for (const Report& r : reports) {
    if (m.tool_version.empty()) m.tool_version = r.tool_version;
    m.timestamp = std::max(m.timestamp, r.timestamp);
    m.symbolized = m.processes.empty() ? r.symbolized : (m.symbolized && r.symbolized);
    m.duration_ns = std::max(m.duration_ns, r.duration_ns);
    // A merged input brings its processes along; a single report is one process.
    if (!r.processes.empty()) m.processes.insert(m.processes.end(), r.processes.begin(), r.processes.end());
    else m.processes.push_back(ProcessSummary::of(r));
    for (LeakGroup g : r.leaks) {
      if (r.processes.empty()) g.pid = r.process.pid, g.rank = r.process.rank;
      m.leaks.push_back(std::move(g));
    }
    for (const auto& [kind, t] : r.summary.by_kind) {
      m.summary.by_kind[kind].bytes += t.bytes;
      m.summary.by_kind[kind].count += t.count;
    }
    m.summary.leaked_bytes += r.summary.leaked_bytes;
    m.summary.leaked_count += r.summary.leaked_count;
    m.summary.suppressed_bytes += r.summary.suppressed_bytes;
    m.summary.suppressed_count += r.summary.suppressed_count;
    m.notes.insert(m.notes.end(), r.notes.begin(), r.notes.end());
    m.oom_events.insert(m.oom_events.end(), r.oom_events.begin(), r.oom_events.end());
    m.notes_total += r.notes_total;
    if (m.timeline.kinds.empty()) m.timeline.kinds = r.timeline.kinds;
    for (DeviceTimeline d : r.timeline.devices) {
      if (d.pid == 0) d.pid = r.process.pid;
      m.timeline.devices.push_back(std::move(d));
    }
    m.gate.evaluated |= r.gate.evaluated;
    m.gate.failed |= r.gate.failed;
    m.gate.failing_groups += r.gate.failing_groups;
    m.gate.failing_bytes += r.gate.failing_bytes;
    m.gate.failing_count += r.gate.failing_count;
    if (m.gate.error.empty()) m.gate.error = r.gate.error;
  }
  std::stable_sort(m.leaks.begin(), m.leaks.end(), [](const LeakGroup& a, const LeakGroup& b) {
    return std::tie(a.bytes, a.count) > std::tie(b.bytes, b.count);
  });
  return m;
}

}  // namespace cudaleak::report
