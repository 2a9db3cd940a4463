#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <map>
#include <random>
#include <thread>
#include <vector>

#include "interpose/track/registry.h"

using namespace cudaleak;

static Record make(uint64_t handle, Kind kind, Space space, uint64_t bytes = 16, uint64_t context = 0) {
  Record r;
  r.handle = handle;
  r.kind = kind;
  r.space = space;
  r.bytes = bytes;
  r.context = context;
  return r;
}

TEST_CASE("a record is found in its own space only", "[registry]") {
  Registry reg;
  reg.insert(make(0x1000, Kind::VaReservation, Space::VaReservation));
  reg.insert(make(0x1000, Kind::Mapping, Space::Mapping));  // same address, another kind
  CHECK(reg.size() == 2);
  Record removed;
  CHECK(reg.erase(Space::Mapping, 0x1000, &removed));
  CHECK(removed.kind == Kind::Mapping);
  CHECK_FALSE(reg.erase(Space::Mapping, 0x1000));
  CHECK(reg.erase(Space::VaReservation, 0x1000));
  CHECK(reg.size() == 0);
}

TEST_CASE("vmm references: released only when the last reference goes", "[registry]") {
  Registry reg;
  reg.insert(make(7, Kind::Vmm, Space::Vmm, 2 << 20));
  CHECK(reg.retain(Space::Vmm, 7));
  CHECK(reg.release_reference(Space::Vmm, 7));
  CHECK(reg.size() == 1);
  CHECK(reg.release_reference(Space::Vmm, 7));
  CHECK(reg.size() == 0);
  CHECK_FALSE(reg.release_reference(Space::Vmm, 7));
  CHECK_FALSE(reg.retain(Space::Vmm, 8));
}

TEST_CASE("take_if removes exactly the matching records", "[registry]") {
  Registry reg;
  for (uint64_t i = 1; i <= 100; ++i) reg.insert(make(i * 16, Kind::Device, Space::DevicePtr, 1, i % 2 ? 0xA : 0xB));
  auto taken = reg.take_if([](const Record& r) { return r.context == 0xA; });
  CHECK(taken.size() == 50);
  CHECK(reg.size() == 50);
  for (const Record& r : reg.snapshot()) CHECK(r.context == 0xB);
}

TEST_CASE("concurrent inserts and erases from many threads keep exact counts", "[registry]") {
  Registry reg;
  std::atomic<int> missed{0};  // Catch2's assertions are not thread-safe: count, check after the join
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < 5000; ++i) {
        uint64_t h = (uint64_t(t) << 32) | (i * 256);
        reg.insert(make(h, Kind::Device, Space::DevicePtr));
        if (i % 2 == 0 && !reg.erase(Space::DevicePtr, h)) ++missed;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(missed == 0);
  CHECK(reg.size() == 8 * 2500);
}

TEST_CASE("the record table agrees with a map through random inserts and erases", "[registry]") {
  // Keys crowd into few index slots (small range, aligned like device
  // pointers), so probe runs wrap and deletions shift entries back.
  RecordTable table;
  std::map<std::pair<uint64_t, Space>, uint64_t> oracle;
  std::mt19937_64 rng(12345);
  for (int step = 0; step < 200000; ++step) {
    uint64_t handle = (rng() % 3000) * 512;
    Space space = rng() % 4 ? Space::DevicePtr : Space::Stream;
    auto key = std::make_pair(handle, space);
    if (rng() % 3) {
      if (!oracle.count(key)) {
        table.insert(make(handle, Kind::Device, space, step));
        oracle[key] = uint64_t(step);
      }
    } else {
      Record removed;
      bool found = table.erase(handle, space, &removed);
      REQUIRE(found == (oracle.count(key) == 1));
      if (found) {
        REQUIRE(removed.bytes == oracle[key]);
        oracle.erase(key);
      }
    }
    if (step % 997 == 0) {
      REQUIRE(table.size() == oracle.size());
      for (const auto& [k, bytes] : oracle) {
        Record* r = table.find(k.first, k.second);
        REQUIRE(r);
        REQUIRE(r->bytes == bytes);
      }
      size_t visited = 0;
      table.for_each([&](const Record& r) {
        ++visited;
        REQUIRE(oracle.count({r.handle, r.space}) == 1);
      });
      REQUIRE(visited == oracle.size());
    }
  }
  table.clear();
  CHECK(table.size() == 0);
  CHECK(table.find(oracle.begin()->first.first, oracle.begin()->first.second) == nullptr);
}

TEST_CASE("a record replaced under the same handle keeps one entry", "[registry]") {
  Registry reg;
  reg.insert(make(0x2000, Kind::Device, Space::DevicePtr, 10));
  Record old;
  CHECK(reg.insert(make(0x2000, Kind::Device, Space::DevicePtr, 20), &old));
  CHECK(old.bytes == 10);
  CHECK(reg.size() == 1);
  Record removed;
  CHECK(reg.erase(Space::DevicePtr, 0x2000, &removed));
  CHECK(removed.bytes == 20);
  CHECK(reg.size() == 0);
}

TEST_CASE("the shard lock excludes: threads adding under it lose no update", "[registry][spin_lock]") {
  SpinLock lock;
  uint64_t counter = 0;  // plain memory: only the lock keeps the additions apart
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 100000; ++i) {
        std::lock_guard guard(lock);
        ++counter;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(counter == 400000);
}

TEST_CASE("the shard lock: waiters past spinning and yielding still get it when a slow holder lets go", "[registry][spin_lock]") {
  SpinLock lock;
  std::atomic<int> entered{0};
  lock.lock();
  std::vector<std::thread> waiters;
  for (int t = 0; t < 3; ++t)
    waiters.emplace_back([&] {
      std::lock_guard guard(lock);
      entered.fetch_add(1);
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));  // long enough for the waiters to be napping
  CHECK(entered.load() == 0);
  lock.unlock();
  for (auto& th : waiters) th.join();
  CHECK(entered.load() == 3);
}

TEST_CASE("the shard lock: try_lock fails while held and try_lock_briefly gives up on a holder that never lets go", "[registry][spin_lock]") {
  SpinLock lock;
  REQUIRE(lock.try_lock());
  CHECK_FALSE(lock.try_lock());
  CHECK_FALSE(Registry::try_lock_briefly(lock));
  lock.unlock();
  CHECK(Registry::try_lock_briefly(lock));
  lock.unlock();
}
