#include "interpose/track/timeline.h"
#include "interpose/base/hot_path.h"
#include "interpose/base/spin_lock.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>

namespace cudaleak {

struct Timeline::Series {
  int device = -1;
  // Every change's counters (now, total, open_max, its site's bytes and
  // count) are written under this lock, as plain loads and stores of the
  // atomics: one exchange per change where five locked additions were.
  // Readers load them without it.
  SpinLock counting;
  std::array<std::atomic<int64_t>, kKindCount> now{};
  std::atomic<int64_t> total{0};
  // The point being written: where its span ends (the first time that opens
  // the next point; 0 before the first point), so that a change compares
  // instead of dividing, and the highest total seen in it.
  std::atomic<uint64_t> open_end{0};
  std::atomic<int64_t> open_max{0};
  std::atomic<uint64_t> resolution_ns{1000};  // 1 us to start with; doubles as the run goes on
  std::atomic<int64_t> peak_total{0};         // checked without the lock
  Site* sites = nullptr;                      // kSiteSlots, zeroed
  // Slots taken so far, in order (slot + 1; 0 while being written): the peak
  // walks these instead of the whole table.
  uint32_t* taken = nullptr;  // kSiteSlots
  std::atomic<uint32_t> taken_count{0};
  std::array<Site, kKindCount> overflow{};  // sites beyond kSiteSlots, per kind
  // The window (begin_window): the highest device memory since the window
  // began (raised by compare and exchange), its start, and the total past
  // which the sites are recorded.
  std::atomic<int64_t> window_peak{0};
  std::atomic<int64_t> window_start{0};
  std::atomic<int64_t> window_limit{INT64_MAX};
  // When the growth history's open span ends (0: not started); a change at
  // or after it samples every site's lowest (sample_growth).
  std::atomic<uint64_t> growth_end{0};

  std::mutex mutex;           // everything below
  std::vector<Point> points;  // the last one is the open point
  report::Peak peak;
  std::array<int64_t, kKindCount> peak_by_kind{};
  // The groups live at the peak, refreshed when the peak grows by 5%:
  // bounded work however many allocations, and the groups of a moment within
  // 5% of the exact peak.
  std::vector<PeakGroup> at_peak;
  int64_t at_peak_total = 0;
  // The window's sites: their bytes at its start (by key, sorted), and their
  // growth since, refreshed as the total over the limit grows by 5%.
  std::vector<SiteBytes> window_start_sites;
  std::vector<PeakGroup> window_grown;
  int64_t window_grown_total = 0;
  SiteGrowthTable growth;
  std::vector<SiteGrowthTable::Sample> growth_samples;  // reused, kSiteSlots reserved
};

namespace {
template <typename T>
std::atomic_ref<T> atomic(T& value) {
  return std::atomic_ref<T>(value);
}
// Sites beyond the table: one per kind, under stack id 0.
template <typename S>
void label_overflow(S& s) {
  for (int k = 0; k < kKindCount; ++k) s.overflow[size_t(k)] = {(uint64_t(k) + 1) << 32, 0, 0};
}
// Under the series' counting lock: a load and a store, no locked instruction.
template <typename A>
int64_t bump(A&& counter, int64_t delta) {
  int64_t value = counter.load(std::memory_order_relaxed) + delta;
  counter.store(value, std::memory_order_relaxed);
  return value;
}
// The kinds that take a GPU's memory: what a memory budget counts (pinned
// and registered memory are the host's, an IPC mapping the exporter's;
// Timeline::add and device_memory leave out exactly these three).
constexpr bool on_device_memory(Kind kind) {
  switch (kind) {
    case Kind::Device:
    case Kind::Managed:
    case Kind::Async:
    case Kind::Vmm:
    case Kind::Array:
    case Kind::GraphMemory:
    case Kind::DeviceHeap: return true;
    default: return false;
  }
}
// Timeline::add takes device memory as the total less these three kinds.
static_assert([] {
  for (int k = 0; k < kKindCount; ++k) {
    const Kind kind = Kind(k);
    const bool host = kind == Kind::Pinned || kind == Kind::Registered || kind == Kind::IpcMapping;
    if (kind_holds_memory(kind) != (on_device_memory(kind) || host)) return false;
  }
  return true;
}());
}  // namespace

Timeline::~Timeline() {
  for (auto& slot : series_)
    if (Series* s = slot.load()) {
      std::free(s->sites);
      std::free(s->taken);
      delete s;
    }
}

CUDALEAK_HOT_PATH Timeline::Series& Timeline::series(int device) {
  int index = device >= -1 && device < kDevices - 1 ? device + 1 : 0;
  if (Series* s = series_[index].load(std::memory_order_acquire)) [[likely]]
    return *s;
  return make_series(index);
}

// Once per device: kept out of series() so that its fast path stays a load.
Timeline::Series& Timeline::make_series(int index) {
  std::lock_guard lock(create_mutex_);
  if (Series* s = series_[index].load(std::memory_order_acquire)) return *s;
  auto made = std::make_unique<Series>();
  Series* s = made.get();
  s->device = index - 1;
  s->points.reserve(kMaxPoints + 1);  // open_point and compact never allocate
  // calloc: the zeroed pages of a table this size come from mmap and cost
  // memory only where sites are written.
  s->sites = static_cast<Site*>(std::calloc(kSiteSlots, sizeof(Site)));
  s->taken = static_cast<uint32_t*>(std::calloc(kSiteSlots, sizeof(uint32_t)));
  if (!s->sites || !s->taken) {
    std::free(s->sites);
    std::free(s->taken);
    throw std::bad_alloc();
  }
  label_overflow(*s);
  const uint64_t limit = window_limit_.load(std::memory_order_relaxed);
  if (limit) s->window_limit.store(int64_t(std::min<uint64_t>(limit, INT64_MAX)), std::memory_order_relaxed);
  series_[index].store(made.release(), std::memory_order_release);
  return *s;
}

CUDALEAK_HOT_PATH Timeline::Site& Timeline::site(Series& s, Kind kind, uint32_t stack_id) {
  const uint64_t key = (uint64_t(kind) + 1) << 32 | stack_id;
  size_t i = size_t(key * 0x9e3779b97f4a7c15ull >> 40) % kSiteSlots;
  for (int probe = 0; probe < 32; ++probe, i = (i + 1) % kSiteSlots) {
    Site& slot = s.sites[i];
    uint64_t seen = atomic(slot.key).load(std::memory_order_acquire);
    if (seen == key) return slot;
    if (seen == 0) {
      if (atomic(slot.key).compare_exchange_strong(seen, key, std::memory_order_acq_rel)) {
        uint32_t n = s.taken_count.fetch_add(1, std::memory_order_relaxed);
        atomic(s.taken[n]).store(uint32_t(i) + 1, std::memory_order_release);
        return slot;
      }
      if (seen == key) return slot;
    }
  }
  return s.overflow[size_t(kind)];
}

CUDALEAK_HOT_PATH void Timeline::add(int device, Kind kind, uint32_t stack_id, int64_t delta, uint64_t time_ns) {
  if (delta == 0 || !kind_holds_memory(kind)) return;
  Series& s = series(device);
  if (time_ns >= s.open_end.load(std::memory_order_acquire)) open_point(s, time_ns);
  if (time_ns >= s.growth_end.load(std::memory_order_acquire)) [[unlikely]]
    sample_growth(s, time_ns);
  Site& group = site(s, kind, stack_id);
  int64_t total, on_device = 0;
  {
    std::lock_guard counting(s.counting);
    bump(s.now[size_t(kind)], delta);
    total = bump(s.total, delta);
    if (total > s.open_max.load(std::memory_order_relaxed)) s.open_max.store(total, std::memory_order_relaxed);
    const int64_t bytes = bump(atomic(group.bytes), delta);
    if (bytes < atomic(group.low).load(std::memory_order_relaxed))
      atomic(group.low).store(bytes, std::memory_order_relaxed);
    bump(atomic(group.count), delta > 0 ? 1 : -1);
    // Device memory: the total less the host's kinds, read on the same
    // lines; only a growth can raise the window's peak.
    if (delta > 0)
      on_device = total - s.now[size_t(Kind::Pinned)].load(std::memory_order_relaxed) -
                  s.now[size_t(Kind::Registered)].load(std::memory_order_relaxed) -
                  s.now[size_t(Kind::IpcMapping)].load(std::memory_order_relaxed);
  }
  if (delta > 0 && total > s.peak_total.load(std::memory_order_relaxed)) record_peak(s, total, time_ns);
  // One compare on the common path: a release or a total below the
  // window's peak (0 for kinds off the device) goes no further.
  if (on_device > s.window_peak.load(std::memory_order_relaxed)) [[unlikely]]
    raise_window_peak(s, on_device);
}

void Timeline::raise_window_peak(Series& s, int64_t on_device) {
  int64_t peak = s.window_peak.load(std::memory_order_relaxed);
  while (on_device > peak && !s.window_peak.compare_exchange_weak(peak, on_device, std::memory_order_relaxed)) {
  }
  if (on_device > s.window_limit.load(std::memory_order_relaxed)) record_over_limit(s, on_device);
}

int64_t Timeline::device_memory(const Series& s) {
  int64_t bytes = 0;
  for (int k = 0; k < kKindCount; ++k)
    if (on_device_memory(Kind(k))) bytes += s.now[size_t(k)].load(std::memory_order_relaxed);
  return bytes;
}

void Timeline::begin_window(uint64_t limit) {
  window_limit_.store(limit, std::memory_order_relaxed);
  for (auto& slot : series_)
    if (Series* s = slot.load(std::memory_order_acquire)) start_window(*s, limit);
}

void Timeline::start_window(Series& s, uint64_t limit) {
  std::lock_guard lock(s.mutex);
  s.window_grown.clear();
  s.window_grown_total = 0;
  s.window_start_sites.clear();
  if (limit) {  // the sites' bytes now, to tell what grows from here
    uint32_t taken = s.taken_count.load(std::memory_order_relaxed);
    for (uint32_t n = 0; n < taken; ++n)
      if (uint32_t at = atomic(s.taken[n]).load(std::memory_order_acquire)) {
        Site& site = s.sites[at - 1];
        s.window_start_sites.push_back(
            {atomic(site.key).load(std::memory_order_acquire), atomic(site.bytes).load(std::memory_order_relaxed)});
      }
    for (Site& other : s.overflow) s.window_start_sites.push_back({other.key, atomic(other.bytes).load()});
    std::sort(s.window_start_sites.begin(), s.window_start_sites.end(),
              [](const SiteBytes& a, const SiteBytes& b) { return a.key < b.key; });
  }
  std::lock_guard counting(s.counting);
  const int64_t now = device_memory(s);
  s.window_start.store(now, std::memory_order_relaxed);
  s.window_peak.store(now, std::memory_order_relaxed);
  s.window_limit.store(limit ? now + int64_t(std::min<uint64_t>(limit, INT64_MAX / 2)) : INT64_MAX,
                       std::memory_order_relaxed);
}

// Over the window's limit (a test over its budget): which sites grew since
// the window began, taken again each time the total grows by 5%.
void Timeline::record_over_limit(Series& s, int64_t on_device) {
  std::lock_guard lock(s.mutex);
  if (!s.window_grown.empty() && on_device < s.window_grown_total + s.window_grown_total / 20) return;
  s.window_grown.clear();
  auto take = [&](Site& site) {
    uint64_t key = atomic(site.key).load(std::memory_order_acquire);
    int64_t bytes = atomic(site.bytes).load(std::memory_order_relaxed);
    int64_t count = atomic(site.count).load(std::memory_order_relaxed);
    if (key == 0 || !on_device_memory(Kind((key >> 32) - 1))) return;
    auto start = std::lower_bound(s.window_start_sites.begin(), s.window_start_sites.end(), key,
                                  [](const SiteBytes& a, uint64_t k) { return a.key < k; });
    if (start != s.window_start_sites.end() && start->key == key) bytes -= start->bytes;
    if (bytes <= 0) return;
    s.window_grown.push_back(
        PeakGroup{Kind((key >> 32) - 1), uint32_t(key), uint64_t(bytes), uint64_t(std::max<int64_t>(count, 1))});
  };
  uint32_t taken = s.taken_count.load(std::memory_order_relaxed);
  for (uint32_t n = 0; n < taken; ++n)
    if (uint32_t slot = atomic(s.taken[n]).load(std::memory_order_acquire)) take(s.sites[slot - 1]);
  for (Site& other : s.overflow) take(other);
  std::sort(s.window_grown.begin(), s.window_grown.end(),
            [](const PeakGroup& a, const PeakGroup& b) { return a.bytes > b.bytes; });
  if (s.window_grown.size() > kPeakGroups) s.window_grown.resize(kPeakGroups);
  s.window_grown_total = on_device;
}

std::vector<Timeline::WindowPeak> Timeline::window_peaks() const {
  std::vector<WindowPeak> out;
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    std::lock_guard lock(s->mutex);
    WindowPeak w{s->device, 0, 0, s->window_grown};
    {
      std::lock_guard counting(s->counting);
      w.start = uint64_t(std::max<int64_t>(s->window_start.load(std::memory_order_relaxed), 0));
      w.peak = uint64_t(std::max<int64_t>(s->window_peak.load(std::memory_order_relaxed), 0));
    }
    out.push_back(std::move(w));
  }
  return out;
}

// Closes the open point at the totals of now (before the caller's change)
// and opens one at `time_ns`.
void Timeline::open_point(Series& s, uint64_t time_ns) {
  std::lock_guard lock(s.mutex);
  if (time_ns < s.open_end.load(std::memory_order_relaxed)) return;  // another thread opened it
  Point next{time_ns, {}, s.total.load(std::memory_order_relaxed), top_sites(s)};
  for (int k = 0; k < kKindCount; ++k) next.bytes[size_t(k)] = s.now[size_t(k)].load(std::memory_order_relaxed);
  if (!s.points.empty()) {
    Point& last = s.points.back();
    last.bytes = next.bytes;
    last.top = next.top;
    last.max_total = std::max(last.max_total, s.open_max.load(std::memory_order_relaxed));
  }
  s.points.push_back(next);
  s.open_max.store(next.max_total, std::memory_order_relaxed);
  if (s.points.size() > kMaxPoints) compact(s);
  const uint64_t resolution = s.resolution_ns.load(std::memory_order_relaxed);
  s.open_end.store((time_ns / resolution + 1) * resolution, std::memory_order_release);
}

void Timeline::record_peak(Series& s, int64_t total, uint64_t time_ns) {
  std::lock_guard lock(s.mutex);
  if (total <= s.peak_total.load(std::memory_order_relaxed)) return;
  s.peak_total.store(total, std::memory_order_relaxed);
  s.peak.bytes = uint64_t(total);
  s.peak.time_ns = time_ns;
  for (int k = 0; k < kKindCount; ++k) s.peak_by_kind[size_t(k)] = s.now[size_t(k)].load(std::memory_order_relaxed);
  if (total < s.at_peak_total + s.at_peak_total / 20 && !s.at_peak.empty()) return;
  s.at_peak.clear();
  auto take = [&](Site& site) {
    uint64_t key = atomic(site.key).load(std::memory_order_acquire);
    int64_t bytes = atomic(site.bytes).load(std::memory_order_relaxed);
    int64_t count = atomic(site.count).load(std::memory_order_relaxed);
    if (key == 0 || bytes <= 0 || count <= 0) return;
    s.at_peak.push_back(PeakGroup{Kind((key >> 32) - 1), uint32_t(key), uint64_t(bytes), uint64_t(count)});
  };
  uint32_t taken = s.taken_count.load(std::memory_order_relaxed);
  for (uint32_t n = 0; n < taken; ++n)
    if (uint32_t slot = atomic(s.taken[n]).load(std::memory_order_acquire)) take(s.sites[slot - 1]);
  for (Site& other : s.overflow) take(other);
  std::sort(s.at_peak.begin(), s.at_peak.end(),
            [](const PeakGroup& a, const PeakGroup& b) { return a.bytes > b.bytes; });
  if (s.at_peak.size() > kPeakGroups) s.at_peak.resize(kPeakGroups);
  s.at_peak_total = total;
}

// Once per span of the growth history (site_growth.h), on the thread whose
// change came after its end, before that change counts: every site's lowest
// in the span is read and reset to its bytes under the counting lock (one
// pass over the sites taken, no locked instruction per site), then the
// histories are brought up to date under the series lock.
void Timeline::sample_growth(Series& s, uint64_t time_ns) {
  std::lock_guard lock(s.mutex);
  const uint64_t end = s.growth_end.load(std::memory_order_relaxed);
  if (end != 0 && time_ns < end) return;  // another thread sampled
  if (!s.growth.started()) {
    if (growth_interval_ns_ == 0) {  // growth_interval_ms=0: no histories
      s.growth_end.store(UINT64_MAX, std::memory_order_release);
      return;
    }
    s.growth_samples.reserve(kSiteSlots);
    if (!s.growth.start(time_ns, growth_interval_ns_, kSiteSlots, requests())) {
      s.growth_end.store(UINT64_MAX, std::memory_order_release);  // no memory: no histories
      return;
    }
    s.growth_end.store(s.growth.span_end(time_ns), std::memory_order_release);
    return;
  }
  s.growth_samples.clear();
  {
    std::lock_guard counting(s.counting);
    const uint32_t taken = s.taken_count.load(std::memory_order_relaxed);
    for (uint32_t n = 0; n < taken; ++n) {
      const uint32_t slot = atomic(s.taken[n]).load(std::memory_order_acquire);
      if (!slot) continue;
      Site& site = s.sites[slot - 1];
      const int64_t bytes = atomic(site.bytes).load(std::memory_order_relaxed);
      const int64_t low = atomic(site.low).load(std::memory_order_relaxed);
      atomic(site.low).store(bytes, std::memory_order_relaxed);
      s.growth_samples.push_back({slot - 1, atomic(site.key).load(std::memory_order_relaxed), low, bytes});
    }
  }
  s.growth.close_span(end, time_ns, s.growth_samples, requests());
  s.growth_end.store(s.growth.span_end(time_ns), std::memory_order_release);
}

std::map<int, std::vector<report::SiteGrowth>> Timeline::growth(uint64_t now_ns) {
  std::map<int, std::vector<report::SiteGrowth>> out;
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    // A process that makes no more allocations (a server served from its
    // allocator's cache) closes no span on its own: the spans that ended
    // since its last change are closed here, on the reporting thread, so
    // that its sites read as flat rather than unknown.
    if (now_ns >= s->growth_end.load(std::memory_order_acquire)) sample_growth(*s, now_ns);
    std::lock_guard lock(s->mutex);
    std::vector<report::SiteGrowth> sites;
    s->growth.snapshot(sites, [s](uint32_t at) {
      Site& site = s->sites[at];
      return SiteGrowthTable::Sample{at, 0, atomic(site.low).load(std::memory_order_relaxed),
                                     atomic(site.bytes).load(std::memory_order_relaxed)};
    });
    if (!sites.empty()) out[s->device] = std::move(sites);
  }
  return out;
}

// In place: the points' vector keeps the capacity it was given when the
// series was made, so neither this nor open_point allocates.
void Timeline::compact(Series& s) {
  uint64_t resolution = s.resolution_ns.load(std::memory_order_relaxed) * 2;
  s.resolution_ns.store(resolution, std::memory_order_relaxed);
  size_t kept = 0;
  for (size_t i = 0; i < s.points.size(); ++i) {
    const Point& p = s.points[i];
    if (kept > 0 && p.time_ns / resolution == s.points[kept - 1].time_ns / resolution) {
      Point& merged = s.points[kept - 1];
      merged.bytes = p.bytes;
      merged.top = p.top;
      merged.max_total = std::max(merged.max_total, p.max_total);
    } else {
      if (kept != i) s.points[kept] = p;
      ++kept;
    }
  }
  s.points.resize(kept);
}

// The walk is bounded by the sites seen so far and runs once per point, under
// the series lock: the points' count is bounded and their spans widen as the
// run goes on.
Timeline::TopSites Timeline::top_sites(Series& s) {
  TopSites top{};
  auto consider = [&](Site& site) {
    uint64_t key = atomic(site.key).load(std::memory_order_acquire);
    int64_t bytes = atomic(site.bytes).load(std::memory_order_relaxed);
    if (key == 0 || bytes <= 0) return;
    if (top.count == kPointSites && bytes <= top.site[kPointSites - 1].bytes) return;
    uint32_t at = top.count < kPointSites ? top.count++ : uint32_t(kPointSites - 1);
    while (at > 0 && top.site[at - 1].bytes < bytes) {
      top.site[at] = top.site[at - 1];
      --at;
    }
    top.site[at] = SiteBytes{key, bytes};
  };
  uint32_t taken = s.taken_count.load(std::memory_order_relaxed);
  for (uint32_t n = 0; n < taken; ++n)
    if (uint32_t slot = atomic(s.taken[n]).load(std::memory_order_acquire)) consider(s.sites[slot - 1]);
  for (Site& other : s.overflow) consider(other);
  return top;
}

report::Timeline Timeline::snapshot(std::vector<std::vector<SiteKey>>* site_keys) const {
  report::Timeline t;
  for (int k = 0; k < kKindCount; ++k)
    if (kind_holds_memory(Kind(k))) t.kinds.push_back(Kind(k));
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    std::lock_guard lock(s->mutex);
    if (s->points.empty()) continue;
    report::DeviceTimeline d;
    d.device = s->device;
    d.resolution_ns = s->resolution_ns.load(std::memory_order_relaxed);
    d.peak = s->peak;
    for (int k = 0; k < kKindCount; ++k)
      if (s->peak_by_kind[size_t(k)] > 0) d.peak.by_kind[Kind(k)] = uint64_t(s->peak_by_kind[size_t(k)]);
    std::map<uint64_t, uint32_t> site_index;  // Site::key -> index in d.sites
    std::vector<SiteKey> keys;
    for (size_t i = 0; i < s->points.size(); ++i) {
      Point p = s->points[i];
      if (i + 1 == s->points.size()) {  // the open point: as of now
        for (int k = 0; k < kKindCount; ++k) p.bytes[size_t(k)] = s->now[size_t(k)].load(std::memory_order_relaxed);
        p.max_total = std::max(p.max_total, s->open_max.load(std::memory_order_relaxed));
        p.top = top_sites(*s);
      }
      report::TimelinePoint out{p.time_ns, {}, uint64_t(std::max<int64_t>(p.max_total, 0))};
      for (int k = 0; k < kKindCount; ++k)
        if (kind_holds_memory(Kind(k))) out.bytes.push_back(uint64_t(std::max<int64_t>(p.bytes[size_t(k)], 0)));
      d.points.push_back(std::move(out));
      auto& by_site = d.site_points.emplace_back();
      for (uint32_t n = 0; n < p.top.count; ++n) {
        const SiteBytes& top = p.top.site[n];
        auto [it, added] = site_index.try_emplace(top.key, uint32_t(keys.size()));
        if (added) {
          keys.push_back(SiteKey{Kind((top.key >> 32) - 1), uint32_t(top.key)});
          d.sites.emplace_back().kind = keys.back().kind;
        }
        report::TimelineSite& site = d.sites[it->second];
        site.peak_bytes = std::max(site.peak_bytes, uint64_t(top.bytes));
        by_site.emplace_back(it->second, uint64_t(top.bytes));
      }
    }
    if (keys.empty()) d.site_points.clear();
    if (site_keys) site_keys->push_back(std::move(keys));
    t.devices.push_back(std::move(d));
  }
  return t;
}

size_t Timeline::visit_for_crash(CrashVisitor& v) const {
  size_t skipped = 0;
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    if (!s->mutex.try_lock()) {
      ++skipped;
      continue;
    }
    std::lock_guard lock(s->mutex, std::adopt_lock);
    if (s->points.empty()) continue;
    v.device(s->device, s->resolution_ns.load(std::memory_order_relaxed), s->peak.time_ns, s->peak.bytes);
    for (size_t i = 0; i < s->points.size(); ++i) {
      const Point& p = s->points[i];
      const bool open = i + 1 == s->points.size();  // the open point: as of now
      uint64_t bytes[kKindCount];
      size_t n = 0;
      for (int k = 0; k < kKindCount; ++k) {
        if (!kind_holds_memory(Kind(k))) continue;
        int64_t b = open ? s->now[size_t(k)].load(std::memory_order_relaxed) : p.bytes[size_t(k)];
        bytes[n++] = uint64_t(std::max<int64_t>(b, 0));
      }
      int64_t max_total = open ? std::max(p.max_total, s->open_max.load(std::memory_order_relaxed)) : p.max_total;
      v.point(p.time_ns, uint64_t(std::max<int64_t>(max_total, 0)), bytes, n);
    }
  }
  return skipped;
}

std::map<int, std::vector<Timeline::PeakGroup>> Timeline::peak_groups() const {
  std::map<int, std::vector<PeakGroup>> out;
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    std::lock_guard lock(s->mutex);
    if (!s->points.empty()) out[s->device] = s->at_peak;
  }
  return out;
}

void Timeline::stack_ids(std::vector<uint32_t>& out) const {
  for (const auto& slot : series_) {
    Series* s = slot.load(std::memory_order_acquire);
    if (!s) continue;
    // Sites are never removed (but by clear()): every key taken so far.
    uint32_t taken = s->taken_count.load(std::memory_order_acquire);
    for (uint32_t n = 0; n < taken; ++n)
      if (uint32_t at = atomic(s->taken[n]).load(std::memory_order_acquire))
        out.push_back(uint32_t(atomic(s->sites[at - 1].key).load(std::memory_order_acquire)));
    std::lock_guard lock(s->mutex);
    for (const Point& p : s->points)
      for (uint32_t n = 0; n < p.top.count; ++n) out.push_back(uint32_t(p.top.site[n].key));
    for (const PeakGroup& g : s->at_peak) out.push_back(g.stack_id);
    for (const PeakGroup& g : s->window_grown) out.push_back(g.stack_id);
    s->growth.stack_ids(out);
  }
}

void Timeline::lock_all() {
  create_mutex_.lock();
  for (auto& slot : series_)
    if (Series* s = slot.load()) {
      s->mutex.lock();
      s->counting.lock();
    }
}

void Timeline::unlock_all() {
  for (auto& slot : series_)
    if (Series* s = slot.load()) {
      s->counting.unlock();
      s->mutex.unlock();
    }
  create_mutex_.unlock();
}

void Timeline::clear() {
  for (auto& slot : series_) {
    Series* s = slot.load();
    if (!s) continue;
    std::lock_guard lock(s->mutex);
    for (auto& k : s->now) k.store(0);
    s->total = 0;
    s->open_end = 0;
    s->open_max = 0;
    s->resolution_ns = 1000;
    s->peak_total = 0;
    std::fill_n(s->sites, kSiteSlots, Site{});
    std::fill_n(s->taken, kSiteSlots, 0u);
    s->taken_count = 0;
    label_overflow(*s);
    s->points.clear();
    s->peak = {};
    s->peak_by_kind = {};
    s->at_peak.clear();
    s->at_peak_total = 0;
    s->window_peak = 0;
    s->window_start = 0;
    s->window_start_sites.clear();
    s->window_grown.clear();
    s->window_grown_total = 0;
    s->growth.clear();
    s->growth_end = 0;
  }
}

}  // namespace cudaleak
