// The device line table's reader on hand-made, hostile line sections (the
// well-formed cubins nvcc writes are checked in tests/device_images).
#include <elf.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "report/symbols/device_lines.h"
#include "tests/unit/elf_header.h"

namespace {

// An ELF64 with one .debug_line section holding `line` and its name table.
std::vector<unsigned char> elf_with_line_section(const std::vector<unsigned char>& line) {
  const std::string names = std::string("\0.debug_line\0.shstrtab\0", 23);
  std::vector<Elf64_Shdr> sections(3);
  const size_t line_at = sizeof(Elf64_Ehdr), names_at = line_at + line.size();
  sections[1].sh_name = 1, sections[1].sh_type = SHT_PROGBITS, sections[1].sh_offset = line_at,
  sections[1].sh_size = line.size();
  sections[2].sh_name = 13, sections[2].sh_type = SHT_STRTAB, sections[2].sh_offset = names_at,
  sections[2].sh_size = names.size();
  const Elf64_Ehdr eh = elf_header(3, 2, names_at + names.size());
  std::vector<unsigned char> out(eh.e_shoff + sections.size() * sizeof(Elf64_Shdr));
  std::memcpy(out.data(), &eh, sizeof eh);
  std::memcpy(out.data() + line_at, line.data(), line.size());
  std::memcpy(out.data() + names_at, names.data(), names.size());
  std::memcpy(out.data() + eh.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr));
  return out;
}

// A DWARF 5 line unit whose directory table has no entry formats and
// `count` entries: each entry takes no bytes.
std::vector<unsigned char> v5_unit_with_formatless_entries(uint64_t count) {
  std::vector<unsigned char> after_length = {5, 0, 8, 0};  // version 5, address size 8, selector size 0
  std::vector<unsigned char> header = {1,           1,  1,
                                       uint8_t(-5), 14, 13};  // min inst, max ops, is_stmt, base, range, opcode base
  for (int i = 1; i < 13; ++i) header.push_back(0);           // standard opcode lengths
  header.push_back(0);                                        // directory entry formats: none
  for (uint64_t v = count;;) {                                // directories: ULEB count
    uint8_t b = v & 0x7f;
    v >>= 7;
    header.push_back(v ? b | 0x80 : b);
    if (!v) break;
  }
  header.push_back(0);  // file entry formats: none
  header.push_back(0);  // files: 0
  const uint32_t header_length = uint32_t(header.size());
  for (int i = 0; i < 4; ++i) after_length.push_back(uint8_t(header_length >> (8 * i)));
  after_length.insert(after_length.end(), header.begin(), header.end());
  std::vector<unsigned char> unit;
  const uint32_t length = uint32_t(after_length.size());
  for (int i = 0; i < 4; ++i) unit.push_back(uint8_t(length >> (8 * i)));
  unit.insert(unit.end(), after_length.begin(), after_length.end());
  return unit;
}

}  // namespace

TEST_CASE("device line table: a DWARF 5 table of entries without fields is refused, not iterated") {
  // 2^36 entries of nothing: read before the check, the reader grew its
  // directory list until memory ran out (inside the program's process).
  const auto image = elf_with_line_section(v5_unit_with_formatless_entries(uint64_t(1) << 36));
  const auto table = cudaleak::symbols::DeviceLineTable::read(image.data(), image.size());
  CHECK(table.empty());
}
