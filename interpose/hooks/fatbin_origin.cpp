#include "fatbin_origin.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <mutex>

namespace cudaleak {

namespace {

struct Range {
  uintptr_t begin = 0, end = 0;
};

// The fatbin sections of one loaded object, by its load address.
struct ObjectFatbins {
  uintptr_t base = 0;
  Range ranges[4];
  int count = 0;
};

bool read_at(int fd, void* out, size_t size, off_t offset) {
  return pread(fd, out, size, offset) == ssize_t(size);
}

ObjectFatbins scan(const char* path, uintptr_t base) {
  ObjectFatbins o;
  o.base = base;
  int fd = open(path && *path ? path : "/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return o;
  Elf64_Ehdr eh;
  if (read_at(fd, &eh, sizeof eh, 0) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shstrndx < eh.e_shnum &&
      eh.e_shnum < 4096) {
    Elf64_Shdr names;
    read_at(fd, &names, sizeof names, off_t(eh.e_shoff + eh.e_shstrndx * sizeof(Elf64_Shdr)));
    for (int i = 0; i < eh.e_shnum && o.count < 4; ++i) {
      Elf64_Shdr sh;
      if (!read_at(fd, &sh, sizeof sh, off_t(eh.e_shoff + i * sizeof(Elf64_Shdr)))) break;
      char name[20] = {};
      if (!sh.sh_addr || !read_at(fd, name, sizeof name - 1, off_t(names.sh_offset + sh.sh_name))) continue;
      if (std::strcmp(name, ".nv_fatbin") == 0 || std::strcmp(name, "__nv_relfatbin") == 0)
        o.ranges[o.count++] = Range{base + sh.sh_addr, base + sh.sh_addr + sh.sh_size};
    }
  }
  close(fd);
  return o;
}

std::mutex g_mutex;
ObjectFatbins g_objects[64];
int g_objects_count = 0;

}  // namespace

bool is_registered_fatbin(const void* image) {
  Dl_info info;
  link_map* map = nullptr;
  if (!image || !dladdr1(image, &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) || !map) return false;
  std::lock_guard lock(g_mutex);
  const ObjectFatbins* object = nullptr;
  for (int i = 0; i < g_objects_count && !object; ++i)
    if (g_objects[i].base == map->l_addr) object = &g_objects[i];
  ObjectFatbins scanned;
  if (!object) {
    scanned = scan(map->l_name, map->l_addr);
    if (g_objects_count < 64) g_objects[g_objects_count++] = scanned;
    object = &scanned;
  }
  auto a = reinterpret_cast<uintptr_t>(image);
  for (int i = 0; i < object->count; ++i)
    if (a >= object->ranges[i].begin && a < object->ranges[i].end) return true;
  return false;
}

}  // namespace cudaleak
