#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "interpose/track/stack_depot.h"

using cudaleak::StackDepot;

TEST_CASE("equal stacks intern to one id, different ones to different ids", "[stack_depot]") {
  StackDepot depot;
  uint64_t a[] = {0x1000, 0x2000, 0x3000};
  uint64_t b[] = {0x1000, 0x2000, 0x3001};
  uint64_t prefix[] = {0x1000, 0x2000};
  uint32_t ia = depot.intern(a, 3);
  CHECK(depot.intern(a, 3) == ia);
  CHECK(depot.intern(b, 3) != ia);
  CHECK(depot.intern(prefix, 2) != ia);
  CHECK(depot.size() == 3);
  auto back = depot.get(ia);
  REQUIRE(back.size() == 3);
  CHECK(back[2] == 0x3000);
}

TEST_CASE("the empty stack is id 0 and unknown ids give nothing", "[stack_depot]") {
  StackDepot depot;
  CHECK(depot.intern(nullptr, 0) == 0);
  CHECK(depot.get(0).empty());
  CHECK(depot.get(42).empty());
}

TEST_CASE("interning from many threads gives each distinct stack exactly one id", "[stack_depot]") {
  StackDepot depot;
  std::vector<std::thread> threads;
  std::vector<std::vector<uint32_t>> ids(8, std::vector<uint32_t>(100));
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 100; ++i) {
        uint64_t ips[] = {0x400000 + i, 0x500000, 0x600000 + (i % 7)};
        ids[t][i] = depot.intern(ips, 3);
      }
    });
  for (auto& th : threads) th.join();
  CHECK(depot.size() == 100);
  for (int t = 1; t < 8; ++t) CHECK(ids[t] == ids[0]);
}
