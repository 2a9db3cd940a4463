// Suppression rules compiled and indexed (rule_set.h, literal_index.h,
// compiled_rules.h): the index finds what checking every rule finds, and the
// compiled file maps back to the same rules or is refused.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "report/gate/compiled_rules.h"
#include "report/gate/suppressions.h"

using namespace cudaleak;
using namespace cudaleak::gate;

namespace {

RuleSet rules_from(const std::string& text, const std::string& name = "t.supp") {
  RuleSetBuilder b;
  b.add_text(text, name);
  return b.build();
}

report::LeakGroup group(const std::string& kind, const std::string& api, std::vector<std::string> functions) {
  report::LeakGroup g;
  REQUIRE(report::parse_name(kind, g.kind));
  g.api = api;
  g.count = 1;
  g.bytes = 64;
  uint64_t ip = 0x1000;
  for (auto& f : functions) g.stack.push_back(report::Frame{ip++, "/app/libwork.so", f, "/src/work.cu", 7});
  return g;
}

std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("cudaleak_rules_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / name);
  return (dir / name).string();
}

std::string random_text(std::mt19937& rng, const char* alphabet, size_t max_size) {
  std::string s(rng() % (max_size + 1), ' ');
  const size_t n = std::strlen(alphabet);
  for (char& c : s) c = alphabet[rng() % n];
  return s;
}

}  // namespace

TEST_CASE("literal index: every occurrence of every key, as a plain search finds them", "[rules]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> keys;
    for (int k = 0; k < 1 + int(rng() % 12); ++k) keys.push_back(random_text(rng, "abc", 4));
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::vector<uint32_t> ids(keys.size());
    for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    LiteralIndex index(views, ids);
    REQUIRE(index.view().valid(uint32_t(ids.size())));
    std::string text = random_text(rng, "abcd", 24);
    std::vector<uint32_t> found, expected;
    index.view().for_each_match(text, [&](uint32_t id) { found.push_back(id); });
    for (uint32_t i = 0; i < keys.size(); ++i)
      for (size_t at = 0; !keys[i].empty() && (at = text.find(keys[i], at)) != std::string::npos; ++at)
        expected.push_back(i);
    std::sort(found.begin(), found.end());
    std::sort(expected.begin(), expected.end());
    CHECK(found == expected);
  }
}

TEST_CASE("rule set: the index picks the same first rule as checking every rule in turn", "[rules]") {
  std::mt19937 rng(11);
  const char* kinds[] = {"device", "pinned", "stream"};
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int r = 0; r < 1 + int(rng() % 20); ++r) {
      std::string pattern = random_text(rng, "ab*", 5);
      if (pattern.empty() || rng() % 4 == 0) pattern = "^" + pattern;
      if (rng() % 4 == 0) pattern += "$";
      text += "leak:" + pattern;
      if (rng() % 3 == 0) text += std::string(" kind:") + kinds[rng() % 3];
      if (rng() % 5 == 0) text += " api:" + random_text(rng, "ab", 2) + "*";
      text += "\n";
    }
    RuleSet rules = rules_from(text);
    for (int g = 0; g < 10; ++g) {
      auto leak = group(kinds[rng() % 3], random_text(rng, "ab", 3),
                        {random_text(rng, "abc", 6), random_text(rng, "abc", 6)});
      INFO(text << "frames " << leak.stack[0].function << " " << leak.stack[1].function);
      CHECK(rules.first_match(leak) == rules.first_match_by_scan(leak));
    }
  }
}

TEST_CASE("rule set: file order wins and a repeated rule is kept once with its first source", "[rules]") {
  RuleSetBuilder b;
  b.add_text("leak:load_weights kind:device\nleak:*weights*\n", "a.supp");
  b.add_text("# again\nleak:load_weights   kind:device\nleak:^main$ api:cudaMalloc\n", "b.supp");
  RuleSet rules = b.build();
  REQUIRE(rules.size() == 3);
  CHECK(rules.source(2) == "b.supp:3");
  auto leak = group("device", "cudaMalloc", {"load_weights", "main"});
  CHECK(rules.first_match(leak) == 0);
  CHECK(rules.text(0) == "leak:load_weights kind:device");
  CHECK(rules.source(0) == "a.supp:1");
  CHECK(rules.first_match(group("pinned", "cudaMalloc", {"load_weights"})) == 1);
  CHECK(rules.first_match(group("pinned", "cuMemAllocHost", {"main"})) == rules.size());
  CHECK(rules.first_match(group("pinned", "cudaMalloc", {"main"})) == 2);
}

TEST_CASE("rule set: syntax errors name file and line and keep no rule of that file", "[rules]") {
  RuleSetBuilder b;
  b.add_text("leak:fine\n", "good.supp");
  CHECK_THROWS_WITH(b.add_text("leak:ok\n\nleak:x kind:devise\n", "bad.supp"),
                    "bad.supp:3: unknown kind 'devise' in 'leak:x kind:devise'");
  CHECK_THROWS_WITH(b.add_text("leak:x kind:\n", "e.supp"), "e.supp:1: empty kind list in 'leak:x kind:'");
  CHECK_THROWS_WITH(b.add_text("  free:x\n", "f.supp"), "f.supp:1: expected 'leak:PATTERN' in 'free:x'");
  CHECK_THROWS_WITH(b.add_text("leak:x api:\n", "g.supp"), "g.supp:1: empty api pattern in 'leak:x api:'");
  CHECK_THROWS_WITH(b.add_text("leak:x size:3\n", "h.supp"),
                    "h.supp:1: unknown qualifier 'size:3' (expected kind: or api:) in 'leak:x size:3'");
  RuleSet rules = b.build();
  REQUIRE(rules.size() == 1);
  CHECK(rules.text(0) == "leak:fine");
}

TEST_CASE("compiled rules: mapped back with the same rules and problems, refused when stale or damaged", "[rules]") {
  std::string supp = temp_path("app.supp");
  std::ofstream(supp) << "leak:load_weights kind:device\nleak:*\n";
  std::string missing = temp_path("missing.supp");
  CompiledRules compiled = compile_rules(true, {supp, missing});
  REQUIRE(compiled.problems.size() == 1);
  CHECK(compiled.problems[0].find(missing) != std::string::npos);
  const std::string key = rules_key(true, {supp, missing});
  std::string path = temp_path("run.rules");
  REQUIRE(write_compiled_rules(path, key, compiled) == "");
  CHECK(write_compiled_rules(path, key, compiled).find("cannot create") == 0);  // never replaced

  auto mapped = map_compiled_rules(path, key);
  REQUIRE(mapped);
  CHECK(mapped->problems == compiled.problems);
  REQUIRE(mapped->rules.size() == compiled.rules.size());
  for (size_t i = 0; i < mapped->rules.size(); ++i) {
    CHECK(mapped->rules.text(i) == compiled.rules.text(i));
    CHECK(mapped->rules.source(i) == compiled.rules.source(i));
  }
  auto leak = group("device", "cudaMalloc", {"load_weights"});
  CHECK(mapped->rules.source(mapped->rules.first_match(leak)) == supp + ":1");
  CHECK(mapped->rules.first_match(group("event", "cuEventCreate", {"x"})) == mapped->rules.size() - 1);  // leak:*

  CHECK_FALSE(map_compiled_rules(path, rules_key(false, {supp, missing})));  // other settings
  CHECK_FALSE(map_compiled_rules(temp_path("absent.rules"), key));

  // Every truncation, and bytes changed anywhere: refused or sound, never a crash.
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::mt19937 rng(3);
  int refused = 0;
  for (int round = 0; round < 400; ++round) {
    std::string damaged = bytes;
    if (round % 2) damaged.resize(rng() % bytes.size());
    else
      for (int k = 0; k < 4; ++k) damaged[rng() % damaged.size()] = char(rng());
    std::string bad = temp_path("damaged.rules");
    std::ofstream(bad, std::ios::binary) << damaged;
    auto m = map_compiled_rules(bad, key);
    if (!m) {
      ++refused;
      continue;
    }
    size_t first = m->rules.first_match(leak);  // a sound file is used as is
    CHECK(first <= m->rules.size());
  }
  CHECK(refused >= 200);  // every truncation at least
}

TEST_CASE("apply_suppressions: each group names its first rule and the uses add up per rule", "[rules]") {
  RuleSet rules = rules_from("leak:load_*\nleak:stage kind:pinned\n", "x.supp");
  report::Report r;
  r.leaks = {group("device", "cudaMalloc", {"load_a"}), group("device", "cudaMalloc", {"load_b"}),
             group("pinned", "cudaMallocHost", {"stage"}), group("device", "cudaMalloc", {"stage"})};
  apply_suppressions(r, rules);
  CHECK(r.leaks[0].suppressed_by == "leak:load_* (x.supp:1)");
  CHECK(r.leaks[2].suppressed_by == "leak:stage kind:pinned (x.supp:2)");
  CHECK(r.leaks[3].suppressed_by.empty());
  REQUIRE(r.suppressions.size() == 2);
  CHECK(r.suppressions[0].count == 2);
  CHECK(r.suppressions[0].bytes == 128);
  CHECK(r.summary.suppressed_count == 3);
}
