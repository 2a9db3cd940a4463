// A lock for critical sections of a few dozen instructions that never block
// (the registry's shards): taking it is one exchange,
// letting go one plain store, where pthread_mutex_unlock needs a second atomic
// read-modify-write and both are calls into libc (about 55 instructions per
// lock and unlock, measured with tests/bench/instructions.sh).
//
// A waiter spins briefly, then yields, then sleeps: a holder that lost its
// CPU (or runs at a lower real-time priority than the waiter) gets to finish.
// Satisfies Lockable, so std::lock_guard and the fork protocol's lock_all /
// unlock_all use it as they used std::mutex. Not recursive.
#pragma once
#include <sched.h>
#include <time.h>

#include <atomic>

namespace cudaleak {

class SpinLock {
 public:
  void lock() {
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    wait_and_lock();
  }
  bool try_lock() {
    return !locked_.load(std::memory_order_relaxed) && !locked_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  __attribute__((noinline)) void wait_and_lock() {
    for (unsigned tries = 0;;) {
      while (locked_.load(std::memory_order_relaxed)) back_off(tries++);
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
    }
  }
  static void back_off(unsigned tries) {
    if (tries < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    } else if (tries < 128) {
      sched_yield();
    } else {
      timespec nap{0, 50000};  // 50 us
      nanosleep(&nap, nullptr);
    }
  }

  std::atomic<bool> locked_{false};
};

}  // namespace cudaleak
