// The learned current context follows the driver's per-thread stack.
#include <catch2/catch.hpp>

#include <thread>

#include "interpose/track/bound_context.h"

using namespace cudaleak::tracker;

namespace {

// Each test runs on a fresh thread: the model is per thread and starts empty.
template <typename F>
void on_new_thread(F&& body) {
  std::thread t(body);
  t.join();
}

}  // namespace

TEST_CASE("bound context: set replaces the top push and pop nest and destroy pops only the current", "[bound]") {
  on_new_thread([] {
    CHECK(bound::current().known);
    CHECK(bound::current().context == 0);
    bound::set_current(0x100);  // onto an empty stack: pushes
    CHECK(bound::current().context == 0x100);
    bound::push(0x200);
    CHECK(bound::current().context == 0x200);
    bound::set_current(0x300);  // replaces 0x200
    bound::pop();
    CHECK(bound::current().context == 0x100);
    bound::destroyed(0x999);  // not current: nothing changes
    CHECK(bound::current().context == 0x100);
    bound::destroyed(0x100);
    CHECK(bound::current().context == 0);
    CHECK(bound::current().known);
    bound::push(0x400);
    bound::set_current(0);  // null pops
    CHECK(bound::current().context == 0);
    bound::pop();  // popping an empty stack stays empty
    CHECK(bound::current().known);
  });
}

TEST_CASE("bound context: a stack deeper than the model keeps becomes unknown once popped below it", "[bound]") {
  on_new_thread([] {
    for (uint64_t i = 1; i <= 20; ++i) bound::push(i << 8);
    CHECK(bound::current().context == (20u << 8));
    for (int i = 0; i < 15; ++i) bound::pop();
    CHECK(bound::current().context == (5u << 8));  // still kept
    bound::pop();
    CHECK_FALSE(bound::current().known);  // 4 more are below, not kept
    bound::set_current(0x500);            // set names the top: known again
    CHECK(bound::current().known);
    CHECK(bound::current().context == 0x500);
  });
  on_new_thread([] { CHECK(bound::current().known); });  // other threads unaffected
}

TEST_CASE("bound context: the device of a context is learned once and overwritten when its address is reused",
          "[bound]") {
  CHECK(bound::device_of(0xabc000) == -1);
  bound::learn_device(0xabc000, 1);
  CHECK(bound::device_of(0xabc000) == 1);
  bound::learn_device(0xabc000, 0);  // a new context at a destroyed one's address
  CHECK(bound::device_of(0xabc000) == 0);
  // Many contexts that hash near each other all stay findable.
  for (uint64_t i = 0; i < 300; ++i) bound::learn_device(0x7f0000000000ull + (i << 12), int(i % 4));
  for (uint64_t i = 0; i < 300; ++i) CHECK(bound::device_of(0x7f0000000000ull + (i << 12)) == int(i % 4));
  CHECK(bound::device_of(0) == -1);
}

TEST_CASE("bound context: threads learning devices at once lose none", "[bound]") {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (uint64_t i = 0; i < 100; ++i) bound::learn_device(0x5500000000ull + ((i * 4 + t) << 12), t);
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t)
    for (uint64_t i = 0; i < 100; ++i) CHECK(bound::device_of(0x5500000000ull + ((i * 4 + t) << 12)) == t);
}
