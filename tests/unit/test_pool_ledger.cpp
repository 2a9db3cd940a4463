// The tracker's count of what each memory pool keeps (pool_ledger.h).
#include <catch2/catch.hpp>

#include "interpose/track/pool_ledger.h"

using cudaleak::tracker::PoolLedger;

namespace {
cudaleak::report::RawPool only(const PoolLedger& l) {
  auto pools = l.snapshot();
  REQUIRE(pools.size() == 1);
  return pools[0];
}
}  // namespace

TEST_CASE("pool ledger: used bytes, their high-water mark, and a trim that lowers it", "[pools]") {
  PoolLedger l;
  uint8_t slot = l.add(0x1000);
  REQUIRE(slot == 1);
  CHECK(l.find(0x1000) == slot);
  CHECK(l.find(0x2000) == 0);
  l.allocated(slot, 48);
  l.allocated(slot, 16);
  l.freed(slot, 48);
  CHECK(only(l).used == 16);
  CHECK(only(l).high == 64);
  l.trimmed(0x1000, 32);  // keeps 32 of the 64 it may hold
  CHECK(only(l).high == 32);
  l.trimmed(0x1000, 0);  // never below what is in use
  CHECK(only(l).high == 16);
  l.threshold_set(0x1000, UINT64_MAX, 7, "cuMemPoolSetAttribute");
  CHECK(only(l).threshold_set);
  CHECK(only(l).threshold == UINT64_MAX);
  CHECK(only(l).threshold_stack == 7);
}

TEST_CASE("pool ledger: a destroyed pool's slot is taken again only once its memory is freed", "[pools]") {
  PoolLedger l;
  uint8_t first = l.add(0x1000);
  l.allocated(first, 8);
  l.remove(0x1000);  // cuMemPoolDestroy may leave allocations outstanding
  CHECK(l.snapshot().empty());
  uint8_t second = l.add(0x2000);
  CHECK(second != first);
  l.freed(first, 8);
  l.remove(0x2000);
  CHECK(l.add(0x3000) == first);  // the lowest free slot
  for (int i = 0; i < PoolLedger::kSlots; ++i) l.add(0x10000 + uint64_t(i));
  CHECK(l.add(0x99999) == 0);  // full: pools beyond the table are not counted
}
