#include "report/analyze/job.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudaleak::report {

std::string rank_ranges(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
    if (j - i >= 2) out += "-" + std::to_string(ranks[j]);
    else if (j == i + 1) out += "," + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

JobShape job_shape(const Report& r) {
  std::vector<const Process*> processes;
  for (const ProcessSummary& p : r.processes) processes.push_back(&p.process);
  if (processes.empty()) processes.push_back(&r.process);
  JobShape job;
  std::map<int, int> claims;
  std::set<std::string> hosts, launchers;
  for (const Process* p : processes) {
    if (p->rank < 0) continue;
    ++claims[p->rank];
    job.world_size = std::max(job.world_size, p->world_size);
    if (!p->host.empty()) hosts.insert(p->host);
    if (!p->launcher.empty()) launchers.insert(p->launcher);
  }
  for (const auto& [rank, n] : claims) {
    job.ranks.push_back(rank);
    if (n > 1) job.repeated.push_back(rank);
  }
  for (int k = 0; k < job.world_size; ++k)
    if (!claims.count(k)) job.missing.push_back(k);
  job.hosts.assign(hosts.begin(), hosts.end());
  job.launchers.assign(launchers.begin(), launchers.end());
  return job;
}

namespace {

// Bytes of every memory kind on a device timeline at `t`: its last point at
// or before t; not known before its first point.
bool bytes_at(const DeviceTimeline& d, uint64_t t, uint64_t& bytes) {
  const TimelinePoint* at = nullptr;
  for (const TimelinePoint& p : d.points)
    if (p.time_ns <= t) at = &p;
  if (!at) return false;
  bytes = 0;
  for (uint64_t b : at->bytes) bytes += b;
  return true;
}

}  // namespace

std::vector<JobOom> job_ooms(const Report& r) {
  std::vector<JobOom> out;
  std::vector<size_t> order;
  for (size_t i = 0; i < r.oom_events.size(); ++i)
    if (!r.oom_events[i].recovered && r.oom_events[i].rank >= 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return r.oom_events[a].time_ns < r.oom_events[b].time_ns; });
  for (size_t i : order) {
    const OomEvent& e = r.oom_events[i];
    JobOom j{i, {}};
    for (const ProcessSummary& p : r.processes) {
      const Process& other = p.process;
      if (other.rank < 0 || (other.rank == e.rank && other.pid == e.pid)) continue;
      RankMoment m{other.rank, other.pid, -1, 0, false, false, 0};
      for (const OomEvent& theirs : r.oom_events)
        if (!theirs.recovered && theirs.pid == other.pid && theirs.rank == other.rank && (!m.failed || theirs.time_ns < m.failed_ns))
          m.failed = true, m.failed_ns = theirs.time_ns;
      bool any_device = false;
      for (const DeviceTimeline& d : r.timeline.devices) {
        if (d.pid != other.pid || (d.rank >= 0 && d.rank != other.rank)) continue;
        RankMoment on = m;
        on.device = d.device;
        on.known = bytes_at(d, e.time_ns, on.bytes);
        j.others.push_back(on);
        any_device = true;
      }
      if (!any_device) j.others.push_back(m);
    }
    std::stable_sort(j.others.begin(), j.others.end(),
                     [](const RankMoment& a, const RankMoment& b) { return a.rank < b.rank; });
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace cudaleak::report
