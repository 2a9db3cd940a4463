#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
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

TEST_CASE("the shard lock: waiters past spinning and yielding still get it when a slow holder lets go",
          "[registry][spin_lock]") {
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

TEST_CASE("the shard lock: try_lock fails while held and try_lock_briefly gives up on a holder that never lets go",
          "[registry][spin_lock]") {
  SpinLock lock;
  REQUIRE(lock.try_lock());
  CHECK_FALSE(lock.try_lock());
  CHECK_FALSE(Registry::try_lock_briefly(lock));
  lock.unlock();
  CHECK(Registry::try_lock_briefly(lock));
  lock.unlock();
}

// Steps that two threads take in turn.
class Stages {
 public:
  void reach(int n) {
    {
      std::lock_guard lock(m_);
      stage_ = n;
    }
    cv_.notify_all();
  }
  void await(int n) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return stage_ == n; });
  }
  int now() {
    std::lock_guard lock(m_);
    return stage_;
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int stage_ = 0;
};

// Events and streams wait in the creating thread's window (registry.h): what
// follows holds wherever a record waits.
static Record event(uint64_t handle, uint64_t sequence) {
  Record r = make(handle, Kind::Event, Space::Event, 0);
  r.sequence = sequence;
  return r;
}

TEST_CASE(
    "windowed records: events, streams and stream-ordered memory wait in their thread's window, the rest goes to the "
    "shards",
    "[registry][window]") {
  Registry reg;
  reg.insert(event(0xE0, 1));
  reg.insert(make(0x5, Kind::Stream, Space::Stream, 0));
  reg.insert(make(0xA0, Kind::Async, Space::DevicePtr));
  reg.insert(make(0xD0, Kind::Device, Space::DevicePtr));
  reg.insert(make(0x40, Kind::Pinned, Space::HostPtr));
  reg.insert(make(0x70, Kind::Vmm, Space::Vmm));
  CHECK(reg.waiting_in_windows() == 3);
  CHECK(reg.erase(Space::Event, 0xE0));
  CHECK(reg.erase(Space::DevicePtr, 0xD0));  // not in the window: from its shard
  CHECK(reg.waiting_in_windows() == 2);
  CHECK(reg.size() == 4);  // which moves the stream and the memory into their shards
  CHECK(reg.waiting_in_windows() == 0);
  CHECK(reg.erase(Space::Stream, 0x5));
  CHECK(reg.erase(Space::DevicePtr, 0xA0));
}

TEST_CASE("windowed records: a record waiting in another thread's window is updated in place", "[registry][window]") {
  Registry reg;
  Stages stages;
  std::thread maker([&] {
    Record r = make(0xD0, Kind::Async, Space::DevicePtr, 4096);
    r.device = 0;
    reg.insert(r);
    stages.reach(1);
    stages.await(2);
    Record removed;  // back on its own thread, from its own window
    if (reg.erase(Space::DevicePtr, 0xD0, &removed) && removed.device == 1) stages.reach(3);
  });
  stages.await(1);
  CHECK(reg.waiting_in_windows() == 1);
  CHECK(reg.update(Space::DevicePtr, 0xD0, [](Record& r) { r.device = 1; }));
  CHECK_FALSE(reg.update(Space::DevicePtr, 0xD8, [](Record&) {}));
  CHECK(reg.waiting_in_windows() == 1);  // updated where it waits
  stages.reach(2);
  maker.join();
  CHECK(stages.now() == 3);
  CHECK(reg.size() == 0);
}

namespace {
std::vector<Record> g_lost;
void note_lost(const Record& r) { g_lost.push_back(r); }
}  // namespace

TEST_CASE("windowed records: the observer hears of memory found released unseen when a window spills",
          "[registry][window]") {
  g_lost.clear();
  Registry reg;
  reg.set_replaced_observer(&note_lost);
  Record older = make(0xAA00, Kind::Async, Space::DevicePtr, 100);
  older.sequence = 1;
  std::thread([&] { reg.insert(older); }).join();  // in a shard now
  Record newer = make(0xAA00, Kind::Async, Space::DevicePtr, 200);
  newer.sequence = 2;
  std::thread([&] { reg.insert(newer); }).join();  // its spill replaces the older
  REQUIRE(g_lost.size() == 1);
  CHECK(g_lost[0].bytes == 100);
  REQUIRE(reg.size() == 1);
  CHECK(reg.snapshot()[0].bytes == 200);
  // The older one spilling last is the one lost.
  g_lost.clear();
  Registry reg2;
  reg2.set_replaced_observer(&note_lost);
  std::thread([&] { reg2.insert(newer); }).join();
  std::thread([&] { reg2.insert(older); }).join();
  REQUIRE(g_lost.size() == 1);
  CHECK(g_lost[0].bytes == 100);
  CHECK(reg2.snapshot()[0].bytes == 200);
}

TEST_CASE("windowed records: more than a window's worth made and released on one thread are all found",
          "[registry][window]") {
  Registry reg;
  for (uint64_t i = 1; i <= 50; ++i) reg.insert(event(i * 64, i));
  CHECK(reg.waiting_in_windows() == 8);  // the newest, oldest spilled first
  for (uint64_t i = 50; i >= 1; --i) {   // the newest from the window, the rest from their shards
    Record removed;
    REQUIRE(reg.erase(Space::Event, i * 64, &removed));
    CHECK(removed.sequence == i);
    if (i == 43) CHECK(reg.waiting_in_windows() == 0);
  }
  CHECK(reg.size() == 0);
  CHECK_FALSE(reg.erase(Space::Event, 64));  // released twice: unknown
}

TEST_CASE("windowed records: one made on a thread that has ended is still live, and released elsewhere",
          "[registry][window]") {
  Registry reg;
  std::thread([&] { reg.insert(event(0xE1, 1)); }).join();  // the thread's end spills its window
  std::thread([&] {
    reg.insert(event(0xE2, 2));
    reg.insert(make(0xD1, Kind::Device, Space::DevicePtr));  // cudaMalloc's memory never waits
  }).join();
  CHECK(reg.size() == 3);
  Record removed;
  CHECK(reg.erase(Space::Event, 0xE1, &removed));
  CHECK(removed.sequence == 1);
  CHECK(reg.erase(Space::Event, 0xE2));
  CHECK(reg.erase(Space::DevicePtr, 0xD1));
  CHECK(reg.size() == 0);
}

TEST_CASE(
    "windowed records: a record waiting in a live thread's window is released by another thread, seen by snapshots and "
    "the crash path",
    "[registry][window]") {
  Registry reg;
  Stages stages;
  std::thread maker([&] {
    reg.insert(event(0xA0, 1));
    reg.insert(event(0xA1, 2));
    Record stream = make(0x5A, Kind::Stream, Space::Stream, 0);
    stream.sequence = 3;
    reg.insert(stream);
    stages.reach(1);
    stages.await(2);  // alive, its window unspilled, while the checks run
  });
  stages.await(1);
  size_t visited = 0;
  CHECK(reg.visit_if_free([&](const Record&) { ++visited; }) == 0);
  CHECK(visited == 3);
  Record removed;
  CHECK(reg.erase(Space::Event, 0xA0, &removed));  // from the other thread's window
  CHECK(removed.sequence == 1);
  CHECK_FALSE(reg.erase(Space::Event, 0xA0));
  auto all = reg.snapshot();
  CHECK(all.size() == 2);
  auto streams = reg.take_if([](const Record& r) { return r.kind == Kind::Stream; });
  CHECK(streams.size() == 1);
  stages.reach(2);
  maker.join();
  CHECK(reg.size() == 1);
  CHECK(reg.erase(Space::Event, 0xA1));
}

TEST_CASE("windowed records: where one handle has two records, the newer one is kept wherever each waits",
          "[registry][window]") {
  Registry reg;
  // Handed out twice (released by a path the registry never saw): by thread
  // A first, then by thread B. Both wait in their windows until the threads end.
  std::thread([&] { reg.insert(event(0xBB, 7)); }).join();
  std::thread([&] { reg.insert(event(0xBB, 9)); }).join();
  REQUIRE(reg.size() == 1);
  CHECK(reg.snapshot()[0].sequence == 9);
  // The older one reaching the shard last still loses to the newer.
  Registry reg2;
  std::thread([&] { reg2.insert(event(0xCC, 9)); }).join();
  std::thread([&] { reg2.insert(event(0xCC, 7)); }).join();
  REQUIRE(reg2.size() == 1);
  CHECK(reg2.snapshot()[0].sequence == 9);
  // In one thread's window, a second record of a handle replaces the first.
  Registry reg3;
  reg3.insert(event(0xDD, 1));
  Record old;
  CHECK(reg3.insert(event(0xDD, 2), &old));
  CHECK(old.sequence == 1);
  CHECK(reg3.size() == 1);
}

TEST_CASE("windowed records: a full window spills its oldest record", "[registry][window]") {
  Registry reg;
  for (uint64_t i = 1; i <= 8; ++i) reg.insert(event(i, i));
  CHECK(reg.erase(Space::Event, 8));  // a hole where the newest was
  reg.insert(event(9, 9));
  reg.insert(event(10, 10));  // full: 1, the oldest, spills
  CHECK(reg.waiting_in_windows() == 8);
  size_t from_shard = 0;
  std::thread([&] {  // another thread finds 1 in its shard
    Record removed;
    if (reg.erase(Space::Event, 1, &removed) && removed.sequence == 1) ++from_shard;
  })
      .join();
  CHECK(from_shard == 1);
  CHECK(reg.waiting_in_windows() == 8);  // 1 was not among them
}

TEST_CASE("windowed records: a release looking beyond its window takes the newest record of the handle",
          "[registry][window]") {
  g_lost.clear();
  Registry reg;
  reg.set_replaced_observer(&note_lost);
  Stages stages;
  // Two threads each hold a record of one handle, unspilled (the older one
  // released by a path the registry never saw).
  auto holder = [&](uint64_t sequence, int ready, int go) {
    return std::thread([&, sequence, ready, go] {
      Record r = make(0xF000, Kind::Async, Space::DevicePtr, sequence * 100);
      r.sequence = sequence;
      reg.insert(r);
      stages.reach(ready);
      stages.await(go);
    });
  };
  std::thread older = holder(3, 1, 3);  // both stay alive, their windows unspilled, until stage 3
  stages.await(1);
  std::thread newer = holder(8, 2, 3);
  stages.await(2);
  CHECK(reg.waiting_in_windows() == 2);
  Record removed;
  CHECK(reg.erase(Space::DevicePtr, 0xF000, &removed));
  CHECK(removed.sequence == 8);
  CHECK(g_lost.size() == 1);  // CHECK, not REQUIRE: the holders must be let go below
  CHECK((!g_lost.empty() && g_lost[0].sequence == 3));
  CHECK(reg.waiting_in_windows() == 0);
  stages.reach(3);
  older.join();
  newer.join();
  CHECK(reg.size() == 0);
}

TEST_CASE("windowed records: threads making events that other threads release keep exact counts",
          "[registry][window]") {
  Registry reg;
  constexpr int kMakers = 4, kPerMaker = 20000;
  std::atomic<int> unknown{0};
  std::vector<std::atomic<uint64_t>> handed(kMakers * kPerMaker);
  std::atomic<int> made{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kMakers; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerMaker; ++i) {
        const uint64_t h = (uint64_t(t + 1) << 40) | uint64_t(i + 1);
        reg.insert(event(h, h));
        if (i % 3 == 0) {
          if (!reg.erase(Space::Event, h)) ++unknown;  // its own, at once
        } else {
          handed[made.fetch_add(1)].store(h);  // for a releaser
        }
      }
    });
  std::atomic<bool> makers_done{false};
  std::atomic<int> released{0};
  std::vector<std::thread> releasers;
  for (int t = 0; t < 2; ++t)
    releasers.emplace_back([&, t] {
      // Every other handed handle, from the first, as soon as it is there.
      for (int next = t;;) {
        const int available = made.load();
        if (next >= available) {
          if (makers_done.load() && next >= made.load()) break;
          std::this_thread::yield();
          continue;
        }
        uint64_t h;
        while (!(h = handed[next].load())) std::this_thread::yield();
        if (h % 5 == 0) {
          next += 2;
          continue;  // left alive
        }
        if (!reg.erase(Space::Event, h)) ++unknown;
        ++released;
        next += 2;
      }
    });
  for (auto& th : threads) th.join();
  makers_done = true;
  for (auto& th : releasers) th.join();
  CHECK(unknown == 0);
  size_t alive = 0;
  for (int i = 0; i < made.load(); ++i) alive += handed[i].load() % 5 == 0;
  CHECK(reg.size() == alive);
  CHECK(size_t(released.load()) + alive == size_t(made.load()));
}

TEST_CASE("for_each sees every record including those waiting in threads' windows", "[registry]") {
  // The stack depot's collection reads stacks this way: a record missed
  // would lose its stack.
  Registry reg;
  Record shard_record = make(0x10, Kind::Device, Space::DevicePtr);
  shard_record.stack_id = 7;
  reg.insert(shard_record);
  Record windowed = make(0x20, Kind::Event, Space::Event);
  windowed.stack_id = 9;
  reg.insert(windowed);
  std::thread([&] {
    Record other = make(0x30, Kind::Event, Space::Event);
    other.stack_id = 11;
    reg.insert(other);
  }).join();
  std::vector<uint32_t> stacks;
  reg.for_each([&](const Record& r) { stacks.push_back(r.stack_id); });
  std::sort(stacks.begin(), stacks.end());
  CHECK(stacks == std::vector<uint32_t>{7, 9, 11});
}
