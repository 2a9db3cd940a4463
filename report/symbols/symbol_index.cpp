#include "report/symbols/symbol_index.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace cudaleak::symbols {

namespace {

// A section's bytes, when they lie inside the mapping.
bool inside(size_t map_size, uint64_t offset, uint64_t size) { return offset <= map_size && size <= map_size - offset; }

// libdw's preference among symbols at one address: global, weak, local.
uint8_t rank_of(const Elf64_Sym& s) {
  uint8_t bind = ELF64_ST_BIND(s.st_info);
  return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : bind == STB_LOCAL ? 2 : 3;
}

// The symbols libdw names addresses by: defined ones, except sections, files and TLS.
bool names_addresses(const Elf64_Sym& s) {
  const unsigned type = ELF64_ST_TYPE(s.st_info);
  const bool defined = s.st_shndx != SHN_UNDEF && (s.st_shndx < SHN_LORESERVE || s.st_shndx == SHN_XINDEX);
  return defined && s.st_value != 0 && s.st_name != 0 && type != STT_SECTION && type != STT_FILE && type != STT_TLS;
}

// How many entries a lookup walks back at most: symbols nested in others
// are few; a bound keeps a pathological table from costing a scan.
constexpr size_t kMaxWalk = 4096;

}  // namespace

std::unique_ptr<SymbolIndex> SymbolIndex::load(const std::string& path, size_t min_symbols) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || size_t(st.st_size) < sizeof(Elf64_Ehdr)) {
    ::close(fd);
    return nullptr;
  }
  const size_t size = size_t(st.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return nullptr;
  std::unique_ptr<SymbolIndex> index(new SymbolIndex());
  index->map_ = map;
  index->map_size_ = size;

  const auto* bytes = static_cast<const unsigned char*>(map);
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      !inside(size, eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr)))
    return nullptr;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  std::memcpy(sections.data(), bytes + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
  const Elf64_Shdr* table = nullptr;
  for (unsigned want : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const auto& s : sections)
      if (s.sh_type == want && s.sh_size) {
        table = &s;
        break;
      }
    if (table) break;
  }
  if (!table || table->sh_entsize != sizeof(Elf64_Sym) || table->sh_link >= sections.size() ||
      !inside(size, table->sh_offset, table->sh_size))
    return nullptr;
  const Elf64_Shdr& strings = sections[table->sh_link];
  if (!inside(size, strings.sh_offset, strings.sh_size) || strings.sh_size == 0) return nullptr;
  const size_t count = table->sh_size / sizeof(Elf64_Sym);
  if (count < min_symbols) return nullptr;
  index->strings_ = reinterpret_cast<const char*>(bytes + strings.sh_offset);
  index->strings_size_ = strings.sh_size;

  index->symbols_.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym s;
    std::memcpy(&s, bytes + table->sh_offset + i * sizeof(Elf64_Sym), sizeof s);
    if (!names_addresses(s) || s.st_name >= strings.sh_size) continue;
    index->symbols_.push_back(Symbol{s.st_value, s.st_size, s.st_name, uint32_t(i), rank_of(s)});
    index->largest_ = std::max(index->largest_, s.st_size);
  }
  std::sort(index->symbols_.begin(), index->symbols_.end(), [](const Symbol& a, const Symbol& b) {
    return std::tie(a.value, a.rank, a.order) < std::tie(b.value, b.rank, b.order);
  });
  return index;
}

SymbolIndex::~SymbolIndex() {
  if (map_) ::munmap(const_cast<void*>(map_), map_size_);
}

const char* SymbolIndex::lookup(uint64_t vaddr, uint64_t* offset) const {
  // As libdw's dwfl_module_addrsym: the sized symbol containing vaddr that
  // starts nearest to it; at one address the best binding, then the first in
  // the table. Without one, the nearest symbol without size (an assembly
  // label), unless a sized symbol reaches past that label.
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                             [](uint64_t v, const Symbol& s) { return v < s.value; });
  const Symbol* sized = nullptr;
  const Symbol* label = nullptr;
  uint64_t reach = 0;  // the furthest end of the sized symbols seen
  for (size_t walked = 0; it != symbols_.begin() && walked < kMaxWalk; ++walked) {
    const Symbol& s = *--it;
    if (sized && s.value < sized->value) break;  // nothing earlier starts nearer
    const uint64_t floor = label ? label->value : vaddr;
    if (s.value + largest_ <= floor && !(label && s.value == label->value)) break;  // nothing earlier reaches
    if (s.size) {
      reach = std::max(reach, s.value + s.size);
      if (vaddr < s.value + s.size && (!sized || s.rank <= sized->rank)) sized = &s;
    } else if (!label || (s.value == label->value && s.rank <= label->rank)) {
      label = &s;
    }
  }
  const Symbol* found = sized ? sized : label && reach <= label->value ? label : nullptr;
  if (!found) return nullptr;
  // Names end inside the string table: load() checked that the offset is in
  // it; a name running past its end is not read.
  const char* name = strings_ + found->name;
  if (!std::memchr(name, '\0', strings_size_ - found->name)) return nullptr;
  if (offset) *offset = vaddr - found->value;
  return name;
}

const SymbolIndex* indexed_symbols(const std::string& path) {
  using Key = std::tuple<std::string, dev_t, ino_t, off_t, int64_t>;
  static auto* indexes = new std::map<Key, std::unique_ptr<SymbolIndex>>();  // never destroyed: exit reports
  struct stat st {};
  if (path.empty() || path[0] != '/' || ::stat(path.c_str(), &st) != 0) return nullptr;
  Key key{path, st.st_dev, st.st_ino, st.st_size, int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
  auto it = indexes->find(key);
  if (it == indexes->end()) it = indexes->emplace(key, SymbolIndex::load(path)).first;
  return it->second.get();
}

}  // namespace cudaleak::symbols
