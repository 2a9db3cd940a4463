// A function of a loaded library found in the library's own ELF symbol
// table: a way to reach the driver that passes by dlsym, dlvsym and
// cuGetProcAddress, and so by cudaleak, for the tests of what cudaleak cannot see.
#pragma once
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

inline void* find_in_elf(void* handle, const char* name) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map) return nullptr;
  std::ifstream in(map->l_name, std::ios::binary);
  std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < sizeof(Elf64_Ehdr)) return nullptr;
  auto* eh = reinterpret_cast<const Elf64_Ehdr*>(file.data());
  auto* sections = reinterpret_cast<const Elf64_Shdr*>(file.data() + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_DYNSYM) continue;
    const char* strings = file.data() + sections[sections[i].sh_link].sh_offset;
    auto* syms = reinterpret_cast<const Elf64_Sym*>(file.data() + sections[i].sh_offset);
    for (size_t k = 0; k < sections[i].sh_size / sizeof(Elf64_Sym); ++k)
      if (syms[k].st_value && std::strcmp(strings + syms[k].st_name, name) == 0)
        return reinterpret_cast<void*>(map->l_addr + syms[k].st_value);
  }
  return nullptr;
}
