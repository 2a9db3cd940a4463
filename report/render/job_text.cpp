#include "report/render/job_text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "common/enum_names.h"
#include "common/quantities.h"
#include "report/analyze/job_fold.h"
#include "report/model/cuda_frames.h"
#include "report/model/merge.h"
#include "report/model/place_name.h"
#include "report/oom/diagnose_jax.h"
#include "report/render/jax_text.h"
#include "report/render/jax_words.h"
#include "report/render/oom_text.h"
#include "report/render/tensor_words.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


namespace {

constexpr size_t kFoldFrom = 3;  // ranks alike before they are told as one

const Process* find_process(const Report& r, int64_t pid, int rank) {
  for (const ProcessSummary& p : r.processes)
    if (p.process.pid == pid && p.process.rank == rank) return &p.process;
  return nullptr;
}

// "rank 4 (pid 4000 on node000)": pids repeat across hosts, so the host is said where known.
std::string rank_label(const Report& r, int64_t pid, int rank) {
  const Process* p = find_process(r, pid, rank);
  return "rank " + std::to_string(rank) + " (pid " + std::to_string(pid) +
         (p && !p->host.empty() ? " on " + p->host : "") + ")";
}

// "train (pid 12, rank 0)": one process's view, as a job of two ranks says it.
std::string process_label(const Report& r, int64_t pid, int rank) {
  const Process* p = find_process(r, pid, rank);
  const std::string exe = p ? basename(p->exe) : "";
  return (exe.empty() ? "pid " + std::to_string(pid) : exe + " (pid " + std::to_string(pid)) +
         (rank >= 0 ? ", rank " + std::to_string(rank) : "") + (exe.empty() ? "" : ")");
}

std::string ranks_word(size_t n) { return n == 1 ? "rank " : "ranks "; }

// "4.0 GiB" when all print alike, else "median 4.0 GiB (1.0 GiB-8.0 GiB)".
std::string bytes_spread(const Spread& s) {
  if (format_bytes(s.min) == format_bytes(s.max)) return format_bytes(s.min);
  return "median " + format_bytes(s.median) + " (" + format_bytes(s.min) + "-" + format_bytes(s.max) + ")";
}

// The numbers of a story's events that differ from rank to rank.
std::string across_text(const Report& r, const OomStory& s) {
  std::vector<uint64_t> times, request, free, tracked, untracked, reserved, arrays;
  for (size_t i : s.events) {
    const OomEvent& e = r.oom_events[i];
    times.push_back(e.time_ns), request.push_back(e.request_bytes), tracked.push_back(e.tracked_bytes),
        untracked.push_back(e.untracked_bytes);
    if (e.device_info) free.push_back(e.free_bytes);
    if (e.has_pytorch) reserved.push_back(e.pytorch.reserved);
    if (e.has_jax) arrays.push_back(e.jax.device.arrays_bytes);
  }
  const Spread t = spread_of(times);
  std::string out = "  Across the " + std::to_string(s.ranks.size()) + " ranks: between " + format_duration(t.min) +
                    " and " + format_duration(t.max) + " of the job";
  std::string differ;
  auto add = [&](const char* what, const std::vector<uint64_t>& values) {
    if (values.empty()) return;
    const Spread v = spread_of(values);
    if (format_bytes(v.min) != format_bytes(v.max)) differ += std::string("; ") + what + " " + bytes_spread(v);
  };
  add("request", request), add("free", free), add("tracked", tracked), add("untracked", untracked),
      add("PyTorch reserved", reserved), add("JAX's live arrays", arrays);
  if (s.hosts.size() > 1) out += ", on " + std::to_string(s.hosts.size()) + " hosts (" + host_list(s.hosts) + ")";
  else if (s.hosts.size() == 1) out += ", on host " + s.hosts.front();
  return out + (differ.empty() ? "; the same numbers on every rank" : differ) + "\n";
}

// ", each on its own device", ", on 2 devices", or "" where the reports do
// not say which GPUs the ranks were on.
std::string devices_phrase(const Report& r, const std::vector<RankDevice>& members) {
  const std::optional<size_t> gpus = devices_among(r, members);
  if (!gpus) return "";
  std::set<std::pair<int64_t, int>> ranks;
  for (const RankDevice& m : members) ranks.insert({m.pid, m.rank});
  return *gpus >= ranks.size() && *gpus == members.size() ? ", each on its own device"
                                                          : ", on " + count_of(*gpus, "device", "devices");
}

// Each other rank, as a job of a few ranks reads (job.h's RankMoment).
std::string others_listed(const std::vector<RankMoment>& others, uint64_t at) {
  std::string out = "  The other ranks at that moment:";
  for (size_t k = 0; k < others.size(); ++k) {
    const RankMoment& m = others[k];
    out += std::string(k ? ";" : "") + " rank " + std::to_string(m.rank);
    out += rank_moment_text(m);
    if (m.failed)
      out += m.failed_ns < at ? " (it had run out of memory at " + format_duration(m.failed_ns) + ")"
                              : " (it ran out of memory too, at " + format_duration(m.failed_ns) + ")";
  }
  return out + "\n";
}

// Many other ranks: how many held how much, and the ones far above the rest.
std::string others_distribution(const Report& r, const std::vector<RankMoment>& others) {
  const OthersSummary s = summarize_others(others);
  std::vector<int> ranks;
  for (const RankMoment& m : others) ranks.push_back(m.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<RankDevice> devices;
  for (const RankMoment& m : others)
    if (m.device >= 0) devices.push_back({m.pid, m.rank, m.device});
  std::string out = "  The other " + std::to_string(ranks.size()) + " ranks at that moment" +
                    (devices.size() == others.size() ? devices_phrase(r, devices) : "") + ":";
  size_t shown = 0, rest = 0;
  for (const MomentBucket& b : s.buckets) {
    if (shown == 4) {
      rest += b.ranks.size();
      continue;
    }
    out += std::string(shown++ ? ";" : "") + " " + std::to_string(b.ranks.size()) +
           (b.ended   ? " had ended"
            : b.known ? " held " + format_bytes(b.bytes)
                      : " had no timeline point yet") +
           (b.failed ? " and ran out of memory themselves" : "") + " (" + ranks_word(b.ranks.size()) +
           rank_list(b.ranks) + ")";
  }
  if (rest) out += "; " + std::to_string(rest) + " held other amounts";
  if (s.held.n > 1 && format_bytes(s.held.min) != format_bytes(s.held.max)) out += "; in all: " + bytes_spread(s.held);
  out += "\n";
  for (const RankMoment& m : s.standing_out)
    out += "  Standing out: " + rank_label(r, m.pid, m.rank) + " held " + format_bytes(m.bytes) + " on device " +
           std::to_string(m.device) + ", against the median rank's " + format_bytes(s.held.median) + "\n";
  return out;
}

// A merge counts time from its earliest process's start; the rank's own
// clock is given too, so that its own line is seen to be the same moment.
std::string own_time(const Report& r, const OomEvent& e) {
  const uint64_t job_start = start_of(r);
  const Process* p = find_process(r, e.pid, e.rank);
  if (!p || !job_start || p->start_unix_ns <= job_start || e.time_ns < p->start_unix_ns - job_start) return "";
  return " of the job (" + format_duration(e.time_ns - (p->start_unix_ns - job_start)) + " into its own run)";
}

std::string ratio(uint64_t a, uint64_t b) {
  if (!b) return "";
  char text[32];
  std::snprintf(text, sizeof text, " (%.1fx)", double(a) / double(b));
  return text;
}

}  // namespace

std::string rank_moment_text(const RankMoment& m) {
  std::string out = m.device >= 0 ? " on device " + std::to_string(m.device) : "";
  if (m.ended) return out + " had ended at " + format_duration(m.ended_ns);
  return out + (m.known         ? " held " + format_bytes(m.bytes)
                : m.device >= 0 ? " had not allocated yet"
                                : ": no timeline");
}

std::string job_line(const JobShape& job) {
  std::string line = "  job: " + ranks_word(job.ranks.size()) + rank_list(job.ranks);
  if (job.world_size) line += " of " + std::to_string(job.world_size);
  if (!job.launchers.empty()) {
    line += " (";
    for (size_t i = 0; i < job.launchers.size(); ++i) line += (i ? ", " : "") + job.launchers[i];
    line += ")";
  }
  if (job.hosts.size() == 1) line += " on host " + job.hosts.front();
  if (job.hosts.size() > 1) line += " on " + std::to_string(job.hosts.size()) + " hosts (" + host_list(job.hosts) + ")";
  if (!job.missing.empty()) line += "; no report from " + ranks_word(job.missing.size()) + rank_list(job.missing);
  if (!job.repeated.empty())
    line += "; " + ranks_word(job.repeated.size()) + rank_list(job.repeated) +
            " reported by more than one process (reports of another job or run in the same folder?)";
  return line + "\n";
}

std::string odd_ranks_text(const Report& r, const std::string& prefix) {
  const std::vector<OddRank> odd = odd_ranks(r);
  if (odd.empty()) return "";
  std::string out = "\n" + prefix + (odd.size() == 1 ? "a rank unlike the others:\n" : "ranks unlike the others:\n");
  for (const OddRank& o : odd) {
    switch (o.why) {
      case OddRank::Why::Grew:
        out += "  " + rank_label(r, o.pid, o.rank) + " grew to " + format_bytes(o.bytes) + " on device " +
               std::to_string(o.device) + " (from " + format_bytes(o.first_bytes) + " at " +
               format_duration(o.first_ns) + " to " + format_bytes(o.bytes) + " at " + format_duration(o.peak_ns) +
               "), while the median rank peaked at " + format_bytes(o.median_bytes) + ratio(o.bytes, o.median_bytes) +
               "\n";
        break;
      case OddRank::Why::OtherProcess:
        out += "  host " + (o.host.empty() ? std::string("(unnamed)") : o.host) + ": another process (pid " +
               std::to_string(o.other_pid) + (o.other_name.empty() ? "" : ", " + o.other_name) + ") held " +
               format_bytes(o.bytes) + " of device " + std::to_string(o.device) + " when " +
               ranks_word(o.ranks.size()) + rank_list(o.ranks) + " ran out of memory there; the failing ranks of " +
               count_of(o.hosts_without, "other host", "other hosts") + " saw none\n";
        break;
      case OddRank::Why::HeldArrays: {
        const JaxDevice& d = r.jax.devices[o.group];
        const std::vector<oom::JaxLine> lines = oom::jax_lines(d);
        out += "  " + rank_label(r, o.pid, o.rank) + " held " + format_bytes(o.bytes) +
               " in JAX's live arrays on device " + std::to_string(o.device) + " at " +
               text_of(moment_of(r, int(o.pid), o.rank, r.jax.when)) +
               (lines.empty() ? "" : ", the most " + render::jax_line_text(lines.front())) +
               ", while the median rank held " + format_bytes(o.median_bytes) + ratio(o.bytes, o.median_bytes) + "\n";
        break;
      }
      case OddRank::Why::OwnLeak: {
        const LeakGroup& g = r.leaks[o.group];
        out += "  " + rank_label(r, o.pid, o.rank) + " alone leaked " + format_bytes(g.bytes) + " (" +
               count_of(g.count, std::string(kind_name(g.kind)) + " resource",
                        std::string(kind_name(g.kind)) + " resources") +
               ") in " + where_of(g.stack, g.api) + ": no other rank has this leak group\n";
        break;
      }
    }
  }
  return out;
}

std::string folded_ooms_text(const Report& r, const std::string& prefix, std::vector<bool>& told) {
  // A story of a few ranks is told event by event, as a job of two ranks
  // always was; one of many ranks once, at its first failure.
  struct Told {
    uint64_t time_ns;
    size_t event;
    const OomStory* story;  // null: this event alone
  };
  const std::vector<OomStory> stories = oom_stories(r);
  std::vector<Told> order;
  for (const OomStory& s : stories) {
    for (size_t i : s.events) told[i] = true;
    if (s.ranks.size() >= kFoldFrom) order.push_back({r.oom_events[s.events.front()].time_ns, s.events.front(), &s});
    else
      for (size_t i : s.events) order.push_back({r.oom_events[i].time_ns, i, nullptr});
  }
  std::stable_sort(order.begin(), order.end(), [](const Told& a, const Told& b) { return a.time_ns < b.time_ns; });
  std::string out;
  bool first = true;
  for (const Told& t : order) {
    const OomEvent& e = r.oom_events[t.event];
    if (!t.story)
      out += "\n" + prefix + "rank " + std::to_string(e.rank) + " (pid " + std::to_string(e.pid) +
             ") ran out of memory" + (first ? " first" : "") + ", at " + format_duration(e.time_ns) + own_time(r, e) +
             ":\n  " + render::render_event(e);
    else
      out += "\n" + prefix + std::to_string(t.story->ranks.size()) + " ranks ran out of memory in " +
             where_of(e.stack, e.api) + ": " + ranks_word(t.story->ranks.size()) + rank_list(t.story->ranks) + "; " +
             rank_label(r, e.pid, e.rank) + (first ? " first" : " the first of them") + ", at " +
             format_duration(e.time_ns) + own_time(r, e) + ":\n  " + render::render_event(e) + across_text(r, *t.story);
    first = false;
    const std::vector<RankMoment> others = others_at(r, t.event);
    if (others.empty()) continue;
    out += others.size() <= 8 ? others_listed(others, e.time_ns) : others_distribution(r, others);
  }
  return out;
}

std::string folded_pytorch_text(const Report& r, const std::string& prefix, const std::string& gate_words) {
  std::string out;
  auto origins = [](const AllocatorDevice& d) {
    std::string key;
    for (size_t i = 0; i < d.live_tensors.size() && i < 5; ++i) key += render::tensor_origin(d.live_tensors[i]) + '\n';
    return key;
  };
  std::vector<ViewFold> folds;
  for (ViewFold& f : fold_pytorch(r, +origins)) {
    if (f.when == ViewMoment::Oom) continue;  // its out-of-memory story said it
    if (f.members.size() >= kFoldFrom) folds.push_back(std::move(f));
    else
      for (size_t i = 0; i < f.members.size(); ++i) folds.push_back(ViewFold{f.when, {f.members[i]}, {f.ranks[i]}});
  }
  for (const ViewFold& f : folds) {
    const AllocatorDevice& d = r.pytorch.devices[f.members.front()];
    std::vector<uint64_t> reserved, allocated;
    std::vector<RankDevice> devices;
    for (size_t i : f.members) {
      const AllocatorDevice& m = r.pytorch.devices[i];
      reserved.push_back(m.reserved), allocated.push_back(m.allocated);
      devices.push_back({m.pid, m.rank, m.device});
    }
    const bool one = f.members.size() == 1;
    out += "\n" + prefix + "PyTorch at " + text_of(f.when) +
           (one ? " on device " + std::to_string(d.device) + (d.pid ? " in " + process_label(r, d.pid, d.rank) : "")
                : " on " + std::to_string(f.ranks.size()) + " " + ranks_word(f.ranks.size()) + "(" +
                      rank_list(f.ranks) + ")" + devices_phrase(r, devices)) +
           ": " + bytes_spread(spread_of(reserved)) + " reserved, " +
           (one ? render::held_by_live_tensors(d.allocated, d.live_tensors)
                : bytes_spread(spread_of(allocated)) + " allocated") +
           gate_words +
           (d.live_tensors.empty() ? "\n"
            : one                  ? ":\n"
                                   : "; " + rank_label(r, d.pid, d.rank) + "'s tensors:\n");
    out += render::live_tensor_lines(d.live_tensors);
  }
  return out;
}

namespace {

// One user line's arrays across a fold's devices (jax_lines of each).
struct LineAcross {
  oom::JaxLine widest;  // the member's line with the largest array: its shape is told
  std::vector<uint64_t> bytes, counts;
  std::vector<int> ranks;
  uint64_t total = 0;
};

std::vector<LineAcross> lines_across(const Report& r, const ViewFold& f) {
  std::vector<LineAcross> out;
  std::map<std::string, size_t> of_key;
  for (size_t i : f.members) {
    const JaxDevice& d = r.jax.devices[i];
    for (const oom::JaxLine& l : oom::jax_lines(d)) {
      auto [it, fresh] = of_key.try_emplace(oom::jax_line_key(l), out.size());
      if (fresh) out.push_back(LineAcross{l, {}, {}, {}, 0});
      LineAcross& a = out[it->second];
      if (l.largest_bytes > a.widest.largest_bytes) a.widest = l;
      a.bytes.push_back(l.bytes), a.counts.push_back(l.count), a.ranks.push_back(d.rank), a.total += l.bytes;
    }
  }
  // "the largest" where any rank has more than one.
  for (LineAcross& a : out) a.widest.count = spread_of(a.counts).max;
  std::stable_sort(out.begin(), out.end(), [](const LineAcross& a, const LineAcross& b) { return a.total > b.total; });
  return out;
}

// "11", or "11-88" where the ranks differ.
std::string count_spread(const std::vector<uint64_t>& counts) {
  const Spread c = spread_of(counts);
  return c.min == c.max ? std::to_string(c.min) : std::to_string(c.min) + "-" + std::to_string(c.max);
}

std::string counts_text(const std::vector<uint64_t>& counts) {
  const Spread c = spread_of(counts);
  return count_spread(counts) + (c.max == 1 ? " array" : " arrays");
}

std::string folded_jax_fold(const Report& r, const ViewFold& f, const std::string& prefix) {
  std::vector<uint64_t> in_use, limit, arrays_bytes, arrays;
  std::vector<int> no_memory_ranks;
  const JaxDevice* no_memory = nullptr;  // the first device with arrays that hold none: its texts are told
  std::vector<RankDevice> devices;
  for (size_t i : f.members) {
    const JaxDevice& d = r.jax.devices[i];
    devices.push_back({d.pid, d.rank, d.device});
    if (d.bytes_limit) in_use.push_back(d.bytes_in_use), limit.push_back(d.bytes_limit);
    arrays_bytes.push_back(d.arrays_bytes), arrays.push_back(d.arrays);
    if (d.no_memory_arrays) {
      no_memory_ranks.push_back(d.rank);
      if (!no_memory) no_memory = &d;
    }
  }
  std::string out = "\n" + prefix + "JAX at " + text_of(f.when) + " on " + std::to_string(f.ranks.size()) + " " +
                    ranks_word(f.ranks.size()) + "(" + rank_list(f.ranks) + ")" + devices_phrase(r, devices) + ": ";
  if (!limit.empty())
    out += "XLA's pool " + bytes_spread(spread_of(in_use)) + " in use of its " + bytes_spread(spread_of(limit)) +
           " limit; ";
  out += "live arrays " + bytes_spread(spread_of(arrays_bytes)) + " in " + count_spread(arrays) +
         " (not leaks, not gated)";
  const std::vector<LineAcross> lines = lines_across(r, f);
  out += lines.empty() && !no_memory ? "\n" : ", by the user's line:\n";
  for (size_t k = 0; k < lines.size() && k < 5; ++k) {
    const LineAcross& l = lines[k];
    out += "    " + bytes_spread(spread_of(l.bytes)) + " in " + counts_text(l.counts) +
           render::jax_line_origin(l.widest) +
           (l.ranks.size() == f.ranks.size() ? ""
                                             : ", on " + ranks_word(l.ranks.size()) + rank_list(l.ranks) + " only") +
           "\n";
  }
  if (lines.size() > 5) out += "    ... " + count_of(lines.size() - 5, "more line", "more lines") + "\n";
  if (no_memory)
    for (const std::string& text : render::jax_no_memory_texts(*no_memory))
      out += "    " + ranks_word(no_memory_ranks.size()) + rank_list(no_memory_ranks) + ": " + text + "\n";
  return out;
}

}  // namespace

std::string folded_jax_text(const Report& r, const std::string& prefix) {
  std::string out;
  for (const ViewFold& f : fold_jax(r)) {
    if (f.when == ViewMoment::Oom) continue;  // its out-of-memory story said it
    if (f.members.size() >= kFoldFrom) {
      out += folded_jax_fold(r, f, prefix);
      continue;
    }
    for (size_t i : f.members) {
      const JaxDevice& d = r.jax.devices[i];
      out += jax_device_text(d, f.when, prefix, d.pid ? process_label(r, d.pid, d.rank) : "");
    }
  }
  return out.empty() ? out : out + jax_view_notes(r);
}

std::string folded_cupy_text(const Report& r, const std::string& prefix) {
  std::string out;
  const std::vector<CupyPool> pools = r.cupy_processes.empty() ? std::vector<CupyPool>{r.cupy} : r.cupy_processes;
  std::vector<ViewFold> folds;
  for (ViewFold& f : fold_cupy(r)) {
    if (f.members.size() >= kFoldFrom) folds.push_back(std::move(f));
    else
      for (size_t i = 0; i < f.members.size(); ++i) folds.push_back(ViewFold{f.when, {f.members[i]}, {f.ranks[i]}});
  }
  for (const ViewFold& f : folds) {
    std::vector<uint64_t> total, used, cached;
    uint64_t free_blocks = 0;
    std::vector<RankDevice> devices;
    for (size_t i : f.members) {
      const CupyPool& c = pools[i];
      devices.push_back({c.pid, c.rank, c.device});
      total.push_back(c.total_bytes), used.push_back(c.used_bytes);
      cached.push_back(c.total_bytes > c.used_bytes ? c.total_bytes - c.used_bytes : 0);
      free_blocks += c.free_blocks;
    }
    const CupyPool& c = pools[f.members.front()];
    const bool one = f.members.size() == 1;
    const bool any_cached = spread_of(cached).max > 0;
    out += "\n" + prefix + "CuPy's memory pool at " + text_of(f.when) +
           (one ? " on device " + std::to_string(c.device) + (c.pid ? " in " + process_label(r, c.pid, c.rank) : "")
                : " on " + std::to_string(f.ranks.size()) + " " + ranks_word(f.ranks.size()) + "(" +
                      rank_list(f.ranks) + ")" + devices_phrase(r, devices)) +
           ": " + bytes_spread(spread_of(total)) + " held, " + bytes_spread(spread_of(used)) + " by live arrays, " +
           bytes_spread(spread_of(cached)) + " cached in " + count_of(free_blocks, "free block", "free blocks") +
           (one ? "" : " in all") + " (not leaks" +
           (any_cached ? "; cupy.get_default_memory_pool().free_all_blocks() returns the cache)\n" : ")\n");
  }
  return out;
}

}  // namespace cudaleak::render

namespace cudaleak::render {

std::vector<StoryText> story_texts(const Report& r) {
  std::vector<StoryText> out;
  bool first = true;
  for (const OomStory& s : oom_stories(r)) {
    const OomEvent& e = r.oom_events[s.events.front()];
    const bool folded = s.ranks.size() >= kFoldFrom;
    if (folded) {
      StoryText t;
      t.first = s.events.front();
      t.members.assign(s.events.begin() + 1, s.events.end());
      t.title = std::to_string(s.ranks.size()) + " ranks ran out of memory in " + where_of(e.stack, e.api) + ": " +
                ranks_word(s.ranks.size()) + rank_list(s.ranks) + "; " + rank_label(r, e.pid, e.rank) +
                (first ? " first" : " the first of them") + ", at " + format_duration(e.time_ns) + own_time(r, e);
      t.across = across_text(r, s);
      t.others = others_distribution(r, others_at(r, t.first));
      out.push_back(std::move(t));
    }
    first = false;
  }
  return out;
}

std::vector<std::string> odd_rank_lines(const Report& r) {
  std::vector<std::string> lines;
  const std::string text = odd_ranks_text(r, "");
  for (size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (text.compare(at, 2, "  ") == 0) lines.push_back(text.substr(at + 2, end - at - 2));
  }
  return lines;
}

}  // namespace cudaleak::render
