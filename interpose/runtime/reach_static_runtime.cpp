#include "interpose/runtime/reach_static_runtime.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace cudaleak::reach {

bool is_static_runtime_symbol(const char* name) {
  return std::strncmp(name, "libcudart_static_", 17) == 0 || std::strncmp(name, "_ZN6cudart", 10) == 0 ||
         std::strncmp(name, "__cudart", 8) == 0;
}

namespace {

void collect(const unsigned char* file, size_t size, uint64_t bias, MappedArray<Range>& out) {
  if (size < sizeof(Elf64_Ehdr) || std::memcmp(file, ELFMAG, SELFMAG) != 0 || file[EI_CLASS] != ELFCLASS64) return;
  Elf64_Ehdr eh;
  std::memcpy(&eh, file, sizeof eh);
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > size ||
      eh.e_shnum > (size - eh.e_shoff) / sizeof(Elf64_Shdr))
    return;
  auto section = [&](size_t i) {
    Elf64_Shdr s;
    std::memcpy(&s, file + eh.e_shoff + i * sizeof s, sizeof s);
    return s;
  };
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr symtab = section(i);
    if (symtab.sh_type != SHT_SYMTAB || symtab.sh_link >= eh.e_shnum) continue;
    const Elf64_Shdr strtab = section(symtab.sh_link);
    if (symtab.sh_offset > size || symtab.sh_size > size - symtab.sh_offset || strtab.sh_offset > size ||
        strtab.sh_size > size - strtab.sh_offset)
      continue;
    const char* strings = reinterpret_cast<const char*>(file + strtab.sh_offset);
    for (size_t k = 0; k < symtab.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym sym;
      std::memcpy(&sym, file + symtab.sh_offset + k * sizeof sym, sizeof sym);
      if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_size || sym.st_name >= strtab.sh_size) continue;
      const char* name = strings + sym.st_name;
      if (!std::memchr(name, '\0', strtab.sh_size - sym.st_name) || !is_static_runtime_symbol(name)) continue;
      if (!out.push_back(Range{bias + sym.st_value, bias + sym.st_value + sym.st_size})) return;
    }
  }
}

}  // namespace

bool static_runtime_globals(const char* path, uint64_t bias, MappedArray<Range>& out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
    close(fd);
    return false;
  }
  void* map = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return false;
  collect(static_cast<const unsigned char*>(map), size_t(st.st_size), bias, out);
  munmap(map, size_t(st.st_size));
  std::sort(out.begin(), out.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  return true;
}

}  // namespace cudaleak::reach
