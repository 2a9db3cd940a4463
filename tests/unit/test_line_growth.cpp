#include <catch2/catch.hpp>

#include "interpose/runtime/line_growth.h"
#include "interpose/track/site_growth.h"
#include "report/model/site_growth.h"
#include "report/render/growth_text.h"

using namespace cudaleak;

namespace {
constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kMiB = 1 << 20;

std::vector<report::Frame> stack_at(const char* function, int line) {
  report::Frame f;
  f.file = "serve.py";
  f.function = function;
  f.line = line;
  f.python = true;
  return {f};
}

const report::SiteGrowth* line(const std::vector<report::SiteGrowth>& lines, const char* function) {
  for (const auto& g : lines)
    if (!g.stack.empty() && g.stack[0].function == function) return &g;
  return nullptr;
}
}  // namespace

TEST_CASE("line growth: a view's leaking line grew steadily, its churning and loaded lines did not", "[growth]") {
  line_growth::Lines lines;
  lines.configure(1000 * kMs);
  const auto leak = stack_at("keep_for_debugging", 12), churn = stack_at("serve_batch", 7),
             weights = stack_at("load", 3);
  // Two minutes of views every 250 ms: the kept list gains 1 MiB every second
  // (a request every 10 ms), the batch's tensor is there in every other view.
  for (uint64_t view = 0; view < 480; ++view) {
    const uint64_t now = view * 250 * kMs, requests = view * 25;
    std::vector<line_growth::LineBytes> seen{{&weights, 512 * kMiB}, {&leak, (view / 4 + 1) * kMiB}};
    if (view % 2) seen.push_back({&churn, 64 * kMiB});
    lines.observe("pytorch", 0, seen, now, requests);
  }
  auto all = lines.snapshot();
  REQUIRE(all.count(0));
  const auto* leaking = line(all[0], "keep_for_debugging");
  const auto* churning = line(all[0], "serve_batch");
  const auto* loaded = line(all[0], "load");
  REQUIRE(leaking);
  REQUIRE(churning);
  REQUIRE(loaded);
  CHECK(leaking->steady);
  CHECK(leaking->view == "pytorch");
  CHECK(leaking->where == "keep_for_debugging (serve.py:12)");
  CHECK(leaking->stack_id == 0);
  CHECK_FALSE(churning->steady);
  CHECK_FALSE(loaded->steady);
  // 1 MiB a second is 60 MiB a minute; 100 requests a second: 10 MiB per 1,000.
  CHECK(report::rise_per_minute(*leaking) == Approx(60.0 * kMiB).epsilon(0.05));
  REQUIRE(leaking->rise_requests > 0);
  CHECK(double(report::rise_bytes(*leaking)) * 1000 / double(leaking->rise_requests) ==
        Approx(10.0 * kMiB).epsilon(0.05));
  CHECK_THAT(render::rise_words(*leaking), Catch::Contains("per 1,000 requests"));
  CHECK_THAT(render::site_words(*leaking),
             Catch::StartsWith("120.0 MiB of PyTorch's live tensors at keep_for_debugging"));
  CHECK(leaking->history.size() <= SiteGrowthTable::kPoints);
}

TEST_CASE("line growth: a line the view stops listing fell and nothing is followed with growth off", "[growth]") {
  line_growth::Lines lines;
  lines.configure(100 * kMs);
  const auto leak = stack_at("keep", 1);
  for (uint64_t view = 0; view < 20; ++view) lines.observe("jax", 1, {{&leak, (view + 1) * kMiB}}, view * 100 * kMs, 0);
  auto grown = lines.snapshot();
  REQUIRE(grown.count(1));
  REQUIRE(line(grown[1], "keep"));
  CHECK(line(grown[1], "keep")->steady);
  CHECK(line(grown[1], "keep")->rise_requests == 0);  // no requests counted: per minute only
  for (uint64_t view = 20; view < 24; ++view) lines.observe("jax", 1, {}, view * 100 * kMs, 0);
  auto fell = lines.snapshot();
  CHECK_FALSE(line(fell[1], "keep")->steady);

  line_growth::Lines off;
  off.configure(0);
  for (uint64_t view = 0; view < 20; ++view)
    off.observe("pytorch", 0, {{&leak, (view + 1) * kMiB}}, view * 100 * kMs, 0);
  CHECK(off.snapshot().empty());
}

TEST_CASE("line growth: the lines merge into the report's timeline beside the sites", "[growth]") {
  report::Timeline timeline;
  timeline.devices.emplace_back().device = 0;
  std::map<int, std::vector<report::SiteGrowth>> lines;
  lines[0].emplace_back().view = "pytorch";
  lines[2].emplace_back().view = "cupy";
  line_growth::merge_into(timeline, lines);
  REQUIRE(timeline.devices.size() == 2);
  CHECK(timeline.devices[0].growth.size() == 1);
  CHECK(timeline.devices[1].device == 2);
  CHECK(timeline.devices[1].growth[0].view == "cupy");
}
