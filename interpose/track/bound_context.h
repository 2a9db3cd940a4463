// The calling thread's current context, known from the context calls cudaleak
// intercepts (set, push, pop, create, destroy) instead of asked of the driver
// on every tracked call. cudaleak then adds no driver call of its own to the
// program's hot path (a fault injector that counts calls sees only the
// program's), and a tracked creation costs no driver round trip.
//
// The model is the driver's: each thread has a stack of contexts, empty when
// the thread starts. cuCtxSetCurrent replaces the top (pops it when given
// null), push and pop do what they say, cuCtxCreate pushes the new context and
// cuCtxDestroy pops it where it is current. The device of a context is learned
// where the program names both (cuCtxCreate, cuDevicePrimaryCtxRetain).
// Everything here is lock-free and allocates nothing.
#pragma once
#include <cstdint>

namespace cudaleak::tracker::bound {

void set_current(uint64_t context);
void push(uint64_t context);
void pop();
void destroyed(uint64_t context);  // popped if it is this thread's current context

struct Current {
  bool known = false;  // false once the thread's stack ran deeper than the model keeps
  uint64_t context = 0;
};
Current current();

// Device of a context, or -1 where neither its creation nor a primary retain
// named it.
int device_of(uint64_t context);
void learn_device(uint64_t context, int device);

}  // namespace cudaleak::tracker::bound
