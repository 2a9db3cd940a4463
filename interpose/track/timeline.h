// Live bytes over time, per device and memory kind, in bounded space whatever
// the run length: at most kMaxPoints points per device; when full, the time
// resolution doubles and neighbouring points merge (each keeps the highest
// total seen in its span). The peak is tracked exactly, apart from the points.
//
// On the common path, one short spin lock per device guards the live totals
// and the per-site counters, which are atomics that readers load without it.
// A device's mutex is taken only to open a new point (once per time
// span, which widens as the run goes on) and when its total reaches a new
// peak. Threads that change the same device at the same moment may see each
// other's changes a little early or late in a point or in the peak's
// breakdown; the totals themselves stay exact.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "common/kinds.h"
#include "interpose/track/site_growth.h"
#include "common/record/raw.h"

namespace cudaleak {

class Timeline {
 public:
  static constexpr size_t kMaxPoints = 512;
  // Sites (kind, stack) counted one by one per device; more than that many
  // share one counter per kind, with stack id 0.
  static constexpr size_t kSiteSlots = 8192;
  // Each point remembers its biggest sites, for the page's timeline stacked
  // by site; the rest of a point's total is drawn as "other sites".
  static constexpr size_t kPointSites = 8;

  Timeline() = default;
  // How long each span of the sites' growth histories is to start with
  // (site_growth.h); it doubles as the run goes on. Before the first change.
  // 0: no growth histories at all (growth_interval_ms=0).
  void set_growth_interval(uint64_t ns) { growth_interval_ns_ = ns; }
  // Requests the program counted (cudaleak_requests): one relaxed add, read
  // when a span closes, so that a rise can be put per 1,000 requests.
  void count_requests(uint64_t n) { requests_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t requests() const { return requests_.load(std::memory_order_relaxed); }
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;
  ~Timeline();

  // A change of `delta` bytes of `kind` on `device` at `time_ns`, by the
  // resource created at stack `stack_id` (count +1 or -1 with the sign of delta).
  void add(int device, Kind kind, uint32_t stack_id, int64_t delta, uint64_t time_ns);
  // The sites of a device's points, in the order of report's
  // DeviceTimeline::sites (one list per device of the snapshot).
  using SiteKey = report::RawSite;
  report::Timeline snapshot(std::vector<std::vector<SiteKey>>* site_keys = nullptr) const;
  // The groups live at each device's peak, by (kind, stack id), biggest first.
  using PeakGroup = report::RawPeakGroup;
  std::map<int, std::vector<PeakGroup>> peak_groups() const;
  // The sites whose growth histories are kept, per device, stack ids unresolved.
  // Each device's kept histories, closing first the spans that ended by now_ns.
  std::map<int, std::vector<report::SiteGrowth>> growth(uint64_t now_ns);

  // For the crash handler: the points of each device as numbers, nothing
  // allocated; a device whose lock is held (maybe by the crashed thread) is
  // skipped and counted in the result. bytes: one value per memory kind, in
  // Kind order (kind_holds_memory), as snapshot() lists them.
  class CrashVisitor {
   public:
    virtual void device(int device, uint64_t resolution_ns, uint64_t peak_time_ns, uint64_t peak_bytes) = 0;
    virtual void point(uint64_t time_ns, uint64_t max_total, const uint64_t* bytes, size_t kinds) = 0;

   protected:
    ~CrashVisitor() = default;
  };
  size_t visit_for_crash(CrashVisitor& v) const;

  // A window of the run (a test, for a per-test memory budget): from
  // begin_window, each device's highest total of device memory (the kinds
  // that occupy a GPU's memory: on_device_memory) above its total then; and,
  // once a total passes `limit` bytes above its start (0: no limit), the
  // sites that grew since the window began, as of the highest total seen
  // over the limit. A growth costs three loads and subtractions under the
  // lock it already holds and one compare after it (a release nothing); a
  // new peak of the window is raised out of line, and the sites are walked
  // only over the limit.
  void begin_window(uint64_t limit);
  struct WindowPeak {
    int device;
    uint64_t start;                // device memory when the window began
    uint64_t peak;                 // the highest since (>= start)
    std::vector<PeakGroup> grown;  // over the limit: sites by their growth since the start, biggest first
  };
  std::vector<WindowPeak> window_peaks() const;

  // Appends the stack id of every site, point and peak group kept (the stack
  // depot's collection keeps those stacks).
  void stack_ids(std::vector<uint32_t>& out) const;

  // For the fork protocol: every lock held across fork(); clear() in the child.
  void lock_all();
  void unlock_all();
  void clear();

 private:
  struct SiteBytes {
    uint64_t key;  // as Site::key
    int64_t bytes;
  };
  // The biggest sites, biggest first; fixed size so that opening a point
  // allocates nothing.
  struct TopSites {
    std::array<SiteBytes, kPointSites> site;
    uint32_t count;
  };
  struct Point {
    uint64_t time_ns;
    std::array<int64_t, kKindCount> bytes;  // at the end of the point's span
    int64_t max_total;                      // highest total within the span
    TopSites top;                           // at the end of the point's span
  };
  // Live bytes and count of one (kind, stack); accessed through atomic_ref.
  struct Site {
    uint64_t key;  // (kind + 1) << 32 | stack id; 0: free slot
    int64_t bytes;
    int64_t count;
    int64_t low;  // the lowest `bytes` since the growth history's last sample
  };
  struct Series;
  static constexpr int kDevices = 257;  // device -1 (none known) .. 255
  static constexpr size_t kPeakGroups = 10;

  Series& series(int device);
  __attribute__((noinline)) Series& make_series(int index);
  Site& site(Series& s, Kind kind, uint32_t stack_id);
  void open_point(Series& s, uint64_t time_ns);
  void record_peak(Series& s, int64_t total, uint64_t time_ns);
  void sample_growth(Series& s, uint64_t time_ns);
  static void compact(Series& s);
  static TopSites top_sites(Series& s);
  void start_window(Series& s, uint64_t limit);
  static int64_t device_memory(const Series& s);
  __attribute__((noinline)) void raise_window_peak(Series& s, int64_t on_device);
  void record_over_limit(Series& s, int64_t on_device);

  std::atomic<Series*> series_[kDevices] = {};
  std::atomic<uint64_t> window_limit_{0};  // of the window open now, for a device seen first during it
  uint64_t growth_interval_ns_ = 1'000'000'000;
  std::atomic<uint64_t> requests_{0};
  std::mutex create_mutex_;
};

}  // namespace cudaleak
