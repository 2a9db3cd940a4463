#include "growth.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kinds.h"

namespace cudaleak::growth {

namespace {

constexpr size_t kKept = 16;  // observations kept per group
using Key = std::tuple<int, uint32_t, int>;  // kind, stack id, device

// PyTorch's live-tensor groups: device and Python stack.
using TensorKey = std::pair<int, std::string>;

struct History {
  std::mutex mutex;
  uint64_t observations = 0;
  std::map<Key, std::map<uint64_t, uint64_t>> counts;  // observation index -> count
  uint64_t tensor_observations = 0;
  std::map<TensorKey, std::map<uint64_t, uint64_t>> tensor_bytes;  // observation index -> bytes
};

TensorKey tensor_key(int device, const report::TensorGroup& g) {
  std::string stack;
  for (const auto& f : g.stack) stack += f.file + ":" + std::to_string(f.line) + ":" + f.function + "\n";
  return {device, stack};
}

// The last kKept observations of a series, 0 where it was absent.
std::vector<uint64_t> recent(const std::map<uint64_t, uint64_t>& series, uint64_t observations) {
  std::vector<uint64_t> out;
  for (uint64_t i = observations > kKept ? observations - kKept : 0; i < observations; ++i) {
    auto c = series.find(i);
    out.push_back(c == series.end() ? 0 : c->second);
  }
  return out;
}

// Growing: across the kept observations and now, the value rose at least
// twice and never fell.
bool growing(const std::vector<uint64_t>& history, uint64_t now) {
  int rises = 0;
  bool fell = false;
  for (size_t i = 0; i < history.size(); ++i) {
    uint64_t next = i + 1 < history.size() ? history[i + 1] : now;
    rises += next > history[i];
    fell |= next < history[i];
  }
  return rises >= 2 && !fell;
}

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
    g.count_history = recent(it->second, n);
    g.growing = growing(g.count_history, g.count);
  }
}

void observe_tensors(const report::PyTorchView& view) {
  History& h = history();
  std::lock_guard lock(h.mutex);
  uint64_t index = h.tensor_observations++;
  for (const auto& d : view.devices)
    for (const auto& g : d.live_tensors) {
      auto& series = h.tensor_bytes[tensor_key(d.device, g)];
      series[index] += g.bytes;
      while (series.size() > kKept) series.erase(series.begin());
    }
}

void annotate_tensors(report::PyTorchView& view) {
  History& h = history();
  std::lock_guard lock(h.mutex);
  uint64_t n = h.tensor_observations;
  for (auto& d : view.devices)
    for (auto& g : d.live_tensors) {
      auto it = h.tensor_bytes.find(tensor_key(d.device, g));
      if (it == h.tensor_bytes.end()) continue;
      g.bytes_history = recent(it->second, n);
      g.growing = growing(g.bytes_history, g.bytes);
    }
}

std::mutex& mutex() { return history().mutex; }

void reset_in_child() {
  History& h = history();
  std::lock_guard lock(h.mutex);
  h.observations = 0;
  h.counts.clear();
  h.tensor_observations = 0;
  h.tensor_bytes.clear();
}

}  // namespace cudaleak::growth
