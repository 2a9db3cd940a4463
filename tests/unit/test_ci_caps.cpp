// JUnit and SARIF of a job whose ranks share nothing: the caps that keep the
// files bounded cut where they must and say so (docs/ci.md#a-job-of-many-ranks).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "report/render/ci_formats.h"

using namespace cudaleak::report;

namespace {

// `ranks` ranks, each with a counted leak of its own site and a deep stack
// of long names (about 4 KiB of text): nothing for the files to fold.
std::vector<Report> unlike_ranks(int ranks) {
  std::vector<Report> out;
  for (int rank = 0; rank < ranks; ++rank) {
    Report r;
    r.process.exe = "/job/train";
    r.process.pid = 4000 + rank % 8;
    r.process.rank = rank;
    r.process.world_size = ranks;
    LeakGroup g;
    g.kind = Kind::Device;
    g.fails_gate = true;
    g.count = 1, g.bytes = 1 << 20;
    g.api = "cudaMalloc";
    g.site = "site_of_rank_" + std::to_string(rank);
    for (int depth = 0; depth < 40; ++depth) {
      Frame f;
      f.function = "namespace_of_rank_" + std::to_string(rank) + "::layer_" + std::to_string(depth) + "::forward_pass";
      f.file = "/job/src/model_" + std::to_string(depth) + ".py";
      f.line = depth + 1;
      f.module = "/job/lib/libmodel.so";
      g.stack.push_back(f);
    }
    r.leaks = {g};
    out.push_back(std::move(r));
  }
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("JUnit of 6,000 unlike ranks: a suite each, the stacks cut past 4 MiB with a line that says so",
          "[views][ci]") {
  const std::string xml = cudaleak::render::junit_xml(unlike_ranks(6000));
  CHECK(count(xml, "<testsuite ") == 6000);
  CHECK(count(xml, "<failure ") == 6000);
  const size_t cut = count(xml, "Stack left out: the stacks of this file reached 4.0 MiB");
  CHECK(cut > 4000);
  CHECK(cut < 6000);
  CHECK(xml.find("<!-- cudaleak: the stacks of " + std::to_string(cut) +
                 " failures left out past 4.0 MiB of stacks -->") != std::string::npos);
  CHECK(xml.size() < (4u << 20) + 6000 * 1024);  // the stacks' budget and about 1 KiB a rank
}

TEST_CASE("SARIF of 6,000 unlike ranks: at most 5,000 results, messages within 4 MiB, a note of what was left out",
          "[views][ci]") {
  auto sarif = nlohmann::json::parse(cudaleak::render::sarif_json(unlike_ranks(6000)));
  const auto& run = sarif["runs"][0];
  CHECK(run["results"].size() == 5000);
  size_t messages = 0, cut = 0;
  for (const auto& r : run["results"]) {
    const std::string text = r["message"]["text"];
    messages += text.size();
    cut += text.find("... (cut: the messages of this file reached 4.0 MiB)") != std::string::npos;
    CHECK_FALSE(r["properties"].contains("ranks"));  // nothing shared: one rank each
  }
  CHECK(messages < (4u << 20) + 5000 * 256);
  CHECK(cut > 0);
  const auto& invocation = run["invocations"][0];
  CHECK(invocation["executionSuccessful"] == true);  // a cap is no failure of the run
  REQUIRE(invocation["toolExecutionNotifications"].size() == 1);
  CHECK(invocation["toolExecutionNotifications"][0]["level"] == "note");
  CHECK(invocation["toolExecutionNotifications"][0]["message"]["text"] ==
        "cudaleak: 1000 results left out past 5000; " + std::to_string(cut) +
            " messages cut to their first line past 4.0 MiB of messages; cudaleak report REPORTS tells every one");
}

TEST_CASE("SARIF: one result's message is cut at 16 KiB, at a line's end", "[views][ci]") {
  std::vector<Report> one = unlike_ranks(1);
  for (int i = 0; i < 200; ++i) one[0].leaks[0].stack.push_back(one[0].leaks[0].stack.front());
  auto sarif = nlohmann::json::parse(cudaleak::render::sarif_json(one));
  const std::string text = sarif["runs"][0]["results"][0]["message"]["text"];
  CHECK(text.size() < (16u << 10) + 64);
  CHECK(text.ends_with("/job/src/model_0.py:1 (/job/lib/libmodel.so)\n... (cut: the report has the rest)\n"));
}
