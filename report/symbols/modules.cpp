#include "modules.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace cudaleak::symbols {

namespace {

std::string hex_of(const unsigned char* bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  for (size_t k = 0; k < n; ++k) {
    hex += digits[bytes[k] >> 4];
    hex += digits[bytes[k] & 15];
  }
  return hex;
}

std::string build_id_of(const dl_phdr_info* info) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    auto* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* name = p + sizeof(ElfW(Nhdr));
      const char* desc = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0)
        return hex_of(reinterpret_cast<const unsigned char*>(desc), note->n_descsz);
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return "";
}

std::string self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

}  // namespace

std::vector<report::Module> loaded_modules() {
  std::vector<report::Module> modules;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        auto* list = static_cast<std::vector<report::Module>*>(out);
        std::string path = info->dlpi_name ? info->dlpi_name : "";
        if (path.empty() && list->empty()) path = self_exe();  // the main program has no name here
        if (path.empty()) return 0;                             // vdso and anonymous objects
        list->push_back(report::Module{path, info->dlpi_addr, build_id_of(info)});
        return 0;
      },
      &modules);
  return modules;
}

report::Process current_process() {
  report::Process p;
  p.pid = getpid();
  p.ppid = getppid();
  p.exe = self_exe();
  // The rank of a distributed job, as the common launchers export it.
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "LOCAL_RANK", "PMI_RANK"}) {
    const char* value = std::getenv(name);
    if (value && *value) {
      p.rank = std::atoi(value);
      break;
    }
  }
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  for (size_t start = 0; start < all.size();) {
    size_t end = all.find('\0', start);
    if (end == std::string::npos) end = all.size();
    p.argv.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return p;
}

std::string file_build_id(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < sizeof(ElfW(Ehdr)) || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0) return "";
  auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(file.data());
  if (eh->e_phoff + size_t(eh->e_phnum) * sizeof(ElfW(Phdr)) > file.size()) return "";
  auto* ph = reinterpret_cast<const ElfW(Phdr)*>(file.data() + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type != PT_NOTE || ph[i].p_offset + ph[i].p_filesz > file.size()) continue;
    const char* p = file.data() + ph[i].p_offset;
    const char* end = p + ph[i].p_filesz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* name = p + sizeof(ElfW(Nhdr));
      const char* desc = name + ((note->n_namesz + 3) & ~3u);
      if (desc + note->n_descsz > end) break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0)
        return hex_of(reinterpret_cast<const unsigned char*>(desc), note->n_descsz);
      p = desc + ((note->n_descsz + 3) & ~3u);
    }
  }
  return "";
}

}  // namespace cudaleak::symbols
