#include "interpose/base/self_module.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdint>

namespace cudaleak {

namespace {

struct Range {
  uintptr_t begin = 0, end = 0;
};

Range find_own_range() {
  uintptr_t base = own_load_bias();
  if (!base) return {};
  Range r{UINTPTR_MAX, 0};
  struct Query {
    uintptr_t base;
    Range* range;
  } q{base, &r};
  dl_iterate_phdr(
      [](dl_phdr_info* i, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        if (i->dlpi_addr != q->base) return 0;
        for (int k = 0; k < i->dlpi_phnum; ++k) {
          const auto& ph = i->dlpi_phdr[k];
          if (ph.p_type != PT_LOAD) continue;
          uintptr_t start = i->dlpi_addr + ph.p_vaddr;
          if (start < q->range->begin) q->range->begin = start;
          if (start + ph.p_memsz > q->range->end) q->range->end = start + ph.p_memsz;
        }
        return 0;
      },
      &q);
  return r.end ? r : Range{};
}

}  // namespace

uintptr_t own_load_bias() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&own_load_bias), &info)) return 0;
  return reinterpret_cast<uintptr_t>(info.dli_fbase);  // dli_fbase of a shared object is its load bias
}

bool is_own_code(const void* address) {
  static const Range range = find_own_range();
  auto a = reinterpret_cast<uintptr_t>(address);
  return a >= range.begin && a < range.end;
}

}  // namespace cudaleak
