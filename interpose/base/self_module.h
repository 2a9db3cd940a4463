// The preload library's own code range: frames inside it are dropped from
// stacks, and pointers into it are never recorded as "real" driver functions.
#pragma once

#include <cstdint>

namespace cudaleak {
bool is_own_code(const void* address);
// The library's load bias (the dlpi_addr of its dl_iterate_phdr entry); 0 when unknown.
uintptr_t own_load_bias();
}
