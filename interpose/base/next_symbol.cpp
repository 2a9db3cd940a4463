#include "interpose/base/next_symbol.h"

#include <elf.h>
#include <link.h>

#include <cstdint>

#include "interpose/base/loaded_objects.h"

namespace cudaleak {

namespace {

// What one object's dynamic section says about its symbols.
struct DynamicTables {
  const ElfW(Sym) * symbols = nullptr;
  const char* strings = nullptr;
  const uint32_t* gnu_hash = nullptr;
  const uint32_t* sysv_hash = nullptr;  // 32-bit words on x86-64 and aarch64
  const ElfW(Half) * versions = nullptr;
  const ElfW(Verdef) * definitions = nullptr;
};

// glibc relocates these entries of a loaded object's dynamic section in
// place; the vDSO's are left as offsets.
uintptr_t absolute(ElfW(Addr) base, ElfW(Addr) value) { return value < base ? base + value : value; }

DynamicTables tables_of(const link_map* object) {
  DynamicTables t;
  if (!object->l_ld) return t;
  for (const ElfW(Dyn)* dyn = object->l_ld; dyn->d_tag != DT_NULL; ++dyn) {
    uintptr_t p = absolute(object->l_addr, dyn->d_un.d_ptr);
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
  if (s.st_shndx == SHN_UNDEF || !s.st_value || !same_name(t.strings + s.st_name, name)) return false;
  int type = ELF64_ST_TYPE(s.st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC) return false;
  int binding = ELF64_ST_BIND(s.st_info);
  if (binding != STB_GLOBAL && binding != STB_WEAK) return false;
  // An unversioned object's definition answers any version, as the loader
  // takes it (a sanitizer runtime's interceptors are unversioned).
  if (!version || !t.versions || !t.definitions) return true;
  const char* v = version_name(t, t.versions[index] & 0x7fff);
  return v && same_name(v, version);
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

// The first definition after this library in the loader's list (or anywhere
// in it), as the loader's own lookup order would find it.
void* first_definition(const char* name, const char* version, uintptr_t self, bool anywhere) {
  bool past_self = false;
  for (const link_map* object = first_loaded_object(); object; object = object->l_next) {
    if (object->l_addr == self) {
      past_self = true;
      continue;
    }
    if (!past_self && !anywhere) continue;
    DynamicTables t = tables_of(object);
    long i = find(t, name, version);
    if (i < 0) continue;
    const ElfW(Sym)& s = t.symbols[i];
    uintptr_t address = object->l_addr + s.st_value;
    if (ELF64_ST_TYPE(s.st_info) == STT_GNU_IFUNC) address = reinterpret_cast<uintptr_t (*)()>(address)();
    return reinterpret_cast<void*>(address);
  }
  return nullptr;
}

}  // namespace

void* next_versioned_symbol(const char* name, const char* version) {
  const uintptr_t self = own_load_bias();
  if (void* found = first_definition(name, version, self, false)) return found;
  // Loaded with dlopen rather than preloaded: the C library came first.
  return first_definition(name, version, self, true);
}

size_t definitions_before_self(const char* name, CodeRange* ranges, size_t room) {
  const uintptr_t self = own_load_bias();
  size_t found = 0;
  for (const link_map* object = first_loaded_object(); object && found < room; object = object->l_next) {
    if (object->l_addr == self) break;
    DynamicTables t = tables_of(object);
    long i = find(t, name, nullptr);
    if (i < 0 || ELF64_ST_TYPE(t.symbols[i].st_info) == STT_GNU_IFUNC) continue;
    const uintptr_t begin = object->l_addr + t.symbols[i].st_value;
    ranges[found++] = {begin, begin + (t.symbols[i].st_size ? t.symbols[i].st_size : 1)};
  }
  return found;
}

}  // namespace cudaleak
