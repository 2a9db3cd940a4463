#include "interpose/runtime/line_growth.h"

#include <algorithm>
#include <climits>

#include "report/write/in_process.h"

namespace cudaleak::line_growth {

namespace {

// A stack as one key: the same frames are the same line, whichever view sent them.
std::string key_of(const std::vector<report::Frame>& stack) {
  std::string key;
  for (const report::Frame& f : stack) {
    key += f.file.str();
    key += ':';
    key += std::to_string(f.line);
    key += ':';
    key += f.function.str();
    key += '\n';
  }
  return key;
}

}  // namespace

Lines::Axis* Lines::axis(const std::string& view, int device, uint64_t time_ns, uint64_t requests) {
  for (auto& a : axes_)
    if (a->view == view && a->device == device) return a.get();
  if (axes_.size() == kAxes) return nullptr;
  auto a = std::make_unique<Axis>();
  a->view = view;
  a->device = device;
  if (!a->table.start(time_ns, interval_ns_, kLines, requests)) return nullptr;
  a->span_end = a->table.span_end(time_ns);
  axes_.push_back(std::move(a));
  return axes_.back().get();
}

// The span open since the last observation ended: its lowest goes into the
// histories, and the next one starts from what each line holds.
void Lines::close(Axis& a, uint64_t time_ns, uint64_t requests) {
  std::vector<SiteGrowthTable::Sample> samples;
  samples.reserve(a.stacks.size());
  for (uint32_t slot = 0; slot < a.stacks.size(); ++slot)
    samples.push_back({slot, (uint64_t(1) << 32) | slot, a.low[slot], a.bytes[slot]});
  a.table.close_span(a.span_end, time_ns, samples, requests);
  a.span_end = a.table.span_end(time_ns);
  a.low = a.bytes;
}

void Lines::observe(const std::string& view, int device, const std::vector<LineBytes>& lines, uint64_t time_ns,
                    uint64_t requests) {
  if (interval_ns_ == 0) return;
  Axis* a = axis(view, device, time_ns, requests);
  if (!a) return;
  if (time_ns >= a->span_end) close(*a, time_ns, requests);
  std::vector<int64_t> now(a->stacks.size(), 0);  // a line the view no longer lists holds nothing
  for (const LineBytes& line : lines) {
    const std::string key = key_of(*line.stack);
    auto it = a->slot_of.find(key);
    if (it == a->slot_of.end()) {
      if (a->stacks.size() == kLines) continue;
      it = a->slot_of.emplace(key, uint32_t(a->stacks.size())).first;
      a->stacks.push_back(*line.stack);
      a->low.push_back(0);  // it held nothing before this view
      a->bytes.push_back(0);
      now.push_back(0);
    }
    now[it->second] += int64_t(line.bytes);
  }
  for (size_t slot = 0; slot < now.size(); ++slot) {
    a->low[slot] = std::min(a->low[slot], now[slot]);
    a->bytes[slot] = now[slot];
  }
}

std::map<int, std::vector<report::SiteGrowth>> Lines::snapshot() const {
  std::map<int, std::vector<report::SiteGrowth>> out;
  for (const auto& a : axes_) {
    std::vector<report::SiteGrowth> lines;
    a->table.snapshot(lines, [&](uint32_t slot) {
      return SiteGrowthTable::Sample{slot, 0, a->low[slot], a->bytes[slot]};
    });
    for (report::SiteGrowth& g : lines) {
      const uint32_t slot = g.stack_id;
      g.stack_id = 0;  // not an interned stack: nothing resolves it
      g.kind = Kind::Device;
      g.view = a->view;
      if (slot < a->stacks.size()) g.stack = a->stacks[slot];
      // CuPy's pool is one line of no stack: the arrays' own lines are those of
      // the pool's segments, which cudaleak records as sites.
      report::name_view_line(g);
    }
    auto& device = out[a->device];
    device.insert(device.end(), std::make_move_iterator(lines.begin()), std::make_move_iterator(lines.end()));
  }
  return out;
}

void Lines::clear() { axes_.clear(); }

void merge_into(report::Timeline& timeline, std::map<int, std::vector<report::SiteGrowth>> lines) {
  for (auto& [device, growth] : lines) {
    if (growth.empty()) continue;
    report::DeviceTimeline* into = nullptr;
    for (report::DeviceTimeline& d : timeline.devices)
      if (d.device == device) into = &d;
    if (!into) {
      into = &timeline.devices.emplace_back();
      into->device = device;
    }
    into->growth.insert(into->growth.end(), std::make_move_iterator(growth.begin()),
                        std::make_move_iterator(growth.end()));
  }
}

std::map<int, std::vector<LineBytes>> lines_of(const report::PyTorchView& view) {
  std::map<int, std::vector<LineBytes>> out;
  for (const report::AllocatorDevice& d : view.devices) {
    auto& lines = out[d.device];  // a device with no line left: its lines held nothing
    // Tensors without a stack of their own (PyTorch records none yet) have
    // no line: their segments' growth names the line that reserved them.
    for (const report::TensorGroup& g : d.live_tensors)
      if (!g.stack.empty() && !g.by_segment) lines.push_back({&g.stack, g.bytes});
  }
  return out;
}

std::map<int, std::vector<LineBytes>> lines_of(const report::JaxView& view) {
  std::map<int, std::vector<LineBytes>> out;
  for (const report::JaxDevice& d : view.devices) {
    auto& lines = out[d.device];
    for (const report::JaxArrayGroup& g : d.groups)
      if (!g.stack.empty()) lines.push_back({&g.stack, g.bytes});
  }
  return out;
}

}  // namespace cudaleak::line_growth
