#include "interpose/base/loaded_objects.h"

#include <elf.h>

// Defined by the linker at this object's ELF header.
extern "C" const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

namespace cudaleak {

bool same_name(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

uintptr_t own_load_bias() { return reinterpret_cast<uintptr_t>(&__ehdr_start); }

const link_map* first_loaded_object() {
  // _r_debug is ld.so's own record, set up before any initialiser runs.
  return _r_debug.r_map;
}

CodeRange own_range() {
  const ElfW(Ehdr)* header = &__ehdr_start;
  const uintptr_t bias = own_load_bias();
  auto* phdr = reinterpret_cast<const ElfW(Phdr)*>(bias + header->e_phoff);
  CodeRange r{UINTPTR_MAX, 0};
  for (int k = 0; k < header->e_phnum; ++k) {
    if (phdr[k].p_type != PT_LOAD) continue;
    const uintptr_t start = bias + phdr[k].p_vaddr;
    if (start < r.begin) r.begin = start;
    if (start + phdr[k].p_memsz > r.end) r.end = start + phdr[k].p_memsz;
  }
  return r.end ? r : CodeRange{};
}

}  // namespace cudaleak
