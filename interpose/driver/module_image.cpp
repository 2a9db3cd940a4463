#include "module_image.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string_view>

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
struct FatbinEntry {
  uint16_t kind;  // 1 PTX, 2 cubin
  uint16_t version;
  uint32_t header_size;
  uint64_t payload_size;  // padded
  uint32_t unknown0, compressed_size, unknown1, sm_version, name_offset, name_size;
  uint64_t flags;  // 0x2000 LZ4, 0x8000 Zstandard
  uint64_t unknown2;
  uint64_t uncompressed_size;  // 0 unless compressed
};
static_assert(sizeof(FatbinHeader) == 16 && sizeof(FatbinEntry) == 64);
constexpr uint16_t kCubin = 2;
constexpr uint64_t kCompressed = 0x2000 | 0x4000 | 0x8000;

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

// A 64-bit cubin: the sizes of its global-variable sections. `known` is
// false when the bytes are not a well-formed ELF image.
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
  }
  known = true;
  return total;
}

uint64_t fatbin_globals(const Bytes& b) {
  FatbinHeader h;
  if (!read(b, 0, h) || h.magic != kFatbinMagic || h.header_size < sizeof h) return 0;
  Bytes fatbin = b;
  if (fatbin.size == SIZE_MAX) fatbin.size = uint64_t(h.header_size) + h.entries_size;
  if (!fatbin.has(h.header_size, h.entries_size)) return 0;
  for (uint64_t at = h.header_size; at < uint64_t(h.header_size) + h.entries_size;) {
    FatbinEntry e;
    if (!read(fatbin, at, e) || e.header_size < sizeof e || !fatbin.has(at + e.header_size, e.payload_size)) return 0;
    if (e.kind == kCubin && !(e.flags & kCompressed) && e.uncompressed_size == 0) {
      bool known;
      uint64_t bytes = cubin_globals(Bytes{fatbin.data + at + e.header_size, e.payload_size}, known);
      if (known) return bytes;
    }
    at += e.header_size + e.payload_size;
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
  if (!starts_with(b, ELFMAG, SELFMAG)) return 0;  // PTX, or nothing known
  bool known;
  return cubin_globals(b, known);
}

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
