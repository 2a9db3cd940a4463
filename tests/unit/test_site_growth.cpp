#include <catch2/catch.hpp>

#include <algorithm>

#include "interpose/track/timeline.h"
#include "report/gate/gate.h"
#include "report/gate/growth_gate.h"
#include "report/model/site_growth.h"
#include "report/render/growth_text.h"

using namespace cudaleak;

namespace {
constexpr uint64_t kMs = 1'000'000;
constexpr int64_t kMiB = 1 << 20;

const report::SiteGrowth* find(const std::vector<report::SiteGrowth>& sites, uint32_t stack) {
  for (const auto& s : sites)
    if (s.stack_id == stack) return &s;
  return nullptr;
}

// Ten minutes at a step per 100 ms: site 1 leaks 1 MiB every second while
// churning 64 MiB a step, site 2 churns only, site 3 is loaded once at the
// start and held.
Timeline& run_steps(Timeline& t, int seconds) {
  t.set_growth_interval(1000 * kMs);
  t.add(0, Kind::Device, 3, 512 * kMiB, 1);
  for (int step = 0; step < seconds * 10; ++step) {
    const uint64_t now = uint64_t(step) * 100 * kMs + 10;
    t.add(0, Kind::Device, 1, 64 * kMiB, now);
    t.add(0, Kind::Device, 2, 64 * kMiB, now + 1);
    t.add(0, Kind::Device, 2, -64 * kMiB, now + 2);
    t.add(0, Kind::Device, 1, -64 * kMiB, now + 3);
    if (step % 10 == 0) t.add(0, Kind::Device, 1, kMiB, now + 4);
  }
  return t;
}
}  // namespace

TEST_CASE("site growth: the leaking site grew steadily and the churning and the loaded ones did not", "[growth]") {
  Timeline t;
  run_steps(t, 600);
  auto growth = t.growth(0);  // at the last change: no span closed here
  REQUIRE(growth.count(0));
  const auto& sites = growth[0];
  const report::SiteGrowth* leak = find(sites, 1);
  const report::SiteGrowth* churn = find(sites, 2);
  const report::SiteGrowth* loaded = find(sites, 3);
  REQUIRE(leak);
  REQUIRE(loaded);
  CHECK(report::grew_steadily(*leak));
  // Memory given back within every step is never live at a span's end:
  // such a site holds nothing worth a history.
  CHECK_FALSE(churn);
  CHECK_FALSE(report::grew_steadily(*loaded));
  // Bounded: the history of ten minutes at 1 s spans was coarsened.
  CHECK(leak->history.size() <= SiteGrowthTable::kPoints);
  CHECK(leak->history.size() > SiteGrowthTable::kPoints / 4);
  CHECK(leak->interval_ns >= 2000 * kMs);
  // The churn within each span is not growth: the lowest is what was kept.
  CHECK(leak->level >= 590 * uint64_t(kMiB));
  CHECK(leak->level <= 600 * uint64_t(kMiB));
  // About 1 MiB a minute... per second: 60 MiB per minute.
  CHECK(report::rise_per_minute(*leak) == Approx(60.0 * kMiB).epsilon(0.05));
  CHECK(sites.front().stack_id == 1);  // rising first
}

TEST_CASE("site growth: the words and the sparkline", "[growth]") {
  Timeline t;
  run_steps(t, 600);
  auto growth = t.growth(0);  // at the last change: no span closed here
  const report::SiteGrowth* leak = find(growth[0], 1);
  REQUIRE(leak);
  const std::string words = report::rise_words(*leak);
  CHECK(words.find("grew steadily for 9 min") == 0);
  CHECK(words.find("per minute), never fell") != std::string::npos);
  CHECK(report::rise_length(uint64_t(6 * 3600 + 12 * 60) * 1'000'000'000) == "6 h 12 min");
  CHECK(report::sparkline({0, 1, 2, 3, 4, 5, 6, 7}, 8) == "▁▂▃▄▅▆▇█");
}

TEST_CASE("site growth: a fall starts the rise again", "[growth]") {
  Timeline t;
  t.set_growth_interval(100 * kMs);
  for (int i = 0; i < 50; ++i) t.add(0, Kind::Device, 1, kMiB, uint64_t(i) * 100 * kMs + 5);
  t.add(0, Kind::Device, 1, -40 * kMiB, 5000 * kMs + 5);  // gave most of it back
  for (int i = 51; i < 55; ++i) t.add(0, Kind::Device, 1, kMiB, uint64_t(i) * 100 * kMs + 5);
  auto growth = t.growth(0);  // at the last change: no span closed here
  const report::SiteGrowth* site = find(growth[0], 1);
  REQUIRE(site);
  CHECK(site->since_ns >= 5000 * kMs);
  CHECK(site->since_bytes == 10 * uint64_t(kMiB));  // 50 MiB less 40, the lowest of the span it fell in
}

TEST_CASE("site growth: bounded sites per device with rising ones kept over bigger flat ones", "[growth]") {
  Timeline t;
  t.set_growth_interval(100 * kMs);
  // 200 flat sites, bigger than the leaking one, then the leak.
  for (uint32_t s = 0; s < 200; ++s) t.add(0, Kind::Device, 100 + s, 100 * kMiB, 1 + s);
  for (int i = 0; i < 100; ++i) t.add(0, Kind::Device, 7, 4096, uint64_t(i) * 100 * kMs + 500);
  auto growth = t.growth(0);  // at the last change: no span closed here
  CHECK(growth[0].size() <= SiteGrowthTable::kKeptSites);
  const report::SiteGrowth* leak = find(growth[0], 7);
  REQUIRE(leak);
  CHECK(report::grew_steadily(*leak));
}

TEST_CASE("growth gate: thresholds in bytes and bytes per minute", "[growth]") {
  gate::GrowthThreshold t;
  CHECK(gate::parse_growth_threshold("64MiB", t).empty());
  CHECK(t.bytes == 64ull << 20);
  CHECK_FALSE(t.per_minute);
  CHECK(gate::parse_growth_threshold("2M/min", t).empty());
  CHECK(t.bytes == 2ull << 20);
  CHECK(t.per_minute);
  CHECK(gate::parse_growth_threshold("1048576", t).empty());
  CHECK(t.bytes == 1048576);
  CHECK_FALSE(gate::parse_growth_threshold("lots", t).empty());
  CHECK_FALSE(gate::parse_growth_threshold("1MiB/hour", t).empty());
  CHECK_FALSE(gate::parse_growth_threshold("0", t).empty());
}

// A server served from its allocator's cache makes no allocation after
// warm-up, so no span closes on its own: a report (or `cudaleak top`'s
// frame) closes the spans that ended since, and its sites read flat.
TEST_CASE("site growth: a process gone quiet has its spans closed when asked, and reads flat", "[growth]") {
  Timeline t;
  t.set_growth_interval(1000 * kMs);
  t.add(0, Kind::Device, 7, 64 * kMiB, 10);          // starts the first span
  t.add(0, Kind::Device, 7, 32 * kMiB, 1500 * kMs);  // closes it
  auto before = t.growth(0);
  const size_t seen = before.count(0) && find(before[0], 7) ? find(before[0], 7)->history.size() : 0;
  auto growth = t.growth(20'000 * kMs);  // 18.5 s later, nothing changed
  REQUIRE(growth.count(0));
  const report::SiteGrowth* quiet = find(growth[0], 7);
  REQUIRE(quiet);
  CHECK(quiet->history.size() >= seen + 10);
  CHECK_FALSE(report::grew_steadily(*quiet));
  CHECK(quiet->level == uint64_t(96 * kMiB));
}

// A growing list of tensors shows twice in the timeline: as the line of the
// PyTorch view that keeps them, and as the caching allocator's own site whose
// segments hold them. fail_on_growth counts that memory once, by the line;
// the allocator's site counts when no line of its view does.
TEST_CASE("growth gate: a framework's line and its allocator's site count once", "[growth][gate]") {
  auto steady = [](const char* function, const std::string& view) {
    report::SiteGrowth g;
    g.kind = Kind::Device;
    g.view = view;
    g.steady = true;
    g.since_bytes = 0;
    g.level = g.bytes = 64ull << 20;
    report::Frame f;
    f.function = function;
    f.python = !view.empty();
    g.stack = {f};
    return g;
  };
  auto failing = [&](bool line_grows) {
    report::Report r;
    report::DeviceTimeline d;
    d.device = 0;
    report::SiteGrowth line = steady("train_step", "pytorch");
    line.steady = line_grows;
    d.growth = {line, steady("c10::cuda::CUDACachingAllocator::Native::malloc", ""), steady("own_buffer", "")};
    r.timeline.devices = {d};
    gate::GateSettings s;
    s.default_suppressions = false;
    s.fail_on_growth = "1MiB";
    gate::GateConfig c = gate::make_gate_config(s, [](const std::string&) {});
    REQUIRE(c.config_error.empty());
    const report::GateResult verdict = gate::judge(r, c);
    CHECK(verdict.failing_groups == verdict.failing_growth_sites);
    std::vector<bool> marked;
    for (const auto& g : r.timeline.devices[0].growth) marked.push_back(g.fails_gate);
    return std::make_pair(verdict.failing_growth_sites, marked);
  };
  CHECK(failing(true) == std::make_pair(uint64_t(2), std::vector<bool>{true, false, true}));
  CHECK(failing(false) == std::make_pair(uint64_t(2), std::vector<bool>{false, true, true}));
}
