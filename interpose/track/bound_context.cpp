#include "interpose/track/bound_context.h"
#include "interpose/base/hot_path.h"

#include <atomic>
#include <cstddef>

namespace cudaleak::tracker::bound {

namespace {

// Programs push a context or two; a stack deeper than this makes the thread's
// context unknown (the tracker then asks the driver), never wrong.
constexpr int kStackDepth = 16;

// The depth first: it and the first entries share a cache line, read by
// every tracked call.
struct ThreadStack {
  int depth;        // entries in use
  bool overflowed;  // the stack ran deeper than kStackDepth at some point
  uint64_t contexts[kStackDepth];
};
__attribute__((tls_model("initial-exec"))) thread_local ThreadStack t_stack{};

// Context -> device + 1 (0: not known), open addressing, never shrinks. A
// context created at an address that held an earlier one overwrites its
// entry. More contexts than slots over a process's life make the newest ones'
// devices unknown (asked of the driver), never wrong.
constexpr size_t kSlots = 1024;
struct Slot {
  std::atomic<uint64_t> context{0};
  std::atomic<int> device_plus_one{0};
};
Slot g_devices[kSlots];

size_t slot_of(uint64_t context) { return size_t((context >> 4) * 0x9E3779B97F4A7C15ull >> 54) % kSlots; }

}  // namespace

CUDALEAK_HOT_PATH void set_current(uint64_t context) {
  ThreadStack& s = t_stack;
  if (!context) {
    pop();
  } else if (s.depth == 0) {
    s.contexts[s.depth++] = context;
  } else {
    s.contexts[s.depth - 1] = context;
  }
}

void push(uint64_t context) {
  ThreadStack& s = t_stack;
  if (s.depth == kStackDepth) {
    // Keep the newest entries: the current context stays known until the
    // program pops below what is kept.
    for (int i = 1; i < kStackDepth; ++i) s.contexts[i - 1] = s.contexts[i];
    s.overflowed = true;
    --s.depth;
  }
  s.contexts[s.depth++] = context;
}

void pop() {
  ThreadStack& s = t_stack;
  if (s.depth > 0) --s.depth;
}

void destroyed(uint64_t context) {
  ThreadStack& s = t_stack;
  if (s.depth > 0 && s.contexts[s.depth - 1] == context) --s.depth;
}

CUDALEAK_HOT_PATH Current current() {
  const ThreadStack& s = t_stack;
  if (s.depth > 0) return {true, s.contexts[s.depth - 1]};
  return {!s.overflowed, 0};
}

CUDALEAK_HOT_PATH int device_of(uint64_t context) {
  if (!context) return -1;
  for (size_t i = 0, at = slot_of(context); i < kSlots; ++i, at = (at + 1) % kSlots) {
    uint64_t key = g_devices[at].context.load(std::memory_order_acquire);
    if (key == context) return g_devices[at].device_plus_one.load(std::memory_order_acquire) - 1;
    if (key == 0) return -1;
  }
  return -1;
}

void learn_device(uint64_t context, int device) {
  if (!context || device < 0) return;
  for (size_t i = 0, at = slot_of(context); i < kSlots; ++i, at = (at + 1) % kSlots) {
    uint64_t key = g_devices[at].context.load(std::memory_order_acquire);
    if (key == 0) {
      uint64_t empty = 0;
      if (g_devices[at].context.compare_exchange_strong(empty, context, std::memory_order_acq_rel)) key = context;
      else key = empty;  // another thread took the slot: look at what it holds
    }
    if (key == context) {
      g_devices[at].device_plus_one.store(device + 1, std::memory_order_release);
      return;
    }
  }
}

}  // namespace cudaleak::tracker::bound
