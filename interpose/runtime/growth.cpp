#include "interpose/runtime/growth.h"

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/kinds.h"
#include "common/record/steady_rise.h"

namespace cudaleak::growth {

namespace {

constexpr size_t kKept = 16;  // observations kept per group

std::pair<int, std::string> tensor_key(int device, const report::TensorGroup& g) {
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


}  // namespace

void History::observe(const report::RawSnapshot& snapshot) {
  std::map<Key, uint64_t> now;
  for (const auto& r : snapshot.resources)
    if (!r.torn_down()) ++now[Key{int(r.kind), r.stack_id, r.device}];
  std::lock_guard lock(mutex_);
  uint64_t index = observations_++;
  for (const auto& [key, count] : now) {
    auto& series = counts_[key];
    series[index] = count;
    while (series.size() > kKept) series.erase(series.begin());
  }
}

void History::stack_ids(std::vector<uint32_t>& out) {
  std::lock_guard lock(mutex_);
  for (const auto& [key, series] : counts_) out.push_back(std::get<1>(key));
}

void History::annotate(report::Report& report) {
  std::lock_guard lock(mutex_);
  uint64_t n = observations_;
  for (auto& g : report.leaks) {
    if (!g.released_by.empty()) continue;
    auto it = counts_.find(Key{int(g.kind), g.stack_id, g.device});
    if (it == counts_.end()) continue;
    g.count_history = recent(it->second, n);
    g.growing = record::rose_steadily(g.count_history, g.count);
  }
}

void History::observe_tensors(const report::PyTorchView& view) {
  std::lock_guard lock(mutex_);
  uint64_t index = tensor_observations_++;
  for (const auto& d : view.devices)
    for (const auto& g : d.live_tensors) {
      auto& series = tensor_bytes_[tensor_key(d.device, g)];
      series[index] += g.bytes;
      while (series.size() > kKept) series.erase(series.begin());
    }
}

void History::annotate_tensors(report::PyTorchView& view) {
  std::lock_guard lock(mutex_);
  uint64_t n = tensor_observations_;
  for (auto& d : view.devices)
    for (auto& g : d.live_tensors) {
      auto it = tensor_bytes_.find(tensor_key(d.device, g));
      if (it == tensor_bytes_.end()) continue;
      g.bytes_history = recent(it->second, n);
      g.growing = record::rose_steadily(g.bytes_history, g.bytes);
    }
}

void History::reset_in_child() {
  std::lock_guard lock(mutex_);
  observations_ = 0;
  counts_.clear();
  tensor_observations_ = 0;
  tensor_bytes_.clear();
}

}  // namespace cudaleak::growth
