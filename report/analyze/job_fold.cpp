#include "report/analyze/job_fold.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/enum_names.h"
#include "common/quantities.h"
#include "report/model/frame_owner.h"

namespace cudaleak::report {

namespace {

constexpr uint64_t kFarAbove = 64ull << 20;  // an odd rank stands out by at least this much, not by noise

std::string every_nth(int first, int last, int step) {
  if (step == 2) return std::to_string(first) + "-" + std::to_string(last) + (first % 2 ? " odd" : " even");
  return std::to_string(first) + "-" + std::to_string(last) + " every " + std::to_string(step) +
         (step % 10 == 3 && step % 100 != 13 ? "rd" : "th");
}

std::vector<std::pair<int, int>> runs_of(const std::vector<int>& sorted) {
  std::vector<std::pair<int, int>> runs;
  for (int r : sorted)
    if (!runs.empty() && runs.back().second + 1 == r) runs.back().second = r;
    else runs.push_back({r, r});
  return runs;
}

std::string run_text(std::pair<int, int> run) {
  return std::to_string(run.first) + (run.second == run.first       ? ""
                                      : run.second == run.first + 1 ? "," + std::to_string(run.second)
                                                                    : "-" + std::to_string(run.second));
}

// The process of (pid, rank): pids repeat across hosts, ranks do not.
const Process* process_of(const Report& r, int64_t pid, int rank) {
  for (const ProcessSummary& p : r.processes)
    if (p.process.pid == pid && p.process.rank == rank) return &p.process;
  return nullptr;
}

uint64_t total_of(const TimelinePoint& p) {
  uint64_t sum = 0;
  for (uint64_t b : p.bytes) sum += b;
  return std::max(sum, p.max_total);
}

// The far tail of some values: above twice the 90th percentile and by more
// than noise. Empty when too many are there to call them odd.
template <class T, class Bytes>
std::vector<const T*> far_above(const std::vector<T>& items, Bytes bytes) {
  std::vector<uint64_t> values;
  for (const T& x : items) values.push_back(bytes(x));
  if (values.size() < 3) return {};
  std::sort(values.begin(), values.end());
  const uint64_t p90 = values[(values.size() - 1) * 9 / 10];
  std::vector<const T*> out;
  for (const T& x : items)
    if (bytes(x) >= 2 * p90 && bytes(x) >= p90 + kFarAbove) out.push_back(&x);
  if (out.size() > std::max<size_t>(1, items.size() / 16)) return {};
  std::stable_sort(out.begin(), out.end(), [&](const T* a, const T* b) { return bytes(*a) > bytes(*b); });
  if (out.size() > 3) out.resize(3);
  return out;
}

}  // namespace

std::string rank_list(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  const auto runs = runs_of(ranks);
  if (runs.size() <= 6) return rank_ranges(ranks);
  // Every other rank (the odd ones, every GPU 0 of eight): one step, and a few missing said as such.
  std::map<int, size_t> steps;
  for (size_t i = 1; i < ranks.size(); ++i) ++steps[ranks[i] - ranks[i - 1]];
  const int step = std::max_element(steps.begin(), steps.end(), [](auto& a, auto& b) {
                     return a.second < b.second;
                   })->first;
  if (step >= 2) {
    const int first = ranks.front(), last = ranks.back();
    bool on_step = std::all_of(ranks.begin(), ranks.end(), [&](int r) { return (r - first) % step == 0; });
    std::vector<int> missing;
    for (int r = first; on_step && r <= last && missing.size() <= 8; r += step)
      if (!std::binary_search(ranks.begin(), ranks.end(), r)) missing.push_back(r);
    if (on_step && missing.size() <= 8)
      return every_nth(first, last, step) + (missing.empty() ? "" : " but " + rank_ranges(missing));
  }
  std::string out;
  for (size_t i = 0; i < 3; ++i) out += (i ? "," : "") + run_text(runs[i]);
  return out + ",...," + run_text(runs[runs.size() - 2]) + "," + run_text(runs.back());
}

std::string host_list(std::vector<std::string> hosts) {
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  // Names that end in digits, by their stem and the digits' width: node007 is (node, 3, 7).
  std::map<std::pair<std::string, size_t>, std::vector<int>> numbered;
  std::vector<std::string> plain;
  for (const std::string& h : hosts) {
    size_t digits = h.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(h[digits - 1]))) --digits;
    const size_t width = h.size() - digits;
    if (hosts.size() <= 3 || width == 0 || width > 9) plain.push_back(h);
    else numbered[{h.substr(0, digits), width}].push_back(std::stoi(h.substr(digits)));
  }
  std::vector<std::string> parts = plain;
  for (const auto& [stem, numbers] : numbered) {
    auto padded = [width = stem.second](int n) {
      std::string s = std::to_string(n);
      return std::string(width > s.size() ? width - s.size() : 0, '0') + s;
    };
    if (numbers.size() == 1) {
      parts.push_back(stem.first + padded(numbers[0]));
      continue;
    }
    std::string list;
    for (auto [a, b] : runs_of(numbers))
      list += (list.empty() ? "" : ",") + padded(a) + (b == a ? "" : (b == a + 1 ? "," : "-") + padded(b));
    parts.push_back(stem.first + "[" + list + "]");
  }
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty() && out.size() + p.size() > 100) return out + ", ...";
    out += (out.empty() ? "" : ", ") + p;
  }
  if (out.size() > 104) {  // one stem of many runs: cut at a comma
    const size_t cut = out.rfind(',', 100);
    out = out.substr(0, cut) + ",...]";
  }
  return out;
}

Spread spread_of(std::vector<uint64_t> values) {
  Spread s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.min = values.front(), s.max = values.back(), s.median = values[values.size() / 2];
  return s;
}

std::string oom_story_key(const OomEvent& e) {
  const Frame* f = user_frame(e.stack);
  std::string key = e.api + '\n';
  if (f) key += f->function.str() + '@' + f->file.str() + ':' + std::to_string(f->line) + '\n';
  for (const Diagnosis& d : e.diagnosis) key += std::string(name_of(d.cause)) + ',';
  return key;
}

std::vector<OomStory> oom_stories(const Report& r) {
  std::vector<size_t> order;
  for (size_t i = 0; i < r.oom_events.size(); ++i)
    if (!r.oom_events[i].recovered && r.oom_events[i].rank >= 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return r.oom_events[a].time_ns < r.oom_events[b].time_ns; });
  std::vector<OomStory> stories;
  std::map<std::string, size_t> of_key;
  for (size_t i : order) {
    auto [it, fresh] = of_key.try_emplace(oom_story_key(r.oom_events[i]), stories.size());
    if (fresh) stories.emplace_back();
    stories[it->second].events.push_back(i);
  }
  for (OomStory& s : stories) {
    std::set<int> ranks;
    std::set<std::string> hosts;
    for (size_t i : s.events) {
      const OomEvent& e = r.oom_events[i];
      ranks.insert(e.rank);
      if (const Process* p = process_of(r, e.pid, e.rank); p && !p->host.empty()) hosts.insert(p->host);
    }
    s.ranks.assign(ranks.begin(), ranks.end());
    s.hosts.assign(hosts.begin(), hosts.end());
  }
  return stories;
}

std::optional<size_t> devices_among(const Report& r, const std::vector<RankDevice>& members) {
  std::set<std::string> gpus;
  std::map<std::string, std::set<int64_t>> ordinal_users;  // host and ordinal without a UUID: the processes saying it
  for (const RankDevice& m : members) {
    const Process* p = process_of(r, m.pid, m.rank);
    const std::string host = p ? p->host : std::string();
    std::string uuid;
    for (const DeviceTimeline& d : r.timeline.devices)
      if (d.pid == m.pid && (d.rank < 0 || d.rank == m.rank) && d.device == m.device && !d.uuid.empty()) uuid = d.uuid;
    if (uuid.empty()) {
      const std::string key = host + '\n' + std::to_string(m.device);
      ordinal_users[key].insert(m.pid);
      gpus.insert(key);
    } else {
      gpus.insert(host + '\n' + uuid);
    }
  }
  for (const auto& [key, pids] : ordinal_users)
    if (pids.size() > 1) return std::nullopt;
  return gpus.size();
}

OthersSummary summarize_others(const std::vector<RankMoment>& others) {
  OthersSummary s;
  std::map<std::tuple<bool, bool, std::string, bool>, size_t> of_key;
  std::vector<uint64_t> held;
  std::vector<RankMoment> known;
  for (const RankMoment& m : others) {
    auto key = std::make_tuple(m.ended, m.known, m.known ? format_bytes(m.bytes) : std::string(), m.failed);
    auto [it, fresh] = of_key.try_emplace(key, s.buckets.size());
    if (fresh) s.buckets.push_back(MomentBucket{m.bytes, m.known, m.failed, m.ended, {}});
    s.buckets[it->second].ranks.push_back(m.rank);
    if (m.known) held.push_back(m.bytes), known.push_back(m);
  }
  std::stable_sort(s.buckets.begin(), s.buckets.end(),
                   [](const MomentBucket& a, const MomentBucket& b) { return a.ranks.size() > b.ranks.size(); });
  s.held = spread_of(held);
  for (const RankMoment* m : far_above(known, [](const RankMoment& x) { return x.bytes; }))
    s.standing_out.push_back(*m);
  return s;
}

ViewMoment moment_of(const Report& r, int pid, int rank, ViewMoment stated) {
  if (r.processes.size() <= 1) return stated;
  for (const ProcessSummary& p : r.processes)
    if (p.process.pid == pid && p.process.rank == rank)
      return p.reason == Reason::Oom                                        ? ViewMoment::Oom
             : p.reason == Reason::Signal || p.reason == Reason::Checkpoint ? ViewMoment::Snapshot
                                                                            : ViewMoment::Exit;
  return stated;
}

std::vector<ViewFold> fold_pytorch(const Report& r, std::string (*origin)(const AllocatorDevice&)) {
  std::vector<ViewFold> folds;
  std::map<std::string, size_t> of_key;
  for (size_t i = 0; i < r.pytorch.devices.size(); ++i) {
    const AllocatorDevice& d = r.pytorch.devices[i];
    if (!d.reserved) continue;
    const ViewMoment when = moment_of(r, int(d.pid), d.rank, r.pytorch.when);
    auto [it, fresh] = of_key.try_emplace(std::string(name_of(when)) + '\n' + origin(d), folds.size());
    if (fresh) folds.push_back(ViewFold{when, {}, {}});
    folds[it->second].members.push_back(i);
    folds[it->second].ranks.push_back(d.rank);
  }
  return folds;
}

std::vector<ViewFold> fold_cupy(const Report& r) {
  std::vector<ViewFold> folds;
  const std::vector<CupyPool> pools = r.cupy_processes.empty() ? std::vector<CupyPool>{r.cupy} : r.cupy_processes;
  std::map<ViewMoment, size_t> of_moment;
  for (size_t i = 0; i < pools.size(); ++i) {
    if (!pools[i].total_bytes) continue;
    auto [it, fresh] = of_moment.try_emplace(pools[i].when, folds.size());
    if (fresh) folds.push_back(ViewFold{pools[i].when, {}, {}});
    folds[it->second].members.push_back(i);
    folds[it->second].ranks.push_back(pools[i].rank);
  }
  return folds;
}

std::vector<ViewFold> fold_jax(const Report& r) {
  std::vector<ViewFold> folds;
  std::map<ViewMoment, size_t> of_moment;
  for (size_t i = 0; i < r.jax.devices.size(); ++i) {
    const JaxDevice& d = r.jax.devices[i];
    if (!d.arrays_bytes && !d.bytes_in_use && !d.no_memory_arrays) continue;
    const ViewMoment when = moment_of(r, int(d.pid), d.rank, r.jax.when);
    auto [it, fresh] = of_moment.try_emplace(when, folds.size());
    if (fresh) folds.push_back(ViewFold{when, {}, {}});
    folds[it->second].members.push_back(i);
    folds[it->second].ranks.push_back(d.rank);
  }
  return folds;
}

namespace {

struct RankPeak {
  const Process* process = nullptr;
  int device = -1;
  uint64_t peak = 0, peak_ns = 0, first = 0, first_ns = 0;
};

void grew(const Report& r, std::vector<OddRank>& out) {
  std::map<std::pair<int64_t, int>, RankPeak> peaks;
  for (const DeviceTimeline& d : r.timeline.devices) {
    if (d.points.empty()) continue;
    const Process* p = process_of(r, d.pid, d.rank);
    if (!p || p->rank < 0) continue;
    RankPeak& k = peaks[{d.pid, d.rank}];
    k.process = p;
    for (const TimelinePoint& point : d.points)
      if (total_of(point) > k.peak) k.peak = total_of(point), k.peak_ns = point.time_ns, k.device = d.device;
    if (k.device == d.device) k.first = total_of(d.points.front()), k.first_ns = d.points.front().time_ns;
  }
  std::vector<RankPeak> all;
  std::vector<uint64_t> values;
  for (const auto& [key, k] : peaks) all.push_back(k), values.push_back(k.peak);
  const uint64_t median = spread_of(values).median;
  for (const RankPeak* k : far_above(all, [](const RankPeak& x) { return x.peak; })) {
    OddRank o;
    o.why = OddRank::Why::Grew;
    o.rank = k->process->rank, o.pid = k->process->pid, o.host = k->process->host, o.device = k->device;
    o.bytes = k->peak, o.median_bytes = median, o.peak_ns = k->peak_ns, o.first_bytes = k->first,
    o.first_ns = k->first_ns;
    out.push_back(o);
  }
}

void other_process(const Report& r, std::vector<OddRank>& out) {
  std::map<std::string, OddRank> by_host;
  std::set<std::string> failing_hosts;
  for (const OomEvent& e : r.oom_events) {
    if (e.recovered || e.rank < 0) continue;
    const Process* p = process_of(r, e.pid, e.rank);
    const std::string host = p ? p->host : "";
    failing_hosts.insert(host);
    for (const OtherProcessUsage& other : e.other_processes) {
      if (other.rank >= 0) continue;  // a rank of the job: not another process
      OddRank& o = by_host[host];
      o.why = OddRank::Why::OtherProcess;
      o.host = host;
      o.ranks.push_back(e.rank);
      if (other.bytes >= o.bytes)
        o.bytes = other.bytes, o.other_pid = other.pid, o.other_name = other.name, o.rank = e.rank, o.pid = e.pid,
        o.device = e.device;
    }
  }
  // Another process beside every failing rank is the job's story, not an odd host's.
  if (by_host.empty() || by_host.size() >= failing_hosts.size()) return;
  std::vector<OddRank> hosts;
  for (auto& [host, o] : by_host) {
    std::sort(o.ranks.begin(), o.ranks.end());
    o.ranks.erase(std::unique(o.ranks.begin(), o.ranks.end()), o.ranks.end());
    o.hosts_without = failing_hosts.size() - by_host.size();
    hosts.push_back(o);
  }
  std::stable_sort(hosts.begin(), hosts.end(), [](const OddRank& a, const OddRank& b) { return a.bytes > b.bytes; });
  if (hosts.size() > 3) hosts.resize(3);
  out.insert(out.end(), hosts.begin(), hosts.end());
}

void own_leak(const Report& r, size_t ranked, std::vector<OddRank>& out) {
  std::vector<OddRank> own;
  std::set<int> owners;
  for (size_t i = 0; i < r.leaks.size(); ++i) {
    const LeakGroup& g = r.leaks[i];
    if (!g.ranks.empty() || g.rank < 0 || !g.suppressed_by.empty() || !g.cached_by.empty() || !g.owner.empty())
      continue;
    OddRank o;
    o.why = OddRank::Why::OwnLeak;
    o.rank = g.rank, o.pid = g.pid, o.device = g.device, o.bytes = g.bytes, o.group = i;
    if (const Process* p = process_of(r, g.pid, g.rank)) o.host = p->host;
    owners.insert(g.rank);
    own.push_back(o);
  }
  // Many ranks with a group of their own is how the job leaks, not one odd rank.
  if (own.empty() || owners.size() > std::max<size_t>(1, ranked / 16)) return;
  std::stable_sort(own.begin(), own.end(), [](const OddRank& a, const OddRank& b) { return a.bytes > b.bytes; });
  if (own.size() > 3) own.resize(3);
  out.insert(out.end(), own.begin(), own.end());
}

// A rank whose JAX arrays far outweigh the other ranks' (its latest view).
void held_arrays(const Report& r, std::vector<OddRank>& out) {
  std::vector<size_t> ranked;
  std::vector<uint64_t> values;
  for (size_t i = 0; i < r.jax.devices.size(); ++i)
    if (r.jax.devices[i].rank >= 0) ranked.push_back(i), values.push_back(r.jax.devices[i].arrays_bytes);
  const uint64_t median = spread_of(values).median;
  for (const size_t* i : far_above(ranked, [&](size_t x) { return r.jax.devices[x].arrays_bytes; })) {
    const JaxDevice& d = r.jax.devices[*i];
    OddRank o;
    o.why = OddRank::Why::HeldArrays;
    o.rank = d.rank, o.pid = d.pid, o.device = d.device, o.bytes = d.arrays_bytes, o.median_bytes = median,
    o.group = *i;
    if (const Process* p = process_of(r, d.pid, d.rank)) o.host = p->host;
    out.push_back(o);
  }
}

}  // namespace

std::vector<OddRank> odd_ranks(const Report& r) {
  size_t ranked = 0;
  for (const ProcessSummary& p : r.processes) ranked += p.process.rank >= 0;
  std::vector<OddRank> out;
  if (ranked < 3) return out;
  grew(r, out);
  held_arrays(r, out);
  other_process(r, out);
  own_leak(r, ranked, out);
  return out;
}

}  // namespace cudaleak::report
