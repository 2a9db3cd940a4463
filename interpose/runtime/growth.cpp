#include "growth.h"

#include <map>
#include <mutex>
#include <tuple>

#include "kinds.h"

namespace cudaleak::growth {

namespace {

constexpr size_t kKept = 16;  // observations kept per group
using Key = std::tuple<int, uint32_t, int>;  // kind, stack id, device

struct History {
  std::mutex mutex;
  uint64_t observations = 0;
  std::map<Key, std::map<uint64_t, uint64_t>> counts;  // observation index -> count
};

History& history() {
  static auto* h = new History();
  return *h;
}

}  // namespace

void observe(const report::RawSnapshot& snapshot) {
  std::map<Key, uint64_t> now;
  for (const auto& r : snapshot.resources)
    if (!r.released_by) ++now[Key{int(r.kind), r.stack_id, r.device}];
  History& h = history();
  std::lock_guard lock(h.mutex);
  uint64_t index = h.observations++;
  for (const auto& [key, count] : now) {
    auto& series = h.counts[key];
    series[index] = count;
    while (series.size() > kKept) series.erase(series.begin());
  }
}

void annotate(report::Report& report) {
  History& h = history();
  std::lock_guard lock(h.mutex);
  uint64_t n = h.observations;
  for (auto& g : report.leaks) {
    auto kind = kind_from_name(g.kind);
    if (!kind || !g.released_by.empty()) continue;
    auto it = h.counts.find(Key{int(*kind), g.stack_id, g.device});
    if (it == h.counts.end()) continue;
    auto count_at = [&](uint64_t index) {
      auto c = it->second.find(index);
      return c == it->second.end() ? uint64_t(0) : c->second;
    };
    for (uint64_t i = n > kKept ? n - kKept : 0; i < n; ++i) g.count_history.push_back(count_at(i));
    // Growing: across the kept observations and now, the count rose at least
    // twice and never fell.
    int rises = 0;
    bool fell = false;
    for (size_t i = 0; i < g.count_history.size(); ++i) {
      uint64_t next = i + 1 < g.count_history.size() ? g.count_history[i + 1] : g.count;
      rises += next > g.count_history[i];
      fell |= next < g.count_history[i];
    }
    g.growing = rises >= 2 && !fell;
  }
}

std::mutex& mutex() { return history().mutex; }

void reset_in_child() {
  History& h = history();
  std::lock_guard lock(h.mutex);
  h.observations = 0;
  h.counts.clear();
}

}  // namespace cudaleak::growth
