#include "interpose/base/own_threads.h"
#include "interpose/runtime/fork_protocol.h"

#include <pthread.h>

#include "interpose/runtime/runtime.h"
#include "interpose/runtime/signals.h"

namespace cudaleak::fork_protocol {

namespace {

void prepare() { runtime().lock_all(); }

void parent() { runtime().unlock_all(); }

void child() {
  Runtime& r = runtime();
  r.unlock_all();
  r.reset_in_child();
  signals::reset_in_child();
  forget_own_threads();
  lifecycle_after_fork_in_child();
}

}  // namespace

void install() { pthread_atfork(prepare, parent, child); }

}  // namespace cudaleak::fork_protocol
