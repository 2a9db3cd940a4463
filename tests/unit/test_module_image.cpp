// The device globals of module images: cubins built here section by section,
// fatbins around them, and every truncation of both (reads stay in bounds).
#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>
#include <string>
#include <vector>

#include "interpose/driver/decompress.h"
#include "interpose/driver/module_image.h"
#include "tests/unit/elf_header.h"

using cudaleak::module_image::device_global_bytes;

namespace {

// A 64-bit ELF with the named sections (sizes only; NOBITS-like, no data).
std::vector<unsigned char> cubin(const std::vector<std::pair<std::string, uint64_t>>& sections) {
  std::string names(1, '\0');
  std::vector<Elf64_Shdr> headers(1);  // the null section
  for (const auto& [name, size] : sections) {
    Elf64_Shdr sh{};
    sh.sh_name = uint32_t(names.size());
    sh.sh_type = SHT_NOBITS;
    sh.sh_size = size;
    headers.push_back(sh);
    names += name + '\0';
  }
  Elf64_Shdr table{};
  table.sh_name = uint32_t(names.size());
  names += std::string(".shstrtab") + '\0';
  table.sh_type = SHT_STRTAB;
  table.sh_offset = sizeof(Elf64_Ehdr);
  table.sh_size = names.size();
  headers.push_back(table);

  const Elf64_Ehdr eh = elf_header(uint16_t(headers.size()), uint16_t(headers.size() - 1),
                                   sizeof(Elf64_Ehdr) + names.size());
  // Sized once and copied into: g++ 12 warns wrongly about inserts here.
  std::vector<unsigned char> out(sizeof eh + names.size() + headers.size() * sizeof(Elf64_Shdr));
  std::memcpy(out.data(), &eh, sizeof eh);
  std::memcpy(out.data() + sizeof eh, names.data(), names.size());
  if (!headers.empty())
    std::memcpy(out.data() + sizeof eh + names.size(), headers.data(), headers.size() * sizeof(Elf64_Shdr));
  return out;
}

void put(std::vector<unsigned char>& out, const void* data, size_t size) {
  auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + size);
}

// A fatbin of cubin entries, each {flags, payload}.
std::vector<unsigned char> fatbin(const std::vector<std::pair<uint64_t, std::vector<unsigned char>>>& entries) {
  std::vector<unsigned char> body;
  for (const auto& [flags, payload] : entries) {
    unsigned char header[64] = {};
    uint16_t kind = 2;
    uint32_t header_size = 64;
    uint64_t size = payload.size();
    std::memcpy(header, &kind, 2);
    std::memcpy(header + 4, &header_size, 4);
    std::memcpy(header + 8, &size, 8);
    std::memcpy(header + 40, &flags, 8);
    if (flags & 0xA000) std::memcpy(header + 56, &size, 8);  // compressed: its inflated size
    put(body, header, sizeof header);
    put(body, payload.data(), payload.size());
  }
  std::vector<unsigned char> out;
  uint32_t magic = 0xBA55ED50;
  uint16_t version = 1, header_size = 16;
  uint64_t size = body.size();
  put(out, &magic, 4);
  put(out, &version, 2);
  put(out, &header_size, 2);
  put(out, &size, 8);
  put(out, body.data(), body.size());
  return out;
}

}  // namespace

TEST_CASE("module images: a cubin's global sections are its device globals, constants are not") {
  auto image = cubin({{".text.touch", 512},
                      {".nv.global", 1 << 20},
                      {".nv.global.init", 4096},
                      {".nv.constant3", 1024},
                      {".nv.shared.touch", 256}});
  CHECK(device_global_bytes(image.data(), image.size()) == (1 << 20) + 4096);
  CHECK(device_global_bytes(image.data()) == (1 << 20) + 4096);  // bounded by its own headers
  auto none = cubin({{".text.touch", 512}});
  CHECK(device_global_bytes(none.data(), none.size()) == 0);
}

TEST_CASE(
    "module images: a fatbin's first readable cubin counts, one marked compressed that does not decode is passed "
    "over") {
  auto globals = cubin({{".nv.global", 8192}});
  auto plain = fatbin({{0x11, globals}});
  CHECK(device_global_bytes(plain.data(), plain.size()) == 8192);
  CHECK(device_global_bytes(plain.data()) == 8192);
  auto compressed = fatbin({{0x8011, globals}});  // marked Zstandard, sizes not set: not decoded
  CHECK(device_global_bytes(compressed.data(), compressed.size()) == 0);
  auto mixed = fatbin({{0x2011, globals}, {0x11, globals}});  // LZ4 first, then a plain one
  CHECK(device_global_bytes(mixed.data(), mixed.size()) == 8192);
  // The wrapper cudart registers: { magic, version, fatbin, ... }.
  struct {
    uint32_t magic = 0x466243B1, version = 1;
    const void* data;
    const void* unused = nullptr;
  } wrapper{.data = plain.data()};
  CHECK(device_global_bytes(&wrapper) == 8192);
}

TEST_CASE("module images: garbage and every truncation give nothing and read in bounds") {
  const char ptx[] = ".version 9.0\n.target sm_90\n.global .b8 data[4096];\n";
  CHECK(device_global_bytes(ptx) == 4096);
  CHECK(device_global_bytes(ptx, 20) == 0);  // cut before its globals
  CHECK(device_global_bytes(nullptr) == 0);
  auto image = fatbin({{0x11, cubin({{".nv.global", 64}})}});
  for (size_t n = 0; n < image.size(); ++n) {
    // A copy of exactly n bytes: AddressSanitizer sees any read past it.
    std::vector<unsigned char> prefix(image.begin(), image.begin() + long(n));
    INFO(n);
    CHECK(device_global_bytes(prefix.data(), prefix.size()) == 0);
  }
  CHECK(device_global_bytes(image.data(), image.size()) == 64);
}

TEST_CASE("module images: PTX text counts the global variables it defines, as the driver sizes each") {
  const char ptx[] =
      "//\n// Generated by NVIDIA NVVM Compiler\n.version 9.0\n.target sm_90\n.address_size 64\n\n"
      "\t// .globl\tkernel\n.global .align 4 .b8 data[4096];\n"
      ".visible .global .align 8 .u64 counters[2][8];\n"
      ".global .align 16 .v4 .f32 quad;\n"
      ".global .align 4 .u32 table[3] = {1, 2, 3};\n"
      "/* .global .b8 commented[100]; */\n"
      ".extern .global .align 4 .b8 elsewhere[64];\n"
      ".const .align 4 .b8 constants[256];\n"
      ".visible .entry kernel(\n\t.param .u64 .ptr .global .align 1 kernel_param_0\n)\n{\n"
      "\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [kernel_param_0];\n\tret;\n}\n";
  CHECK(device_global_bytes(ptx) == 4096 + 2 * 8 * 8 + 16 + 12);
  const char sized_by_initializer[] = ".version 9.0\n.target sm_90\n.global .u32 t[] = {1, 2};\n";
  CHECK(device_global_bytes(sized_by_initializer) == 0);  // not known: nothing rather than a guess
  const char no_globals[] = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  CHECK(device_global_bytes(no_globals) == 0);
}

namespace {

// A 64-bit ELF whose symbol table imports one function (undefined, as a
// cubin imports the device runtime's malloc).
std::vector<unsigned char> cubin_importing(const std::string& function) {
  const std::string section_names = std::string("\0.shstrtab\0.strtab\0.symtab\0", 27);
  const std::string symbol_names = std::string(1, '\0') + function + '\0';
  Elf64_Sym symbols[2] = {};
  symbols[1].st_name = 1;
  symbols[1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
  symbols[1].st_shndx = SHN_UNDEF;
  std::vector<unsigned char> out(sizeof(Elf64_Ehdr));
  const uint64_t shstrtab_at = out.size();
  put(out, section_names.data(), section_names.size());
  const uint64_t strtab_at = out.size();
  put(out, symbol_names.data(), symbol_names.size());
  const uint64_t symtab_at = out.size();
  put(out, symbols, sizeof symbols);
  Elf64_Shdr headers[4] = {};
  headers[1] = Elf64_Shdr{1, SHT_STRTAB, 0, 0, shstrtab_at, section_names.size(), 0, 0, 1, 0};
  headers[2] = Elf64_Shdr{11, SHT_STRTAB, 0, 0, strtab_at, symbol_names.size(), 0, 0, 1, 0};
  headers[3] = Elf64_Shdr{19, SHT_SYMTAB, 0, 0, symtab_at, sizeof symbols, 2, 1, 8, sizeof(Elf64_Sym)};
  const Elf64_Ehdr eh = elf_header(4, 1, out.size());
  put(out, headers, sizeof headers);
  std::memcpy(out.data(), &eh, sizeof eh);
  return out;
}

}  // namespace

TEST_CASE("module images: a cubin that imports malloc tells that kernels may set up the device heap") {
  using cudaleak::module_image::device_malloc_loaded;
  auto printf_only = cubin_importing("vprintf");
  device_global_bytes(printf_only.data(), printf_only.size());
  CHECK_FALSE(device_malloc_loaded());
  auto with_malloc = cubin_importing("malloc");
  for (size_t n = 0; n < with_malloc.size(); ++n) device_global_bytes(with_malloc.data(), n);  // truncated: in bounds
  CHECK_FALSE(device_malloc_loaded());
  CHECK(device_global_bytes(with_malloc.data(), with_malloc.size()) == 0);
  CHECK(device_malloc_loaded());
}

TEST_CASE("module images: the LZ4 block decoder writes exactly the declared size and refuses anything else") {
  using cudaleak::decompress::lz4_block;
  using cudaleak::decompress::Result;
  // "abcabcabcabc!": 3 literals, a match of 9 at offset 3 (overlapping), then 1 literal.
  const unsigned char block[] = {0x35, 'a', 'b', 'c', 0x03, 0x00, 0x10, '!'};
  unsigned char out[13];
  REQUIRE(lz4_block(block, sizeof block, out, sizeof out) == Result::ok);
  CHECK(std::string(reinterpret_cast<char*>(out), sizeof out) == "abcabcabcabc!");
  CHECK(lz4_block(block, sizeof block, out, 12) == Result::malformed);  // declared one short
  unsigned char wide[14];
  CHECK(lz4_block(block, sizeof block, wide, sizeof wide) == Result::malformed);  // one long
  for (size_t n = 0; n < sizeof block; ++n) {
    std::vector<unsigned char> cut(block, block + n);  // exactly n bytes
    CHECK(lz4_block(cut.data(), cut.size(), out, sizeof out) == Result::malformed);
  }
  const unsigned char offset_zero[] = {0x10, 'a', 0x00, 0x00, 0x00};
  const unsigned char before_start[] = {0x10, 'a', 0x02, 0x00, 0x00};
  CHECK(lz4_block(offset_zero, sizeof offset_zero, out, 5) == Result::malformed);
  CHECK(lz4_block(before_start, sizeof before_start, out, 5) == Result::malformed);
  // A literal run of 15 + 255 + 2 bytes: the length continues while bytes are 255.
  std::vector<unsigned char> long_run = {0xf0, 0xff, 0x02};
  long_run.resize(long_run.size() + 272, 'x');
  std::vector<unsigned char> big(272);
  CHECK(lz4_block(long_run.data(), long_run.size(), big.data(), big.size()) == Result::ok);
  const unsigned char endless[] = {0xf0, 0xff, 0xff, 0xff};  // a length that never ends
  CHECK(lz4_block(endless, sizeof endless, big.data(), big.size()) == Result::malformed);
}
