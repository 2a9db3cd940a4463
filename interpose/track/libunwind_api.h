// The parts of libunwind that capture uses, loaded privately on first use
// (open_private_library): the preload library links nothing but
// glibc. Without libunwind, `backtrace` is glibc's and the rest are null.
#pragma once

#define UNW_LOCAL_ONLY
#include <libunwind.h>

namespace cudaleak {

struct LibUnwind {
  int (*backtrace)(void**, int) = nullptr;
  int (*getcontext)(unw_context_t*) = nullptr;
  int (*init_local)(unw_cursor_t*, unw_context_t*) = nullptr;
  int (*step)(unw_cursor_t*) = nullptr;
  int (*get_reg)(unw_cursor_t*, unw_regnum_t, unw_word_t*) = nullptr;
  int (*is_signal_frame)(unw_cursor_t*) = nullptr;
  bool can_walk() const { return getcontext && init_local && step && get_reg && is_signal_frame; }
};

const LibUnwind& libunwind();

}  // namespace cudaleak
