#include <catch2/catch.hpp>

#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "report/symbols/libdw_loader.h"
#include "report/symbols/symbol_index.h"
#include "tests/unit/elf_header.h"

using cudaleak::symbols::SymbolIndex;

namespace {

struct Sym {
  const char* name;
  uint64_t value, size;
  unsigned bind, type;
  uint16_t section = 1;
};

// An ELF image with one symbol table (section 1, its names in section 2), written to a file.
std::string write_image(const std::vector<Sym>& syms, const std::string& name) {
  std::string strtab(1, '\0');
  std::vector<Elf64_Sym> table(1);  // entry 0 is the null symbol
  for (const Sym& s : syms) {
    Elf64_Sym e{};
    e.st_name = uint32_t(strtab.size());
    strtab += s.name;
    strtab += '\0';
    e.st_value = s.value;
    e.st_size = s.size;
    e.st_info = ELF64_ST_INFO(s.bind, s.type);
    e.st_shndx = s.section;
    table.push_back(e);
  }
  const uint64_t symtab_at = sizeof(Elf64_Ehdr);
  const uint64_t strtab_at = symtab_at + table.size() * sizeof(Elf64_Sym);
  const uint64_t sections_at = (strtab_at + strtab.size() + 7) & ~uint64_t(7);
  Elf64_Ehdr eh = elf_header(3, 0, sections_at);
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  Elf64_Shdr sh[3]{};
  sh[1].sh_type = SHT_SYMTAB;
  sh[1].sh_offset = symtab_at;
  sh[1].sh_size = table.size() * sizeof(Elf64_Sym);
  sh[1].sh_entsize = sizeof(Elf64_Sym);
  sh[1].sh_link = 2;
  sh[2].sh_type = SHT_STRTAB;
  sh[2].sh_offset = strtab_at;
  sh[2].sh_size = strtab.size();
  std::string bytes(reinterpret_cast<const char*>(&eh), sizeof eh);
  bytes.append(reinterpret_cast<const char*>(table.data()), table.size() * sizeof(Elf64_Sym));
  bytes += strtab;
  bytes.resize(sections_at, '\0');
  bytes.append(reinterpret_cast<const char*>(sh), sizeof sh);
  std::string path = "/tmp/cudaleak-symbol-index-" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string named(const SymbolIndex& index, uint64_t vaddr, uint64_t* offset = nullptr) {
  const char* name = index.lookup(vaddr, offset);
  return name ? name : "";
}

}  // namespace

TEST_CASE("symbol index: the innermost containing symbol, its global name before aliases", "[symbols]") {
  std::string path = write_image({{"local_alias", 0x1000, 0x100, STB_LOCAL, STT_FUNC},
                                  {"outer", 0x1000, 0x100, STB_GLOBAL, STT_FUNC},
                                  {"weak_alias", 0x1000, 0x100, STB_WEAK, STT_FUNC},
                                  {"nested", 0x1040, 0x10, STB_LOCAL, STT_FUNC},
                                  {"label", 0x2000, 0, STB_LOCAL, STT_NOTYPE},
                                  {"data", 0x3000, 0x100, STB_GLOBAL, STT_OBJECT},
                                  {"imported", 0, 0, STB_GLOBAL, STT_FUNC, SHN_UNDEF},
                                  {"after", 0x4000, 0x20, STB_GLOBAL, STT_FUNC},
                                  {"covered_label", 0x5008, 0, STB_LOCAL, STT_NOTYPE},
                                  {"covering", 0x5000, 0x100, STB_LOCAL, STT_FUNC}},
                                 "small");
  auto index = SymbolIndex::load(path, 0);
  REQUIRE(index);
  CHECK(index->size() == 9);  // the undefined import names nothing here
  uint64_t offset = 0;
  CHECK(named(*index, 0x1000, &offset) == "outer");
  CHECK(offset == 0);
  CHECK(named(*index, 0x10ff, &offset) == "outer");
  CHECK(offset == 0xff);
  CHECK(named(*index, 0x1044) == "nested");
  CHECK(named(*index, 0x1050) == "outer");  // past the nested one, inside the outer
  CHECK(named(*index, 0x1100).empty());     // past every sized symbol; the label is not the nearest
  CHECK(named(*index, 0x2008) == "label");  // a label without size names what follows it directly
  CHECK(named(*index, 0x3010) == "data");   // as libdw: any defined symbol but sections, files and TLS
  CHECK(named(*index, 0x401f) == "after");
  CHECK(named(*index, 0x4020).empty());
  CHECK(named(*index, 0x10).empty());
  CHECK(named(*index, 0x5010) == "covering");
  CHECK(named(*index, 0x5200).empty());  // the label lies inside a sized symbol: it names nothing past it
  std::remove(path.c_str());
}

TEST_CASE("symbol index: small tables stay libdw's, unreadable files are refused", "[symbols]") {
  std::string path = write_image({{"only", 0x1000, 0x10, STB_GLOBAL, STT_FUNC}}, "few");
  CHECK_FALSE(SymbolIndex::load(path));  // below kIndexedSymbols
  CHECK(SymbolIndex::load(path, 1));
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  for (size_t cut : {size_t(10), sizeof(Elf64_Ehdr), bytes.size() - 8}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, cut);
    CHECK_FALSE(SymbolIndex::load(path, 0));
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "#!/bin/sh\necho not an object\n";
  CHECK_FALSE(SymbolIndex::load(path, 0));
  CHECK_FALSE(SymbolIndex::load("/nonexistent/lib.so", 0));
  CHECK_FALSE(SymbolIndex::load("/tmp", 0));
  std::remove(path.c_str());
}

TEST_CASE("symbol index: names every function of this program as libdw does", "[symbols]") {
  const cudaleak::symbols::Libdw* dw = cudaleak::symbols::load_libdw();
  REQUIRE(dw);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  REQUIRE(n > 0);
  exe[n] = '\0';
  auto index = SymbolIndex::load(exe, 0);
  REQUIRE(index);
  REQUIRE(index->size() > 1000);
  Dwfl_Callbacks callbacks{};
  callbacks.find_elf = dw->linux_proc_find_elf;
  callbacks.find_debuginfo = dw->standard_find_debuginfo;
  Dwfl* dwfl = dw->begin(&callbacks);
  REQUIRE(dwfl);
  REQUIRE(dw->linux_proc_report(dwfl, getpid()) == 0);
  REQUIRE(dw->report_end(dwfl, nullptr, nullptr) == 0);
  Dwfl_Module* module = dw->addrmodule(dwfl, reinterpret_cast<Dwarf_Addr>(&write_image));
  REQUIRE(module);
  Dwarf_Addr bias = 0;
  REQUIRE(dw->module_getelf(module, &bias));
  // Every 7th byte of a stretch of the program's code: each named alike.
  const auto start = reinterpret_cast<Dwarf_Addr>(&write_image);
  size_t compared = 0, differ = 0;
  for (Dwarf_Addr a = start; a < start + 200000; a += 7) {
    if (dw->addrmodule(dwfl, a) != module) break;
    GElf_Off offset = 0;
    GElf_Sym sym;
    const char* theirs = dw->module_addrinfo(module, a, &offset, &sym, nullptr, nullptr, nullptr);
    if (!theirs) continue;
    ++compared;
    uint64_t ours_offset = 0;
    std::string ours = named(*index, a - bias, &ours_offset);
    if (ours != theirs || ours_offset != offset) {
      if (++differ <= 5)
        std::fprintf(stderr, "at +%lu: libdw %s+%lu, index %s+%lu\n", (unsigned long)(a - start), theirs,
                     (unsigned long)offset, ours.c_str(), (unsigned long)ours_offset);
    }
  }
  dw->end(dwfl);
  CHECK(compared > 1000);
  CHECK(differ == 0);
}
