#include "interpose/driver/module_image.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <atomic>
#include <cstring>
#include <string_view>

#include "interpose/driver/decompress.h"

namespace cudaleak::module_image {

namespace {

// The fatbin container nvcc writes (fatbinary.h gives only its magic): a
// header, then entries of one header and one payload each.
constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint32_t kFatbinWrapperMagic = 0x466243B1;  // __fatBinC_Wrapper_t, as cudart registers it
struct FatbinHeader {
  uint32_t magic;
  uint16_t version;
  uint16_t header_size;
  uint64_t entries_size;
};
// Entries as nvcc 13.0 writes them (docs/design.md#module-images): a
// compressed entry's payload is one LZ4 block or one Zstandard frame of
// `compressed_size` bytes, padded to `payload_size`, that decodes to
// `uncompressed_size` bytes.
struct FatbinEntry {
  uint16_t kind;  // 1 PTX, 2 cubin
  uint16_t version;
  uint32_t header_size;
  uint64_t payload_size;     // padded to 8
  uint32_t compressed_size;  // 0 unless compressed
  uint32_t unknown0, unknown1, sm_version, name_offset, name_size;
  uint64_t flags;  // 0x2000 LZ4 block, 0x8000 Zstandard frame; 0x4000 (not seen from nvcc 13) is not read
  uint64_t unknown2;
  uint64_t uncompressed_size;  // 0 unless compressed
};
static_assert(sizeof(FatbinHeader) == 16 && sizeof(FatbinEntry) == 64);
constexpr uint16_t kPtx = 1, kCubin = 2;
constexpr uint64_t kLz4 = 0x2000, kZstd = 0x8000;
constexpr uint64_t kCompressed = kLz4 | 0x4000 | kZstd;
// The largest entry decompressed (a 300-kernel cubin is 28 MiB): past it the
// entry's globals are not known rather than a gigabyte mapped for them.
constexpr uint64_t kMaxDecompressed = 1ull << 30;

struct Bytes {
  const unsigned char* data;
  size_t size;
  bool has(uint64_t offset, uint64_t length) const { return offset <= size && length <= size - offset; }
};

template <typename T>
bool read(const Bytes& b, uint64_t offset, T& out) {
  if (!b.has(offset, sizeof(T))) return false;
  std::memcpy(&out, b.data + offset, sizeof(T));
  return true;
}

std::atomic<bool> g_device_malloc{false};
// Images read on this thread whose kernels call malloc: a load hook compares
// it before and after reading its own image (malloc_images_read).
thread_local uint64_t t_malloc_images = 0;

// Whether the symbol table section `symtab` of a cubin names an undefined
// function "malloc": the kernels of a cubin that call malloc import it.
bool imports_malloc(const Bytes& image, const Elf64_Ehdr& eh, const Elf64_Shdr& symtab) {
  Elf64_Shdr strings;
  if (symtab.sh_link >= eh.e_shnum ||
      !read(image, eh.e_shoff + uint64_t(symtab.sh_link) * sizeof(Elf64_Shdr), strings) ||
      !image.has(strings.sh_offset, strings.sh_size) || !image.has(symtab.sh_offset, symtab.sh_size))
    return false;
  std::string_view names(reinterpret_cast<const char*>(image.data + strings.sh_offset), strings.sh_size);
  for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= symtab.sh_size; at += sizeof(Elf64_Sym)) {
    Elf64_Sym s;
    if (!read(image, symtab.sh_offset + at, s)) return false;
    if (s.st_shndx != SHN_UNDEF || ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_name >= names.size()) continue;
    std::string_view name = names.substr(s.st_name);
    if (name.substr(0, name.find('\0')) == "malloc") return true;
  }
  return false;
}

}  // namespace

bool cubin_calls_malloc(const void* cubin, size_t size) {
  const Bytes b{static_cast<const unsigned char*>(cubin), size};
  Elf64_Ehdr eh;
  if (!cubin || !read(b, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr))
    return false;
  for (uint16_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    if (!read(b, eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), sh)) return false;
    if (sh.sh_type == SHT_SYMTAB && imports_malloc(b, eh, sh)) return true;
  }
  return false;
}

namespace {

// A 64-bit cubin: the sizes of its global-variable sections. `known` is
// false when the bytes are not a well-formed ELF image. A cubin whose kernels
// call malloc sets device_malloc_loaded().
uint64_t cubin_globals(const Bytes& b, bool& known) {
  known = false;
  Elf64_Ehdr eh;
  if (!read(b, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum)
    return 0;
  Bytes image = b;
  if (image.size == SIZE_MAX) image.size = eh.e_shoff + uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr);  // its own extent
  Elf64_Shdr names;
  if (!read(image, eh.e_shoff + uint64_t(eh.e_shstrndx) * sizeof(Elf64_Shdr), names)) return 0;
  if (b.size == SIZE_MAX) image.size = std::max<uint64_t>(image.size, names.sh_offset + names.sh_size);
  if (!image.has(names.sh_offset, names.sh_size)) return 0;
  std::string_view table(reinterpret_cast<const char*>(image.data + names.sh_offset), names.sh_size);
  uint64_t total = 0;
  for (uint16_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    if (!read(image, eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), sh)) return 0;
    if (sh.sh_name >= table.size()) continue;
    std::string_view name = table.substr(sh.sh_name);
    name = name.substr(0, name.find('\0'));
    if (name == ".nv.global" || name == ".nv.global.init") total += sh.sh_size;
    // Every image's table is read: a load is rare beside what the driver
    // does for it, and each module that calls malloc is named.
    if (sh.sh_type == SHT_SYMTAB && imports_malloc(image, eh, sh)) {
      g_device_malloc.store(true, std::memory_order_relaxed);
      ++t_malloc_images;
    }
  }
  known = true;
  return total;
}

// PTX text: the bytes of the variables it defines in the global state space
// (`[.visible|.weak|.common] .global [.align N] [.vN] .TYPE name[dims]...;`),
// each as the driver sizes it for cuModuleGetGlobal: the type's size times
// the vector width and every dimension. `.extern` declarations define nothing.
// `known` is false for text that is not PTX (no .version directive), or a
// definition whose size cannot be read (an array sized by its initializer).
size_t ptx_type_bytes(std::string_view t) {
  if (t == ".b8" || t == ".u8" || t == ".s8") return 1;
  if (t == ".b16" || t == ".u16" || t == ".s16" || t == ".f16" || t == ".bf16") return 2;
  if (t == ".b32" || t == ".u32" || t == ".s32" || t == ".f32" || t == ".f16x2" || t == ".bf16x2") return 4;
  if (t == ".b64" || t == ".u64" || t == ".s64" || t == ".f64") return 8;
  if (t == ".b128") return 16;
  return 0;
}

uint64_t ptx_definition_bytes(std::string_view statement, bool& known) {
  uint64_t element = 0, vector = 1;
  bool global = false;
  size_t at = 0;
  while (at < statement.size()) {
    while (at < statement.size() && std::isspace(static_cast<unsigned char>(statement[at]))) ++at;
    size_t end = at;
    while (end < statement.size() && !std::isspace(static_cast<unsigned char>(statement[end]))) ++end;
    std::string_view word = statement.substr(at, end - at);
    at = end;
    if (word.empty()) break;
    if (word == ".extern") return 0;
    if (word == ".visible" || word == ".weak" || word == ".common") continue;  // linkage
    if (word == ".global") {
      global = true;
    } else if (word == ".align") {
      while (at < statement.size() && std::isspace(static_cast<unsigned char>(statement[at]))) ++at;
      while (at < statement.size() && std::isdigit(static_cast<unsigned char>(statement[at]))) ++at;
    } else if (word == ".v2" || word == ".v4" || word == ".v8") {
      vector = uint64_t(word[2] - '0');
    } else if (size_t bytes = ptx_type_bytes(word)) {
      element = bytes;
    } else if (word[0] != '.') {
      // The name, then its dimensions: name[4][8], name [4], or none.
      if (!global || !element) return 0;
      std::string_view rest = statement.substr(at - word.size());
      size_t bracket = rest.find('[');
      size_t assign = rest.find('=');
      uint64_t total = element * vector;
      while (bracket != std::string_view::npos && (assign == std::string_view::npos || bracket < assign)) {
        size_t close = rest.find(']', bracket);
        if (close == std::string_view::npos) return known = false, 0;
        uint64_t n = 0;
        bool digits = false;
        for (size_t i = bracket + 1; i < close; ++i) {
          char c = rest[i];
          if (std::isspace(static_cast<unsigned char>(c))) continue;
          if (!std::isdigit(static_cast<unsigned char>(c)) || n > (UINT64_MAX - 9) / 10) return known = false, 0;
          n = n * 10 + uint64_t(c - '0');
          digits = true;
        }
        if (!digits) return known = false, 0;  // sized by its initializer
        if (n && total > UINT64_MAX / n) return known = false, 0;
        total *= n;
        bracket = rest.find('[', close);
      }
      return total;
    } else if (!global) {
      return 0;  // another state space or directive
    }
  }
  return 0;
}

uint64_t ptx_globals(const Bytes& b, bool& known) {
  known = false;
  // PTX starts with a directive or a comment; the driver accepted it, so it
  // ends at its first NUL (or at the known size).
  if (!b.has(0, 1) || !(b.data[0] == '.' || b.data[0] == '/' || std::isspace(b.data[0]))) return 0;
  size_t length = 0;
  while (b.has(length, 1) && b.data[length] != 0) ++length;
  std::string_view text(reinterpret_cast<const char*>(b.data), length);
  if (text.find(".version") == std::string_view::npos) return 0;
  known = true;
  uint64_t total = 0;
  int depth = 0;  // braces: only module-scope statements define module globals
  std::string statement;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
      continue;
    }
    if (c == '"') {  // a string (a file name): skipped whole
      size_t end = text.find('"', i + 1);
      i = end == std::string_view::npos ? text.size() : end;
      continue;
    }
    if (c == '{') {
      if (depth == 0 && statement.find(".global") != std::string::npos && statement.find('=') != std::string::npos) {
        // An initializer: the declaration before it is what counts.
        total += ptx_definition_bytes(statement, known);
        statement.assign(1, '\x01');  // counted; the rest is data (not = "\x01": a false g++ 12 -Wrestrict)
      }
      ++depth;
      continue;
    }
    if (c == '}') {
      if (depth > 0) --depth;
      if (depth == 0 && statement != "\x01") statement.clear();
      continue;
    }
    if (depth > 0) continue;
    if (c == '\n') {  // directives that end with their line
      size_t first = statement.find_first_not_of(" \t\r\n");
      std::string_view head = first == std::string::npos ? std::string_view()
                                                         : std::string_view(statement).substr(first);
      for (std::string_view d : {".version", ".target", ".address_size", ".file"})
        if (head.substr(0, d.size()) == d) statement.clear();
    }
    if (c == ';') {
      if (statement != "\x01" && statement.find(".global") != std::string::npos)
        total += ptx_definition_bytes(statement, known);
      statement.clear();
      continue;
    }
    if (statement != "\x01") statement += c;
  }
  return known ? total : 0;
}

// A compressed entry's payload decoded into pages of its own (not the
// heap: module loads can come from anywhere the program calls the driver),
// unmapped when it goes.
class Decompressed {
 public:
  Decompressed(const FatbinEntry& e, const Bytes& payload) {
    if (!(e.flags & (kLz4 | kZstd)) || e.uncompressed_size == 0 || e.uncompressed_size > kMaxDecompressed) return;
    uint64_t in = e.compressed_size && e.compressed_size <= payload.size ? e.compressed_size : payload.size;
    void* map = mmap(nullptr, e.uncompressed_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return;
    bytes_ = Bytes{static_cast<unsigned char*>(map), e.uncompressed_size};
    auto* out = static_cast<unsigned char*>(map);
    decompress::Result r = (e.flags & kLz4) ? decompress::lz4_block(payload.data, in, out, bytes_.size)
                                            : decompress::zstd_frame(payload.data, in, out, bytes_.size);
    ok_ = r == decompress::Result::ok;
  }
  ~Decompressed() {
    if (bytes_.data) munmap(const_cast<unsigned char*>(bytes_.data), bytes_.size);
  }
  Decompressed(const Decompressed&) = delete;
  Decompressed& operator=(const Decompressed&) = delete;
  bool ok() const { return ok_; }
  const Bytes& bytes() const { return bytes_; }

 private:
  Bytes bytes_{nullptr, 0};
  bool ok_ = false;
};

// The globals of the first cubin entry whose image can be read (plain, or
// decompressed), else of the first PTX entry's text: every architecture's
// code declares the same variables. An entry in a compression that cannot be
// decoded here (0x4000, or Zstandard without libzstd) is passed over.
uint64_t fatbin_globals(const Bytes& b) {
  FatbinHeader h;
  if (!read(b, 0, h) || h.magic != kFatbinMagic || h.header_size < sizeof h) return 0;
  Bytes fatbin = b;
  if (fatbin.size == SIZE_MAX) fatbin.size = uint64_t(h.header_size) + h.entries_size;
  if (!fatbin.has(h.header_size, h.entries_size)) return 0;
  // The cheapest answer first: a plain cubin, then a compressed one, and the
  // PTX only when no cubin can be read (each decompression costs the whole
  // image, and nvcc compresses the PTX by default).
  enum Pass { PlainCubin, CompressedCubin, Ptx };
  for (Pass pass : {PlainCubin, CompressedCubin, Ptx}) {
    for (uint64_t at = h.header_size; at < uint64_t(h.header_size) + h.entries_size;) {
      FatbinEntry e;
      if (!read(fatbin, at, e) || e.header_size < sizeof e || !fatbin.has(at + e.header_size, e.payload_size)) return 0;
      const Bytes payload{fatbin.data + at + e.header_size, e.payload_size};
      at += e.header_size + e.payload_size;
      const bool plain = !(e.flags & kCompressed) && e.uncompressed_size == 0;
      const bool wanted = pass == Ptx ? e.kind == kPtx : e.kind == kCubin && plain == (pass == PlainCubin);
      if (!wanted) continue;
      bool known = false;
      uint64_t bytes = 0;
      if (plain) {
        bytes = e.kind == kCubin ? cubin_globals(payload, known) : ptx_globals(payload, known);
      } else {
        Decompressed image(e, payload);
        if (image.ok())
          bytes = e.kind == kCubin ? cubin_globals(image.bytes(), known) : ptx_globals(image.bytes(), known);
      }
      if (known) return bytes;
    }
  }
  return 0;
}

// Whether the image starts with `magic`, read one byte at a time and no
// further than the first difference: an image of unknown size may be a short
// PTX string, which ends at its first NUL and matches no magic.
bool starts_with(const Bytes& b, const void* magic, size_t length) {
  auto* m = static_cast<const unsigned char*>(magic);
  for (size_t i = 0; i < length; ++i)
    if (!b.has(i, 1) || b.data[i] != m[i]) return false;
  return true;
}

}  // namespace

uint64_t device_global_bytes(const void* image, size_t size) {
  if (!image) return 0;
  Bytes b{static_cast<const unsigned char*>(image), size};
  if (starts_with(b, &kFatbinWrapperMagic, 4)) {  // { magic, version, const void* fatbin, ... }
    const void* inner = nullptr;
    if (size != SIZE_MAX || !read(b, 8, inner)) return 0;
    return inner && inner != image ? device_global_bytes(inner) : 0;
  }
  if (starts_with(b, &kFatbinMagic, 4)) return fatbin_globals(b);
  bool known;
  if (!starts_with(b, ELFMAG, SELFMAG)) return ptx_globals(b, known);  // PTX, or nothing known
  return cubin_globals(b, known);
}

bool device_malloc_loaded() { return g_device_malloc.load(std::memory_order_relaxed); }
uint64_t malloc_images_read() { return t_malloc_images; }

uint64_t device_global_bytes_of_file(const char* path) {
  if (!path) return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  uint64_t bytes = 0;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void* map = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      bytes = device_global_bytes(map, size_t(st.st_size));
      munmap(map, size_t(st.st_size));
    }
  }
  close(fd);
  return bytes;
}

}  // namespace cudaleak::module_image
