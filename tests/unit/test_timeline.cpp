#include <catch2/catch.hpp>

#include "track/timeline.h"

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
  CHECK(d0.peak.by_kind.at("pinned") == (1u << 30));
  CHECK(d0.peak.by_kind.at("device") == 4096);
  // The spike survives compaction in the point that spans it.
  uint64_t highest = 0;
  for (const auto& p : d0.points) highest = std::max(highest, p.max_total);
  CHECK(highest == (1u << 30) + 4096);
  CHECK(snap.kinds.size() == d0.points.front().bytes.size());
  CHECK(snap.devices[1].peak.by_kind.at("vmm") == 100);
  // The groups live at the peak: the pinned spike and the device buffer of that step.
  auto groups = t.peak_groups();
  REQUIRE(groups[0].size() == 2);
  CHECK(groups[0][0].kind == Kind::Pinned);
  CHECK(groups[0][0].bytes == (1u << 30));
  CHECK(groups[0][1].stack_id == 1);
  CHECK(groups[0][1].count == 1);
}
