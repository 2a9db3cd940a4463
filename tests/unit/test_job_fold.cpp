// A job of many ranks folded (report/analyze/job_fold.h): lists of ranks and
// hosts that stay short, spreads, and the ranks unlike the others.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/analyze/job_fold.h"

using namespace cudaleak::report;

namespace {

std::vector<int> every(int first, int last, int step, std::vector<int> but = {}) {
  std::vector<int> out;
  for (int r = first; r <= last; r += step)
    if (std::find(but.begin(), but.end(), r) == but.end()) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("job fold: rank lists are ranges, steps, or their ends, never every name", "[ranks][job]") {
  CHECK(rank_list({0, 1, 2, 3, 5, 6, 7}) == "0-3,5-7");
  CHECK(rank_list({4}) == "4");
  CHECK(rank_list(every(1, 511, 2)) == "1-511 odd");
  CHECK(rank_list(every(0, 1022, 2)) == "0-1022 even");
  CHECK(rank_list(every(3, 1023, 4)) == "3-1023 every 4th");
  CHECK(rank_list(every(0, 99, 3)) == "0-99 every 3rd");
  CHECK(rank_list(every(1, 1023, 2, {9, 11, 13, 15})) == "1-1023 odd but 9,11,13,15");
  // No pattern: the first and last runs.
  std::vector<int> scattered = {0, 1, 2, 7, 19, 20, 40, 41, 42, 43, 77, 100, 300, 301, 302, 1000};
  CHECK(rank_list(scattered) == "0-2,7,19,20,...,300-302,1000");
  CHECK(rank_list(every(0, 1023, 1, {4})) == "0-3,5-1023");
}

TEST_CASE("job fold: host lists in SLURM's notation, cut past a line", "[ranks][job]") {
  CHECK(host_list({"b", "a"}) == "a, b");
  std::vector<std::string> nodes;
  for (int i = 0; i < 128; ++i)
    nodes.push_back("node" + std::string(i < 10 ? "00" : i < 100 ? "0" : "") + std::to_string(i));
  CHECK(host_list(nodes) == "node[000-127]");
  nodes.erase(nodes.begin() + 1);
  CHECK(host_list(nodes) == "node[000,002-127]");
  std::vector<std::string> many;
  for (int i = 0; i < 200; i += 2) many.push_back("gpu" + std::to_string(1000 + i));
  const std::string cut = host_list(many);
  CHECK(cut.size() < 110);
  CHECK(cut.ends_with(",...]"));
  CHECK(host_list({"login", "node01", "node02", "node03", "x"}) == "login, x, node[01-03]");
}

TEST_CASE("job fold: a spread's median and ends", "[ranks][job]") {
  const Spread s = spread_of({5, 1, 9, 3, 7});
  CHECK(s.min == 1);
  CHECK(s.median == 5);
  CHECK(s.max == 9);
  CHECK(s.n == 5);
  CHECK(spread_of({}).n == 0);
}

TEST_CASE("job fold: the other ranks at a moment as amounts, the far one standing out", "[ranks][job]") {
  std::vector<RankMoment> others;
  for (int r = 1; r < 64; ++r)
    others.push_back(RankMoment{r, 100 + r, r % 8, uint64_t(320) << 20, true, r % 2 == 1, 0});
  others[3].bytes = uint64_t(5) << 30;  // rank 4
  const OthersSummary s = summarize_others(others);
  REQUIRE(s.buckets.size() == 3);
  CHECK(s.buckets[0].ranks.size() == 32);  // the odd ranks, which failed too
  CHECK(s.buckets[0].failed);
  CHECK(s.buckets[1].ranks.size() == 30);
  CHECK(s.buckets[2].ranks == std::vector<int>{4});
  REQUIRE(s.standing_out.size() == 1);
  CHECK(s.standing_out[0].rank == 4);
  CHECK(s.held.median == uint64_t(320) << 20);
  // Half the ranks high is how the job stands, not one odd rank.
  for (int r = 1; r < 32; ++r) others[r].bytes = uint64_t(5) << 30;
  CHECK(summarize_others(others).standing_out.empty());
}
