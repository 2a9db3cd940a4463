// The objects the dynamic loader has loaded, read from its own list
// (_r_debug.r_map) and this library's ELF header (__ehdr_start), without
// calling dl_iterate_phdr, dladdr or any string function. A sanitizer runtime
// (ASan, TSan) resolves its interceptors through this library's dlsym before
// it has set up its own pointers to those functions: anything on that path
// that reached an intercepted libc function would crash the program at start.
// Nothing here allocates, locks or calls out.
#pragma once

#include <link.h>

#include <cstdint>

namespace cudaleak {

// Whether two C strings are equal, by hand: std::strcmp may be a sanitizer's
// interceptor not yet ready to run.
bool same_name(const char* a, const char* b);

// This library's load bias: its ELF header's address (the first segment of a
// shared object is linked at 0).
uintptr_t own_load_bias();

// The loader's list of loaded objects, in load order (the executable, the
// preloaded libraries, their dependencies, then whatever dlopen added); each
// entry's l_addr is its load bias and l_ld its dynamic section.
const link_map* first_loaded_object();

// The address range of this library's loaded segments; {0, 0} when unknown.
struct CodeRange {
  uintptr_t begin = 0, end = 0;
};
CodeRange own_range();

}  // namespace cudaleak
