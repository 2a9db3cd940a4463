#include "modules.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace cudaleak::symbols {

namespace {

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
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        std::string hex;
        static const char digits[] = "0123456789abcdef";
        for (unsigned k = 0; k < note->n_descsz; ++k) {
          auto byte = static_cast<unsigned char>(desc[k]);
          hex += digits[byte >> 4];
          hex += digits[byte & 15];
        }
        return hex;
      }
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

}  // namespace cudaleak::symbols
