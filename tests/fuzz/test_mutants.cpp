// The parsers against deterministic mutants of the fuzz corpus, in every
// build (the libFuzzer targets need clang; this needs nothing). Mutants mix
// byte damage with JSON-aware replacements of numbers and strings by values
// of the wrong type or range, the inputs that crashed the reader before.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>

#include "tests/fuzz/exercise.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Token spans of JSON numbers and strings, found once per seed.
std::vector<std::pair<size_t, size_t>> tokens(const std::string& text) {
  std::vector<std::pair<size_t, size_t>> spans;
  static const std::regex token(R"("(?:[^"\\]|\\.)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token); it != std::sregex_iterator(); ++it)
    spans.emplace_back(size_t(it->position()), size_t(it->length()));
  return spans;
}

const char* const kReplacements[] = {
    "-1",
    "1e999",
    "18446744073709551616",
    "4294967296",
    "2147483648",
    "-2147483649",
    "0.5",
    "0",
    "\"zz\"",
    "\"0xzz\"",
    "\"0x11112222333344445\"",
    "\"\"",
    "\"devic\"",
    "null",
    "[]",
    "{}",
    "[[]]",
    "true",
    "\"\\u0000\"",
    "[1]",
    "{\"a\":1}",
    "\"0x\"",
};

std::string mutate(const std::string& seed, const std::vector<std::pair<size_t, size_t>>& spans, std::mt19937_64& rng) {
  std::string s = seed;
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  int edits = 1 + int(rng() % 3);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    switch (rng() % 6) {
      case 0:
      case 1:
      case 2:
        if (!spans.empty() && s.size() == seed.size()) {  // token offsets hold only on the unchanged text
          auto [at, len] = spans[pick(spans.size())];
          s.replace(at, len, kReplacements[pick(std::size(kReplacements))]);
          break;
        }
        [[fallthrough]];
      case 3: s[pick(s.size())] = char(rng()); break;
      case 4: s.erase(pick(s.size()), 1 + pick(64)); break;
      case 5: s.resize(pick(s.size())); break;
    }
  }
  return s;
}

void survive_mutants(const std::string& target, int mutants_per_seed) {
  auto exercise = cudaleak::fuzz::exercise_for(target);
  REQUIRE(exercise);
  fs::path dir = fs::path(CUDALEAK_FUZZ_CORPUS) / target;
  std::vector<fs::path> seeds;
  for (const auto& e : fs::directory_iterator(dir)) seeds.push_back(e.path());
  std::sort(seeds.begin(), seeds.end());
  REQUIRE(!seeds.empty());
  std::mt19937_64 rng(20261122);
  int failures = 0;
  for (const auto& seed_path : seeds) {
    std::string seed = read(seed_path);
    exercise(seed);  // the seed itself must pass untouched
    auto spans = tokens(seed);
    for (int i = 0; i < mutants_per_seed; ++i) {
      std::string m = mutate(seed, spans, rng);
      try {
        exercise(m);
      } catch (const std::exception& e) {
        std::string saved = "mutant-" + target + "-" + std::to_string(failures) + ".txt";
        std::ofstream(saved, std::ios::binary) << m;
        FAIL_CHECK(seed_path.filename().string() << " mutant " << i << " (saved as " << saved << "): " << e.what());
        if (++failures == 5) return;
      }
    }
  }
}

}  // namespace

TEST_CASE("fuzz mutants: the report reader and every view survive 2000 mutants", "[fuzz]") {
  survive_mutants("report", 500);
}
TEST_CASE("fuzz mutants: the crash capture reader survives 1000 mutants", "[fuzz]") {
  survive_mutants("crash_capture", 1000);
}
TEST_CASE("fuzz mutants: the suppression parser survives 1000 mutants", "[fuzz]") {
  survive_mutants("suppressions", 1000);
}
TEST_CASE("fuzz mutants: the baseline parser survives 1000 mutants", "[fuzz]") { survive_mutants("baseline", 1000); }
TEST_CASE("fuzz mutants: the option parser survives 1000 mutants", "[fuzz]") { survive_mutants("options", 500); }
TEST_CASE("fuzz mutants: the device line table reader survives 1000 mutants", "[fuzz]") {
  survive_mutants("device_lines", 1000);
}
TEST_CASE("fuzz mutants: the LZ4 block decoder survives 2000 mutants", "[fuzz]") { survive_mutants("lz4", 1000); }
