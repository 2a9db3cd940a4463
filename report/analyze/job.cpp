#include "report/analyze/job.h"

#include <algorithm>
#include <map>
#include <set>

#include "report/model/merge.h"

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
  for (const TimelinePoint& p : d.points) {  // in time order
    if (p.time_ns > t) break;
    at = &p;
  }
  if (!at) return false;
  bytes = 0;
  for (uint64_t b : at->bytes) bytes += b;
  return true;
}

}  // namespace

std::vector<RankMoment> others_at(const Report& r, size_t event) {
  const OomEvent& e = r.oom_events[event];
  std::map<std::pair<int64_t, int>, uint64_t> first_failure;  // (pid, rank): its earliest out-of-memory
  for (const OomEvent& theirs : r.oom_events) {
    if (theirs.recovered || theirs.rank < 0) continue;
    auto [it, fresh] = first_failure.try_emplace({theirs.pid, theirs.rank}, theirs.time_ns);
    if (!fresh) it->second = std::min(it->second, theirs.time_ns);
  }
  std::map<std::pair<int64_t, int>, std::vector<const DeviceTimeline*>> timelines;
  for (const DeviceTimeline& d : r.timeline.devices) timelines[{d.pid, d.rank}].push_back(&d);
  const uint64_t job_start = start_of(r);
  std::vector<RankMoment> out;
  for (const ProcessSummary& p : r.processes) {
    const Process& other = p.process;
    if (other.rank < 0 || (other.rank == e.rank && other.pid == e.pid)) continue;
    RankMoment m{other.rank, other.pid, -1, 0, false, false, 0, false, 0};
    // A process whose last report is its end, written before the moment,
    // held nothing then (its timeline's last point is what it had not freed
    // at exit, not what it held at the moment).
    const bool final_report = p.reason == Reason::Exit || p.reason == Reason::Termination || p.reason == Reason::Crash;
    if (final_report && p.duration_ns && job_start && other.start_unix_ns >= job_start) {
      const uint64_t end = other.start_unix_ns - job_start + p.duration_ns;
      if (end < e.time_ns) m.ended = true, m.ended_ns = end;
    }
    if (auto f = first_failure.find({other.pid, other.rank}); f != first_failure.end())
      m.failed = true, m.failed_ns = f->second;
    auto t = timelines.find({other.pid, other.rank});
    if (t == timelines.end()) t = timelines.find({other.pid, -1});
    if (t == timelines.end()) {
      out.push_back(m);
      continue;
    }
    for (const DeviceTimeline* d : t->second) {
      RankMoment on = m;
      on.device = d->device;
      on.known = !m.ended && bytes_at(*d, e.time_ns, on.bytes);
      out.push_back(on);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const RankMoment& a, const RankMoment& b) { return a.rank < b.rank; });
  return out;
}

std::vector<JobOom> job_ooms(const Report& r) {
  std::vector<JobOom> out;
  std::vector<size_t> order;
  for (size_t i = 0; i < r.oom_events.size(); ++i)
    if (!r.oom_events[i].recovered && r.oom_events[i].rank >= 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return r.oom_events[a].time_ns < r.oom_events[b].time_ns; });
  for (size_t i : order) out.push_back(JobOom{i, others_at(r, i)});
  return out;
}

}  // namespace cudaleak::report
