#include "report/symbols/modules.h"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "report/io/input_file.h"
#include "report/symbols/launcher_env.h"

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
        if (path.empty()) return 0;                            // vdso and anonymous objects
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
  const JobPlace place = job_place_of_this_process();
  p.rank = place.rank;
  p.local_rank = place.local_rank;
  p.world_size = place.world_size;
  p.launcher = place.launcher;
  char host[256] = "";
  if (gethostname(host, sizeof host - 1) == 0) p.host = host;
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

namespace {

// The ELF header and program headers of a module file a report names, read
// with bounded preads: the file is opened without blocking and must be a
// regular file, so a FIFO, /dev/zero or a directory named as a module is
// never read.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) {
    try {
      fd_ = io::open_input_file(path, "module");
    } catch (const io::InputFileError&) {
      return;
    }
    if (!read_at(0, &header_, sizeof header_) || std::memcmp(header_.e_ident, ELFMAG, SELFMAG) != 0) return;
    segments_.resize(header_.e_phnum);  // at most 65535: bounded by the field's width
    if (!read_at(header_.e_phoff, segments_.data(), segments_.size() * sizeof(ElfW(Phdr)))) segments_.clear();
  }
  ~ElfFile() {
    if (fd_ >= 0) close(fd_);
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  const std::vector<ElfW(Phdr)>& segments() const { return segments_; }
  // A segment's bytes, when it is small enough to be a note.
  std::vector<char> contents(const ElfW(Phdr) & segment) const {
    constexpr uint64_t kMaxNotes = 1 << 20;
    std::vector<char> bytes(segment.p_filesz <= kMaxNotes ? segment.p_filesz : 0);
    if (!read_at(segment.p_offset, bytes.data(), bytes.size())) bytes.clear();
    return bytes;
  }

 private:
  bool read_at(uint64_t offset, void* out, size_t n) const {
    for (size_t done = 0; done < n;) {
      ssize_t got = pread(fd_, static_cast<char*>(out) + done, n - done, off_t(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      done += size_t(got);
    }
    return fd_ >= 0;
  }

  int fd_ = -1;
  ElfW(Ehdr) header_{};
  std::vector<ElfW(Phdr)> segments_;
};

}  // namespace

std::string file_build_id(const std::string& path) {
  ElfFile file(path);
  for (const ElfW(Phdr) & segment : file.segments()) {
    if (segment.p_type != PT_NOTE) continue;
    std::vector<char> notes = file.contents(segment);
    const char* p = notes.data();
    const char* end = p + notes.size();
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

uint64_t file_first_load_address(const std::string& path) {
  uint64_t lowest = UINT64_MAX;
  const ElfFile file(path);  // named: a temporary's segments() would die before the loop ran
  for (const ElfW(Phdr) & segment : file.segments())
    if (segment.p_type == PT_LOAD && segment.p_vaddr < lowest) lowest = segment.p_vaddr;
  return lowest == UINT64_MAX ? 0 : lowest & ~uint64_t(0xfff);
}

}  // namespace cudaleak::symbols
