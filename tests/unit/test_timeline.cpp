#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>
#include <vector>

#include "interpose/track/timeline.h"

using namespace cudaleak;

TEST_CASE("timeline: bounded points, exact peak with its breakdown", "[timeline]") {
  Timeline t;
  // A million changes over 1000 s: one up and one down per millisecond step,
  // with a single spike at t = 500 s.
  for (uint64_t i = 0; i < 500000; ++i) {
    uint64_t now = i * 2000000;
    t.add(0, Kind::Device, 1, 4096, now);
    if (i == 250000) {
      t.add(0, Kind::Pinned, 2, 1 << 30, now + 10);
      t.add(0, Kind::Pinned, 2, -(1 << 30), now + 20);
    }
    t.add(0, Kind::Device, 1, -4096, now + 1000);
  }
  t.add(1, Kind::Vmm, 3, 100, 5);
  t.add(1, Kind::Stream, 4, 0, 6);  // no bytes: ignored
  auto snap = t.snapshot();
  REQUIRE(snap.devices.size() == 2);
  const auto& d0 = snap.devices[0];
  CHECK(d0.points.size() <= Timeline::kMaxPoints);
  CHECK(d0.points.size() > Timeline::kMaxPoints / 4);
  CHECK(d0.peak.bytes == (1u << 30) + 4096);
  CHECK(d0.peak.time_ns == 250000ull * 2000000 + 10);
  CHECK(d0.peak.by_kind.at(Kind::Pinned) == (1u << 30));
  CHECK(d0.peak.by_kind.at(Kind::Device) == 4096);
  // The spike survives compaction in the point that spans it.
  uint64_t highest = 0;
  for (const auto& p : d0.points) highest = std::max(highest, p.max_total);
  CHECK(highest == (1u << 30) + 4096);
  CHECK(snap.kinds.size() == d0.points.front().bytes.size());
  CHECK(snap.devices[1].peak.by_kind.at(Kind::Vmm) == 100);
  // The groups live at the peak: the pinned spike and the device buffer of that step.
  auto groups = t.peak_groups();
  REQUIRE(groups[0].size() == 2);
  CHECK(groups[0][0].kind == Kind::Pinned);
  CHECK(groups[0][0].bytes == (1u << 30));
  CHECK(groups[0][1].stack_id == 1);
  CHECK(groups[0][1].count == 1);
}

TEST_CASE("timeline: threads changing one device keep exact totals", "[timeline]") {
  Timeline t;
  std::vector<std::thread> threads;
  for (int id = 0; id < 4; ++id)
    threads.emplace_back([&t, id] {
      for (uint64_t i = 0; i < 20000; ++i) t.add(0, Kind::Device, uint32_t(id + 1), 1024, i * 100);
      for (uint64_t i = 0; i < 20000; ++i) t.add(0, Kind::Device, uint32_t(id + 1), -1024, 2000000 + i * 100);
    });
  for (auto& th : threads) th.join();
  auto snap = t.snapshot();
  REQUIRE(snap.devices.size() == 1);
  const auto& d = snap.devices[0];
  CHECK(d.points.back().bytes[0] == 0);  // everything freed
  CHECK(d.peak.bytes >= 20000u * 1024);  // at least one thread's worth was live at once
  CHECK(d.peak.bytes <= 4u * 20000 * 1024);
  CHECK(d.points.size() <= Timeline::kMaxPoints);
}

TEST_CASE("timeline: sites beyond the table are counted together under stack 0", "[timeline]") {
  Timeline t;
  const uint32_t sites = Timeline::kSiteSlots + 500;
  for (uint32_t s = 1; s <= sites; ++s) t.add(2, Kind::Pinned, s, 100, s);
  auto groups = t.peak_groups();
  REQUIRE(groups.count(2));
  uint64_t counted = 0;
  bool pooled = false;
  for (const auto& g : groups[2]) {
    counted += g.count;
    if (g.stack_id == 0) pooled = g.count >= 100;
  }
  CHECK(pooled);                           // everything past the table, in one group
  CHECK(groups[2].front().stack_id == 0);  // the biggest
  CHECK(counted <= sites);
  CHECK(t.snapshot().devices[0].peak.bytes == uint64_t(sites) * 100);
}

TEST_CASE("timeline: each point names its biggest sites, the biggest first", "[timeline]") {
  Timeline t;
  // Twelve sites, site s holding s KiB, opened 1 ms apart; then site 12 goes.
  for (uint32_t s = 1; s <= 12; ++s) t.add(0, Kind::Device, s, int64_t(s) * 1024, uint64_t(s) * 1000000);
  t.add(0, Kind::Device, 12, -12 * 1024, 13000000);
  std::vector<std::vector<Timeline::SiteKey>> keys;
  auto snap = t.snapshot(&keys);
  REQUIRE(snap.devices.size() == 1);
  const auto& d = snap.devices[0];
  REQUIRE(keys.size() == 1);
  REQUIRE(d.site_points.size() == d.points.size());
  REQUIRE(keys[0].size() == d.sites.size());
  auto stack_of = [&](uint32_t index) { return keys[0].at(index).stack_id; };
  // The point opened at 12 ms ended its span with all twelve: the top eight, 12 down to 5.
  const auto& full = d.site_points[d.points.size() - 2];
  REQUIRE(full.size() == Timeline::kPointSites);
  for (size_t n = 0; n < full.size(); ++n) {
    CHECK(stack_of(full[n].first) == 12 - n);
    CHECK(full[n].second == (12 - n) * 1024);
  }
  // The open point, as of now: site 12 is gone, 11 down to 4 remain.
  const auto& now = d.site_points.back();
  REQUIRE(now.size() == Timeline::kPointSites);
  CHECK(stack_of(now.front().first) == 11);
  CHECK(stack_of(now.back().first) == 4);
  // A site's peak is the most it held at any point.
  for (size_t i = 0; i < d.sites.size(); ++i) CHECK(d.sites[i].peak_bytes == stack_of(uint32_t(i)) * 1024);
  CHECK(d.sites[0].kind == Kind::Device);
}

TEST_CASE("timeline: the sites of a point survive compaction with its bytes", "[timeline]") {
  Timeline t;
  for (uint64_t i = 0; i < 100000; ++i) {
    t.add(0, Kind::Device, uint32_t(1 + i % 3), 4096, i * 1000);
    t.add(0, Kind::Device, uint32_t(1 + i % 3), -4096, i * 1000 + 500);
  }
  t.add(0, Kind::Pinned, 9, 1 << 20, 100000ull * 1000);
  std::vector<std::vector<Timeline::SiteKey>> keys;
  auto snap = t.snapshot(&keys);
  const auto& d = snap.devices.at(0);
  REQUIRE(d.points.size() <= Timeline::kMaxPoints);
  REQUIRE(d.site_points.size() == d.points.size());
  for (size_t i = 0; i < d.points.size(); ++i) {
    uint64_t listed = 0;
    for (const auto& [site, bytes] : d.site_points[i]) listed += bytes;
    uint64_t total = 0;
    for (uint64_t b : d.points[i].bytes) total += b;
    CHECK(listed == total);  // fewer sites than the limit: each point's sites add up to its total
  }
  CHECK(keys[0].at(d.site_points.back().at(0).first).kind == Kind::Pinned);
}

TEST_CASE("timeline: stack_ids names the stack of every site ever taken", "[timeline]") {
  // Sites are never removed: the stack depot keeps their stacks.
  Timeline t;
  t.add(0, Kind::Device, 5, 100, 1000);
  t.add(0, Kind::Device, 6, 200, 2000);
  t.add(0, Kind::Device, 6, -200, 3000);
  t.add(1, Kind::Managed, 8, 50, 4000);
  std::vector<uint32_t> ids;
  t.stack_ids(ids);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  CHECK(ids == std::vector<uint32_t>{5, 6, 8});
}

TEST_CASE("timeline: a window's peak of device memory above its start, without host memory", "[timeline]") {
  Timeline t;
  t.add(0, Kind::Device, 1, 100 << 20, 1);  // before the window: its start
  t.begin_window(0);
  t.add(0, Kind::Pinned, 2, 500 << 20, 2);  // host memory: not counted
  t.add(0, Kind::Device, 3, 30 << 20, 3);
  t.add(0, Kind::Managed, 4, 10 << 20, 4);
  t.add(0, Kind::Device, 3, -(30 << 20), 5);
  t.add(0, Kind::Device, 3, 5 << 20, 6);
  auto peaks = t.window_peaks();
  REQUIRE(peaks.size() == 1);
  CHECK(peaks[0].device == 0);
  CHECK(peaks[0].start == (100u << 20));
  CHECK(peaks[0].peak - peaks[0].start == (40u << 20));
  CHECK(peaks[0].grown.empty());  // no limit: no sites recorded
  // A new window starts from what is allocated now.
  t.begin_window(0);
  t.add(0, Kind::Device, 3, 1 << 20, 7);
  peaks = t.window_peaks();
  CHECK(peaks[0].start == (115u << 20));
  CHECK(peaks[0].peak - peaks[0].start == (1u << 20));
}

TEST_CASE("timeline: over a window's limit, the sites that grew since it began", "[timeline]") {
  Timeline t;
  t.add(0, Kind::Device, 1, 64 << 20, 1);  // site 1 before the window
  t.begin_window(24 << 20);
  t.add(0, Kind::Device, 1, 4 << 20, 2);     // site 1 grows by 4 MiB
  t.add(0, Kind::Device, 2, 8 << 20, 3);     // site 2: 8 MiB
  CHECK(t.window_peaks()[0].grown.empty());  // 12 MiB: within the limit
  t.add(2, Kind::Device, 9, 1 << 20, 4);     // another device, seen first in the window
  t.add(0, Kind::Device, 2, 16 << 20, 5);    // site 2: 24 MiB, 28 MiB in all: over
  t.add(0, Kind::Device, 2, -(24 << 20), 6);
  std::vector<Timeline::WindowPeak> peaks = t.window_peaks();
  REQUIRE(peaks.size() == 2);
  const Timeline::WindowPeak& d0 = peaks[0].device == 0 ? peaks[0] : peaks[1];
  CHECK(d0.peak - d0.start == (28u << 20));
  REQUIRE(d0.grown.size() == 2);
  CHECK(d0.grown[0].stack_id == 2);
  CHECK(d0.grown[0].bytes == (24u << 20));
  CHECK(d0.grown[1].stack_id == 1);
  CHECK(d0.grown[1].bytes == (4u << 20));  // its growth, not its 68 MiB
  std::vector<uint32_t> ids;
  t.stack_ids(ids);  // the depot keeps the grown sites' stacks
  CHECK(std::count(ids.begin(), ids.end(), 2u) >= 2);
}
