#include "interpose/base/next_symbol.h"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

#include "interpose/base/self_module.h"

namespace cudaleak {

namespace {

// What one object's dynamic section says about its symbols.
struct DynamicTables {
  const ElfW(Sym)* symbols = nullptr;
  const char* strings = nullptr;
  const uint32_t* gnu_hash = nullptr;
  const uint32_t* sysv_hash = nullptr;  // 32-bit words on x86-64 and aarch64
  const ElfW(Half)* versions = nullptr;
  const ElfW(Verdef)* definitions = nullptr;
};

// glibc relocates these entries of a loaded object's dynamic section in
// place; the vDSO's are left as offsets.
uintptr_t absolute(ElfW(Addr) base, ElfW(Addr) value) { return value < base ? base + value : value; }

DynamicTables tables_of(const dl_phdr_info* info) {
  DynamicTables t;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) continue;
    auto* dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    for (; dyn->d_tag != DT_NULL; ++dyn) {
      uintptr_t p = absolute(info->dlpi_addr, dyn->d_un.d_ptr);
      switch (dyn->d_tag) {
        case DT_SYMTAB: t.symbols = reinterpret_cast<const ElfW(Sym)*>(p); break;
        case DT_STRTAB: t.strings = reinterpret_cast<const char*>(p); break;
        case DT_GNU_HASH: t.gnu_hash = reinterpret_cast<const uint32_t*>(p); break;
        case DT_HASH: t.sysv_hash = reinterpret_cast<const uint32_t*>(p); break;
        case DT_VERSYM: t.versions = reinterpret_cast<const ElfW(Half)*>(p); break;
        case DT_VERDEF: t.definitions = reinterpret_cast<const ElfW(Verdef)*>(p); break;
        default: break;
      }
    }
  }
  return t;
}

uint32_t gnu_hash(const char* s) {
  uint32_t h = 5381;
  for (; *s; ++s) h = h * 33 + static_cast<unsigned char>(*s);
  return h;
}

uint32_t sysv_hash(const char* s) {
  uint32_t h = 0;
  for (; *s; ++s) {
    h = (h << 4) + static_cast<unsigned char>(*s);
    uint32_t g = h & 0xf0000000u;
    if (g) h ^= g >> 24;
    h &= ~g;
  }
  return h;
}

// The name of version index `index`, from the object's version definitions.
const char* version_name(const DynamicTables& t, ElfW(Half) index) {
  const ElfW(Verdef)* d = t.definitions;
  while (d) {
    if (d->vd_ndx == index) {
      auto* aux = reinterpret_cast<const ElfW(Verdaux)*>(reinterpret_cast<const char*>(d) + d->vd_aux);
      return t.strings + aux->vda_name;
    }
    if (!d->vd_next) break;
    d = reinterpret_cast<const ElfW(Verdef)*>(reinterpret_cast<const char*>(d) + d->vd_next);
  }
  return nullptr;
}

bool matches(const DynamicTables& t, uint32_t index, const char* name, const char* version) {
  const ElfW(Sym)& s = t.symbols[index];
  if (s.st_shndx == SHN_UNDEF || !s.st_value || std::strcmp(t.strings + s.st_name, name) != 0) return false;
  int type = ELF64_ST_TYPE(s.st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC) return false;
  if (!t.versions || !t.definitions) return false;  // an unversioned object cannot hold `version`
  const char* v = version_name(t, t.versions[index] & 0x7fff);
  return v && std::strcmp(v, version) == 0;
}

// The symbol's index in the object, or -1.
long find(const DynamicTables& t, const char* name, const char* version) {
  if (!t.symbols || !t.strings) return -1;
  if (t.gnu_hash) {
    const uint32_t buckets = t.gnu_hash[0], offset = t.gnu_hash[1], bloom_words = t.gnu_hash[2];
    if (!buckets) return -1;
    auto* bucket = t.gnu_hash + 4 + bloom_words * (sizeof(ElfW(Addr)) / 4);
    const uint32_t* chain = bucket + buckets;
    const uint32_t h = gnu_hash(name);
    uint32_t i = bucket[h % buckets];
    if (i < offset) return -1;
    for (;; ++i) {
      uint32_t hi = chain[i - offset];
      if ((hi | 1) == (h | 1) && matches(t, i, name, version)) return i;
      if (hi & 1) return -1;
    }
  }
  if (t.sysv_hash) {
    const uint32_t buckets = t.sysv_hash[0];
    const uint32_t* bucket = t.sysv_hash + 2;
    const uint32_t* chain = bucket + buckets;
    for (uint32_t i = bucket[sysv_hash(name) % buckets]; i != STN_UNDEF; i = chain[i])
      if (matches(t, i, name, version)) return i;
  }
  return -1;
}

struct Query {
  const char* name;
  const char* version;
  uintptr_t self;  // this library's load bias
  bool anywhere;   // else only after this library
  bool past_self = false;
  void* found = nullptr;
};

int visit(dl_phdr_info* info, size_t, void* data) {
  auto* q = static_cast<Query*>(data);
  if (info->dlpi_addr == q->self) {
    q->past_self = true;
    return 0;
  }
  if (!q->past_self && !q->anywhere) return 0;
  DynamicTables t = tables_of(info);
  long i = find(t, q->name, q->version);
  if (i < 0) return 0;
  const ElfW(Sym)& s = t.symbols[i];
  uintptr_t address = info->dlpi_addr + s.st_value;
  if (ELF64_ST_TYPE(s.st_info) == STT_GNU_IFUNC) address = reinterpret_cast<uintptr_t (*)()>(address)();
  q->found = reinterpret_cast<void*>(address);
  return 1;
}

}  // namespace

void* next_versioned_symbol(const char* name, const char* version) {
  const uintptr_t self = own_load_bias();
  if (!self) return nullptr;
  Query next{name, version, self, false};
  dl_iterate_phdr(visit, &next);
  if (next.found) return next.found;
  // Loaded with dlopen rather than preloaded: the C library came first.
  Query any{name, version, next.self, true};
  dl_iterate_phdr(visit, &any);
  return any.found;
}

}  // namespace cudaleak
