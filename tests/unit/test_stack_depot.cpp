#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <mutex>
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

namespace {
// A stack of its own per number: frames that no other number shares.
std::vector<uint64_t> frames_of(uint64_t n) { return {0x1000 + n, 0x2000 + n * 3, 0x3000}; }
uint32_t intern_n(StackDepot& depot, uint64_t n) {
  auto f = frames_of(n);
  return depot.intern(f.data(), f.size());
}
// One collection holding `held`; false when none was due.
bool collect(StackDepot& depot, const std::vector<uint32_t>& held, StackDepot::Collected* out = nullptr) {
  if (!depot.begin_collection()) return false;
  auto c = depot.finish_collection(held);
  if (out) *out = c;
  return true;
}
}  // namespace

TEST_CASE("a collection forgets what nothing held at it or the one before and was not handed out since",
          "[stack_depot]") {
  StackDepot depot;
  depot.set_floor(4);
  std::vector<uint32_t> first;
  for (uint64_t n = 0; n < 4; ++n) first.push_back(intern_n(depot, n));
  REQUIRE(depot.collection_due());
  StackDepot::Collected c;
  // Handed out in the epoch it ends: all kept.
  REQUIRE(collect(depot, {first[0]}, &c));
  CHECK(c.forgotten == 0);
  CHECK(c.kept == 4);
  CHECK_FALSE(depot.collection_due());
  std::vector<uint32_t> second;
  for (uint64_t n = 10; n < 14; ++n) second.push_back(intern_n(depot, n));
  REQUIRE(collect(depot, {first[0]}, &c));
  CHECK(c.forgotten == 3);  // first[1..3]: held by nothing at either collection
  CHECK(depot.get(first[0]) == frames_of(0));
  CHECK(depot.get(first[1]).empty());
  for (size_t i = 0; i < second.size(); ++i) CHECK(depot.get(second[i]) == frames_of(10 + i));
  // A forgotten stack interned again gets a new id: ids are never reused.
  uint32_t again = intern_n(depot, 1);
  CHECK(again != first[1]);
  CHECK(again > second.back());
  CHECK(depot.get(again) == frames_of(1));
}

TEST_CASE("a stack interned before a collection and stored after it survives that collection", "[stack_depot]") {
  // The race of stack_depot.h: a thread interned a stack, and a collection
  // ran before its record reached any holder.
  StackDepot depot;
  depot.set_floor(2);
  uint32_t old_stack = intern_n(depot, 1);
  intern_n(depot, 2);
  REQUIRE(collect(depot, {old_stack}));
  for (uint64_t n = 3; n < 6; ++n) intern_n(depot, n);
  uint32_t in_flight = intern_n(depot, 1);  // the same stack, looked up again (t_recent or the depot)
  CHECK(in_flight == old_stack);
  REQUIRE(collect(depot, {}));  // its record not inserted yet: nothing holds it
  CHECK(depot.get(in_flight) == frames_of(1));
  for (uint64_t n = 6; n < 12; ++n) intern_n(depot, n);
  REQUIRE(collect(depot, {in_flight}));  // now its record holds it
  CHECK(depot.get(in_flight) == frames_of(1));
}

TEST_CASE("the per-thread cache never hands out a forgotten id", "[stack_depot]") {
  StackDepot depot;
  depot.set_floor(2);
  uint32_t cached = intern_n(depot, 7);
  CHECK(intern_n(depot, 7) == cached);  // from t_recent
  intern_n(depot, 8);
  const uint32_t epoch = depot.epoch();
  REQUIRE(collect(depot, {}));
  CHECK(depot.epoch() != epoch);
  for (uint64_t n = 20; n < 24; ++n) intern_n(depot, n);
  REQUIRE(collect(depot, {}));
  REQUIRE(depot.get(cached).empty());  // forgotten
  uint32_t now = intern_n(depot, 7);   // t_recent still names the old entry: the epoch refuses it
  CHECK(now != cached);
  CHECK(depot.get(now) == frames_of(7));
}

TEST_CASE("while a report holds the depot nothing is forgotten", "[stack_depot]") {
  StackDepot depot;
  depot.set_floor(2);
  uint32_t a = intern_n(depot, 1);
  intern_n(depot, 2);
  REQUIRE(collect(depot, {}));
  for (uint64_t n = 3; n < 6; ++n) intern_n(depot, n);
  {
    StackDepot::Hold hold(depot);
    CHECK_FALSE(depot.begin_collection());
  }
  // A hold taken while a collection gathers: it forgets nothing.
  REQUIRE(depot.begin_collection());
  {
    StackDepot::Hold hold(depot);
    auto c = depot.finish_collection({});
    CHECK(c.forgotten == 0);
    CHECK(depot.get_held(a).size() == 3);
  }
  StackDepot::Collected c;
  REQUIRE(collect(depot, {}, &c));
  CHECK(c.forgotten > 0);
  CHECK(depot.get(a).empty());
}

TEST_CASE("the depot stays bounded when every stack is new and none is held", "[stack_depot]") {
  StackDepot depot;
  depot.set_floor(64);
  size_t most = 0;
  for (uint64_t n = 0; n < 20000; ++n) {
    intern_n(depot, n);
    if (depot.collection_due()) collect(depot, {});
    most = std::max(most, depot.size());
  }
  CHECK(most <= 2 * 64 + 1);
  CHECK(depot.collections() > 100);
}

TEST_CASE("threads interning while collections run never see another stack's frames", "[stack_depot]") {
  // Each thread stores what it interned in its own holder; the collector
  // gathers every holder. A stored id names its own frames, or (only where a
  // thread sat between intern and store across a whole collection: the grace
  // period) none; never another's.
  StackDepot depot;
  depot.set_floor(256);
  constexpr int kThreads = 4;
  struct Holder {
    std::mutex mutex;
    std::vector<std::pair<uint32_t, uint64_t>> held;  // id, number
  };
  Holder holders[kThreads];
  std::atomic<bool> done{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 20000; ++i) {
        // Half the stacks repeat (t_recent hits), half are new.
        uint64_t n = i % 2 ? (uint64_t(t) << 40) + i : i % 64;
        uint32_t id = intern_n(depot, n);
        std::lock_guard lock(holders[t].mutex);
        holders[t].held.emplace_back(id, n);
        if (holders[t].held.size() > 32) holders[t].held.erase(holders[t].held.begin());
        for (const auto& [h, m] : holders[t].held) {
          auto f = depot.get(h);
          if (!f.empty() && f != frames_of(m)) ++wrong;
        }
      }
    });
  std::thread collector([&] {
    while (!done.load()) {
      if (!depot.begin_collection()) {
        std::this_thread::yield();
        continue;
      }
      std::vector<uint32_t> held;
      for (auto& h : holders) {
        std::lock_guard lock(h.mutex);
        for (const auto& [id, n] : h.held) held.push_back(id);
      }
      depot.finish_collection(held);
    }
  });
  for (auto& th : threads) th.join();
  done = true;
  collector.join();
  CHECK(wrong.load() == 0);
  CHECK(depot.collections() > 0);
  CHECK(depot.size() < 4 * 20000 / 2);
}
