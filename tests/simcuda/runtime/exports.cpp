// Every function the real libcudart.so.13 exports, from one generated list
// (cudart_exports.def, written by tests/simcuda/gen_stub_lists.py), so that a
// program linked against the real runtime loads under the simulated one.
//
// The rows are weak: a function modelled by hand (runtime_api.cpp, kernels.cpp)
// is a strong definition and wins at link time, so nothing here needs to know
// which functions are modelled. No CUDA header is included: a stub is declared
// `int name()`, which would clash with the header's prototype.
//
// ABI: on x86-64 and AArch64 a function returning an integer may ignore any
// arguments, so `int name()` answers every row whose real return type is
// cudaError_t, void or another integer. Rows returning a struct or a pointer
// (cudaCreateChannelDesc returns its struct through a hidden pointer) are
// MODELLED: they are only referenced here, and the link (-z defs) fails if no
// hand-written definition exists.
#include "tests/simcuda/runtime/not_simulated.h"

#define CUDART_STUB(name) \
  extern "C" __attribute__((weak, visibility("default"))) int name() { return simrt::not_simulated(#name); }

// Per-thread-default-stream entries (_ptsz, _ptds) jump to the legacy entry
// with the caller's registers and stack untouched, whatever the signature:
// the simulation runs every stream's work at once, so both behave alike.
#if defined(__x86_64__)
#define SIMRT_JUMP(target) "jmp " #target "@PLT"
#elif defined(__aarch64__)
#define SIMRT_JUMP(target) "b " #target
#else
#error "the simulated runtime's per-thread entries need a tail jump for this architecture"
#endif
#define CUDART_VARIANT(name, base)                                                                         \
  asm(".text\n.weak " #name "\n.type " #name ", %function\n" #name ":\n" SIMRT_JUMP(base) "\n.size " #name \
                                                                                          ", .-" #name "\n");

#define CUDART_MODELLED(name) extern "C" void name();

#include "tests/simcuda/runtime/cudart_exports.def"

#undef CUDART_STUB
#undef CUDART_VARIANT
#undef CUDART_MODELLED
#define CUDART_STUB(name)
#define CUDART_VARIANT(name, base)
#define CUDART_MODELLED(name) reinterpret_cast<void*>(&name),
// A reference to each modelled function, so that a missing one fails the link.
[[gnu::used]] static void* const kModelled[] = {
#include "tests/simcuda/runtime/cudart_exports.def"
};
