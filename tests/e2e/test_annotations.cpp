// CI output that needs no code-scanning service: GitHub workflow commands and
// GitLab's code-quality report, from `cudaleak run` and `cudaleak report`;
// and SARIF's rules with their help and the run's invocation.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("annotations: github workflow commands at the leak's line from run and from report", "[e2e][annotations]") {
  auto dir = fresh_dir("annotations_github");
  Result res = run_sim(dir, {sample("loop_leak")},
                       {"--error-exitcode", "1", "--annotations", "github", "--source-root", "/"});
  CHECK(res.exit_code == 1);
  // One command per leak group the gate counts: file and line of the
  // program's frame, the title's ':' escaped, the stack on escaped newlines.
  CHECK(has(res.out,
            ",line=8,title=cudaleak%3A device leak::device leak: 50 resources, 800.0 KiB, created by "
            "cudaMalloc, definitely lost in sample_loop_leak_shared (pid "));
  CHECK(has(res.out, "::error file="));
  CHECK(has(res.out, "samples/loop_leak.cu,line=8"));
  CHECK(has(res.out, "%0A#2 step "));
  Result again = run({cudaleak_tool(), "report", "--annotations", "github", files_in(dir).front()});
  CHECK(again.exit_code == 0);
  CHECK(has(again.out, "::error file="));
  CHECK(has(again.out, ",line=8,title=cudaleak%3A device leak::device leak: 50 resources"));
  // A clean run: nothing.
  auto clean_dir = fresh_dir("annotations_clean");
  Result clean = run_sim(clean_dir, {sample("clean")}, {"--annotations", "github"});
  CHECK_FALSE(has(clean.out, "::error"));
}

TEST_CASE("annotations: a GitLab code-quality report of the leaks", "[e2e][annotations]") {
  auto dir = fresh_dir("annotations_gitlab");
  const std::string file = dir + "/../gl.json";
  Result res = run_sim(dir, {sample("loop_leak")}, {"--annotations", "gitlab", "--annotations-output", file});
  CHECK(res.exit_code == 0);
  auto issues = nlohmann::json::parse(read_file(file));
  REQUIRE(issues.is_array());
  REQUIRE(issues.size() == 1);
  CHECK(issues[0]["check_name"] == "cudaleak/device-leak");
  CHECK(issues[0]["severity"] == "major");
  CHECK(issues[0]["location"]["lines"]["begin"] == 8);
  CHECK(has(issues[0]["location"]["path"].get<std::string>(), "samples/loop_leak.cu"));
  CHECK(issues[0]["fingerprint"].get<std::string>().size() == 16);
  // The same site gives the same fingerprint in the next run (GitLab compares them).
  Result second = run({cudaleak_tool(), "report", "--annotations", "gitlab", files_in(dir).front()});
  CHECK(nlohmann::json::parse(second.out)[0]["fingerprint"] == issues[0]["fingerprint"]);
}

TEST_CASE("SARIF: rules with full description and help and a link into docs and the invocation's exit code",
          "[e2e][annotations]") {
  auto dir = fresh_dir("sarif_rules");
  const std::string file = dir + "/../rules.sarif";
  Result res = run_sim(dir, {sample("loop_leak")}, {"--error-exitcode", "7", "--sarif", file});
  CHECK(res.exit_code == 7);
  auto run0 = nlohmann::json::parse(read_file(file))["runs"][0];
  const auto& rule = run0["tool"]["driver"]["rules"][0];
  CHECK(rule["id"] == "cudaleak/device-leak");
  CHECK(has(rule["fullDescription"]["text"].get<std::string>(), "the leak gate counts it"));
  CHECK(has(rule["help"]["text"].get<std::string>(), "suppression rule"));
  CHECK(has(rule["help"]["markdown"].get<std::string>(), "`cudaleak report --gen-suppressions"));
  CHECK(has(rule["helpUri"].get<std::string>(), "/ci.md#suppressions"));
  const auto& invocation = run0["invocations"][0];
  CHECK(invocation["exitCode"] == 7);
  CHECK(invocation["executionSuccessful"] == true);
  CHECK(has(invocation["arguments"][0].get<std::string>(), "sample_loop_leak_shared"));
}

TEST_CASE("diff: --format html shows the sites grown and new and gone with their stacks", "[e2e][annotations]") {
  auto few = fresh_dir("diff_html_few"), more = fresh_dir("diff_html_more"), other = fresh_dir("diff_html_other");
  run_sim(few, {sample("loop_leak"), "5"});
  run_sim(more, {sample("loop_leak"), "9"});
  run_sim(other, {sample("stream_event_leak")});
  const std::string page = few + "/../diff.html";
  Result grown = run({cudaleak_tool(), "diff", "--format", "html", "-o", page, few, more});
  CHECK(grown.exit_code == 1);  // as the text: a site grew
  std::string html = read_file(page);
  CHECK(has(html, "<h2>Grown (1)</h2>"));
  CHECK(has(html,
            "<td class=\"n\">80.0 KiB</td><td class=\"n\">144.0 KiB</td><td class=\"n\">+64.0 KiB</td>"
            "<td class=\"n\">5 &rarr; 9</td>"));
  CHECK(has(html, "<span class=\"fn\">step</span> "));  // the site's stack
  CHECK(has(html, "loop_leak.cu:8</li>"));
  Result changed = run({cudaleak_tool(), "diff", "--format", "html", "-o", page, other, more});
  html = read_file(page);
  CHECK(has(html, "<h2>New (1)</h2>"));
  CHECK(has(html, "<h2>Gone (2)</h2>"));
  CHECK(has(html, "cudaStreamCreateWithFlags"));  // a gone site's stack, from the earlier run
  CHECK(has(html, "<h2>Shrunk (0)</h2>"));
  Result shrunk = run({cudaleak_tool(), "diff", "--format", "html", more, few});
  CHECK(shrunk.exit_code == 0);
  CHECK(has(shrunk.out, "<h2>Shrunk (1)</h2>"));
  CHECK(has(shrunk.out, "&minus;64.0 KiB"));
}
