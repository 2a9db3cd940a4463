// The ELF64 header of the hand-made images the unit tests build: `sections`
// section headers at `table_offset`, the names in section `names`.
#pragma once
#include <elf.h>

#include <cstdint>
#include <cstring>

inline Elf64_Ehdr elf_header(uint16_t sections, uint16_t names, uint64_t table_offset) {
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = sections;
  eh.e_shstrndx = names;
  eh.e_shoff = table_offset;
  return eh;
}
