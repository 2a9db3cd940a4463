#include "interpose/track/site_growth.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

namespace cudaleak {

SiteGrowthTable::~SiteGrowthTable() {
  std::free(streaks_);
  std::free(kept_);
}

bool SiteGrowthTable::start(uint64_t time_ns, uint64_t interval_ns, size_t site_slots, uint64_t requests) {
  if (!streaks_) {
    // calloc: the zeroed pages come from mmap and cost memory only where written.
    streaks_ = static_cast<Rise*>(std::calloc(site_slots, sizeof(Rise)));
    kept_ = static_cast<Kept*>(std::calloc(kKeptSites, sizeof(Kept)));
    if (!streaks_ || !kept_) {
      std::free(streaks_);
      std::free(kept_);
      streaks_ = nullptr;
      kept_ = nullptr;
      return false;
    }
    site_slots_ = site_slots;
  }
  origin_ns_ = time_ns;
  interval_ns_ = std::max<uint64_t>(interval_ns, 1000);
  written_ = 0;
  kept_count_ = 0;
  requests_at_start_ = requests;
  started_ = true;
  return true;
}

uint64_t SiteGrowthTable::span_end(uint64_t time_ns) const {
  const uint64_t since = time_ns > origin_ns_ ? time_ns - origin_ns_ : 0;
  return origin_ns_ + (since / interval_ns_ + 1) * interval_ns_;
}

void SiteGrowthTable::update_rise(Rise& r, int64_t value, uint64_t span_start, uint64_t span_end) {
  if (!r.seen) {
    r = Rise{value, value, value, span_start, 0, 0, r.kept, true};
    return;
  }
  if (value < r.level) {  // it fell: a rise may begin from here
    r.from = value;
    r.since_ns = span_start;
    r.last_rise_ns = 0;
    r.rises = 0;
  } else if (value > r.level) {
    ++r.rises;
    r.last_rise_ns = span_end;
  }
  r.level = value;
}

// A span merged with the one before it keeps the lower of the two.
void SiteGrowthTable::record(Kept& k, uint64_t index, int64_t value) {
  if (index < k.first || index >= kPoints) return;
  int64_t& v = k.values[index];
  v = index < written_ ? std::min(v, value) : value;
}

bool SiteGrowthTable::stronger(const Rise& a, const Rise& b) const {
  if (rising(a) != rising(b)) return rising(a);
  if (rising(a)) return a.level - a.from > b.level - b.from;
  return a.bytes > b.bytes;
}

void SiteGrowthTable::admit(const Sample& s, uint64_t index) {
  size_t at = kept_count_;
  if (kept_count_ == kKeptSites) {
    size_t weakest = 0;
    for (size_t i = 1; i < kept_count_; ++i)
      if (stronger(streaks_[kept_[weakest].slot], streaks_[kept_[i].slot])) weakest = i;
    if (!stronger(streaks_[s.slot], streaks_[kept_[weakest].slot])) return;
    streaks_[kept_[weakest].slot].kept = 0;
    at = weakest;
  } else {
    ++kept_count_;
  }
  Kept& k = kept_[at];
  k.key = s.key;
  k.slot = s.slot;
  k.first = uint32_t(index);
  k.values[index] = INT64_MAX;  // record() keeps the lower: the span's own value
  streaks_[s.slot].kept = uint16_t(at + 1);
}

void SiteGrowthTable::compact() {
  for (size_t i = 0; i < kept_count_; ++i) {
    Kept& k = kept_[i];
    for (uint64_t j = k.first / 2; j * 2 < written_; ++j) {
      const uint64_t a = j * 2, b = a + 1;
      const bool has_a = a >= k.first, has_b = b >= k.first && b < written_;
      k.values[j] = has_a && has_b ? std::min(k.values[a], k.values[b]) : has_a ? k.values[a] : k.values[b];
    }
    k.first /= 2;
  }
  for (uint64_t j = 0; j * 2 < written_; ++j) requests_[j] = requests_[j * 2 + 1 < written_ ? j * 2 + 1 : j * 2];
  written_ = (written_ + 1) / 2;
  interval_ns_ *= 2;
}

void SiteGrowthTable::close_span(uint64_t end_ns, uint64_t now_ns, std::span<const Sample> samples, uint64_t requests) {
  if (!started_ || end_ns <= origin_ns_) return;
  uint64_t closed = (end_ns - origin_ns_ - 1) / interval_ns_;
  uint64_t open = now_ns > origin_ns_ ? (now_ns - origin_ns_) / interval_ns_ : 0;
  while (open >= kPoints) {  // the axis is full: spans twice as long, half as many
    compact();
    closed /= 2;
    open /= 2;
  }
  const uint64_t start = origin_ns_ + closed * interval_ns_, end = start + interval_ns_;
  const uint64_t open_start = origin_ns_ + open * interval_ns_;
  for (const Sample& s : samples) {
    if (s.slot >= site_slots_) continue;
    Rise& r = streaks_[s.slot];
    update_rise(r, s.low, start, end);
    r.bytes = s.bytes;
    // Spans with no change between this one and the open one held its bytes.
    if (open > closed + 1) update_rise(r, s.bytes, end, open_start);
    if (!r.kept && (s.bytes > 0 || s.low > 0)) admit(s, closed);
    if (!r.kept) continue;
    Kept& k = kept_[r.kept - 1];
    record(k, closed, s.low);
    for (uint64_t gap = closed + 1; gap < open; ++gap) record(k, gap, s.bytes);
  }
  for (uint64_t j = closed; j < open && j < kPoints; ++j) requests_[j] = requests;
  written_ = std::max(written_, std::max(open, closed + 1));
}

uint64_t SiteGrowthTable::requests_since(uint64_t since_ns) const {
  if (written_ == 0) return 0;
  const uint64_t first = since_ns > origin_ns_ ? (since_ns - origin_ns_) / interval_ns_ : 0;
  const uint64_t before = first == 0 ? requests_at_start_ : requests_[std::min<uint64_t>(first - 1, kPoints - 1)];
  const uint64_t last = requests_[std::min<uint64_t>(written_ - 1, kPoints - 1)];
  return last > before ? last - before : 0;
}

void SiteGrowthTable::snapshot(std::vector<report::SiteGrowth>& out,
                               const std::function<Sample(uint32_t slot)>& now) const {
  if (!started_) return;
  for (size_t i = 0; i < kept_count_; ++i) {
    const Kept& k = kept_[i];
    Rise r = streaks_[k.slot];
    const Sample current = now(k.slot);
    if (current.low < r.level) {  // it fell in the open span
      r.from = current.low;
      r.since_ns = origin_ns_ + written_ * interval_ns_;
      r.rises = 0;
      r.last_rise_ns = 0;
    }
    report::SiteGrowth& g = out.emplace_back();
    g.kind = Kind((k.key >> 32) - 1);
    g.stack_id = uint32_t(k.key);
    g.bytes = uint64_t(std::max<int64_t>(current.bytes, 0));
    g.level = uint64_t(std::max<int64_t>(r.level, 0));
    g.since_ns = r.since_ns;
    g.since_bytes = uint64_t(std::max<int64_t>(r.from, 0));
    g.last_rise_ns = r.last_rise_ns;
    g.rises = r.rises;
    g.rise_requests = requests_since(r.since_ns);
    g.history_ns = origin_ns_ + k.first * interval_ns_;
    g.interval_ns = interval_ns_;
    for (uint64_t j = k.first; j < written_ && j < kPoints; ++j)
      g.history.push_back(uint64_t(std::max<int64_t>(k.values[j], 0)));
  }
  // Rising first, by how much; then the biggest.
  std::stable_sort(out.begin(), out.end(), [](const report::SiteGrowth& a, const report::SiteGrowth& b) {
    const bool ra = a.rises >= 2 && a.level > a.since_bytes, rb = b.rises >= 2 && b.level > b.since_bytes;
    if (ra != rb) return ra;
    if (ra) return a.level - a.since_bytes > b.level - b.since_bytes;
    return a.bytes > b.bytes;
  });
}

void SiteGrowthTable::stack_ids(std::vector<uint32_t>& out) const {
  for (size_t i = 0; i < kept_count_; ++i) out.push_back(uint32_t(kept_[i].key));
}

void SiteGrowthTable::clear() {
  if (streaks_) std::memset(static_cast<void*>(streaks_), 0, site_slots_ * sizeof(Rise));
  kept_count_ = 0;
  written_ = 0;
  requests_at_start_ = 0;
  started_ = false;
}

}  // namespace cudaleak
