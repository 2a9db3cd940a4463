// Where a thread entered cudaleak: the frame of its outermost entry that may
// write a report (the exit destructor, _exit, a checkpoint or gate call of
// the program). The frames below it are cudaleak's own, whose locals hold
// the tracker's state; the reachability scan of this thread's stack starts
// above it (runtime/reachability.h).
#pragma once
#include <cstdint>

namespace cudaleak {

namespace detail {
inline __attribute__((tls_model("initial-exec"))) thread_local uintptr_t t_entry_frame = 0;
}  // namespace detail

// Marks the frame of the function it is declared in while it runs (the outermost one wins).
class EntryFrame {
 public:
  explicit EntryFrame(uintptr_t frame) : owner_(detail::t_entry_frame == 0) {
    if (owner_) detail::t_entry_frame = frame;
  }
  ~EntryFrame() {
    if (owner_) detail::t_entry_frame = 0;
  }
  EntryFrame(const EntryFrame&) = delete;
  EntryFrame& operator=(const EntryFrame&) = delete;

 private:
  bool owner_;
};

// The marked entry, or `fallback` (the caller's own frame) where none is.
inline uintptr_t entry_frame(uintptr_t fallback) { return detail::t_entry_frame ? detail::t_entry_frame : fallback; }

}  // namespace cudaleak

#define CUDALEAK_ENTRY_FRAME ::cudaleak::EntryFrame cudaleak_entry_frame_(uintptr_t(__builtin_frame_address(0)))
