#include "report/symbols/device_lines.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace cudaleak::symbols {

namespace {

constexpr uint64_t kMaxSection = 64ull << 20;
constexpr size_t kMaxRows = 4u << 20;

// A bounded cursor: every read checks what is left and a failed read leaves
// the cursor failed, so a malformed program ends the decoding.
struct Cursor {
  const unsigned char* data;
  uint64_t size;
  uint64_t at = 0;
  bool ok = true;

  bool has(uint64_t n) { return ok && (ok = n <= size - at); }
  uint64_t fixed(unsigned bytes) {
    if (!has(bytes)) return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v |= uint64_t(data[at + i]) << (8 * i);
    at += bytes;
    return v;
  }
  uint64_t uleb() {
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (!has(1)) return 0;
      unsigned char b = data[at++];
      if (shift < 64) v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }
  int64_t sleb() {
    int64_t v = 0;
    unsigned shift = 0;
    unsigned char b;
    do {
      if (!has(1)) return 0;
      b = data[at++];
      if (shift < 64) v |= int64_t(uint64_t(b & 0x7f) << shift);
      shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) v |= int64_t(~uint64_t(0) << shift);  // sign-extend without overflow
    return v;
  }
  std::string_view string() {
    if (!ok || at >= size) return ok = false, std::string_view();
    const void* end = std::memchr(data + at, 0, size - at);
    if (!end) return ok = false, std::string_view();
    std::string_view s(reinterpret_cast<const char*>(data + at), static_cast<const unsigned char*>(end) - (data + at));
    at += s.size() + 1;
    return s;
  }
  void skip(uint64_t n) {
    if (has(n)) at += n;
  }
};

struct Section {
  Elf64_Shdr header{};
  std::string_view name;
};

struct Elf {
  const unsigned char* data = nullptr;
  uint64_t size = 0;
  std::vector<Section> sections;

  bool holds(uint64_t offset, uint64_t length) const { return offset <= size && length <= size - offset; }
  const unsigned char* bytes(const Section& s) const { return data + s.header.sh_offset; }
  const Section* named(std::string_view name) const {
    for (const Section& s : sections)
      if (s.name == name && s.header.sh_type != SHT_NOBITS && holds(s.header.sh_offset, s.header.sh_size)) return &s;
    return nullptr;
  }
};

bool parse_elf(const void* image, size_t size, Elf& elf) {
  elf.data = static_cast<const unsigned char*>(image);
  elf.size = size;
  Elf64_Ehdr eh;
  if (!image || size < sizeof eh) return false;
  std::memcpy(&eh, image, sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
      !elf.holds(eh.e_shoff, uint64_t(eh.e_shnum) * sizeof(Elf64_Shdr)))
    return false;
  elf.sections.resize(eh.e_shnum);
  for (uint16_t i = 0; i < eh.e_shnum; ++i)
    std::memcpy(&elf.sections[i].header, elf.data + eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), sizeof(Elf64_Shdr));
  const Elf64_Shdr& names = elf.sections[eh.e_shstrndx].header;
  if (!elf.holds(names.sh_offset, names.sh_size)) return false;
  std::string_view table(reinterpret_cast<const char*>(elf.data + names.sh_offset), names.sh_size);
  for (Section& s : elf.sections)
    if (s.header.sh_name < table.size()) {
      s.name = table.substr(s.header.sh_name);
      s.name = s.name.substr(0, s.name.find('\0'));
    }
  return true;
}

// A symbol's name: its own, or for a section symbol its section's, less
// ".text." (the kernel whose code the section holds).
struct Symbols {
  const Elf& elf;
  const Section* symtab = nullptr;
  std::string_view strings;

  std::string name(uint32_t index) const {
    if (!symtab || (uint64_t(index) + 1) * sizeof(Elf64_Sym) > symtab->header.sh_size) return {};
    Elf64_Sym s;
    std::memcpy(&s, elf.bytes(*symtab) + uint64_t(index) * sizeof s, sizeof s);
    if (ELF64_ST_TYPE(s.st_info) == STT_SECTION) {
      if (s.st_shndx >= elf.sections.size()) return {};
      std::string_view n = elf.sections[s.st_shndx].name;
      return std::string(n.substr(0, 6) == ".text." ? n.substr(6) : n);
    }
    if (s.st_name >= strings.size()) return {};
    std::string_view n = strings.substr(s.st_name);
    return std::string(n.substr(0, n.find('\0')));
  }
  bool imports(std::string_view function) const {
    if (!symtab) return false;
    for (uint64_t at = 0; at + sizeof(Elf64_Sym) <= symtab->header.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym s;
      std::memcpy(&s, elf.bytes(*symtab) + at, sizeof s);
      if (s.st_shndx != SHN_UNDEF || ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_name >= strings.size()) continue;
      std::string_view n = strings.substr(s.st_name);
      if (n.substr(0, n.find('\0')) == function) return true;
    }
    return false;
  }
};

Symbols symbols_of(const Elf& elf) {
  Symbols out{elf};
  for (const Section& s : elf.sections)
    if (s.header.sh_type == SHT_SYMTAB && elf.holds(s.header.sh_offset, s.header.sh_size) &&
        s.header.sh_link < elf.sections.size()) {
      const Elf64_Shdr& str = elf.sections[s.header.sh_link].header;
      if (!elf.holds(str.sh_offset, str.sh_size)) break;
      out.symtab = &s;
      out.strings = std::string_view(reinterpret_cast<const char*>(elf.data + str.sh_offset), str.sh_size);
      break;
    }
  return out;
}

// The relocations of the line section: at each offset in it, the symbol
// and addend that DW_LNE_set_address's operand there stands for.
struct Target {
  uint32_t symbol;
  int64_t addend;
};
std::map<uint64_t, Target> relocations_of(const Elf& elf, size_t line_section) {
  std::map<uint64_t, Target> out;
  for (const Section& s : elf.sections) {
    if ((s.header.sh_type != SHT_RELA && s.header.sh_type != SHT_REL) || s.header.sh_info != line_section ||
        !elf.holds(s.header.sh_offset, s.header.sh_size))
      continue;
    const bool rela = s.header.sh_type == SHT_RELA;
    const uint64_t entry = rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    for (uint64_t at = 0; at + entry <= s.header.sh_size; at += entry) {
      Elf64_Rela r{};
      std::memcpy(&r, elf.bytes(s) + at, entry);
      out[r.r_offset] = Target{uint32_t(ELF64_R_SYM(r.r_info)), rela ? r.r_addend : 0};
    }
  }
  return out;
}

}  // namespace

class LineProgramReader {
 public:
  LineProgramReader(DeviceLineTable& table, const Symbols& symbols, const std::map<uint64_t, Target>& relocations)
      : table_(table), symbols_(symbols), relocations_(relocations) {}

  // One unit of the section: header, file table, then its line program.
  bool unit(Cursor& c) {
    uint64_t length = c.fixed(4);
    unsigned offset_size = 4;
    if (length == 0xffffffff) length = c.fixed(8), offset_size = 8;
    if (!c.has(length)) return false;
    Cursor u{c.data, c.at + length, c.at};
    c.at += length;
    const unsigned version = unsigned(u.fixed(2));
    if (version < 2 || version > 5) return false;
    if (version >= 5) u.fixed(2);  // address size, segment selector size
    const uint64_t header_length = u.fixed(offset_size);
    if (!u.has(header_length)) return false;
    const uint64_t program = u.at + header_length;
    min_instruction_ = unsigned(u.fixed(1));
    if (version >= 4) u.fixed(1);  // maximum operations per instruction (VLIW only)
    u.fixed(1);                    // default is_stmt
    line_base_ = int8_t(u.fixed(1));
    line_range_ = unsigned(u.fixed(1));
    opcode_base_ = unsigned(u.fixed(1));
    if (!u.ok || line_range_ == 0 || opcode_base_ == 0) return false;
    lengths_.assign(opcode_base_, 0);
    for (unsigned i = 1; i < opcode_base_; ++i) lengths_[i] = unsigned(u.fixed(1));
    files_.clear();
    if (version >= 5 ? !files_v5(u, offset_size) : !files_v2(u)) return false;
    u.at = program;
    return run(u);
  }

 private:
  bool files_v2(Cursor& u) {
    std::vector<std::string> directories{""};  // 0: the compilation's directory, not named here
    for (std::string_view d = u.string(); u.ok && !d.empty(); d = u.string()) directories.emplace_back(d);
    files_.push_back(table_.files_.size());  // index 0 is no file before DWARF 5
    table_.files_.emplace_back();
    for (std::string_view f = u.string(); u.ok && !f.empty(); f = u.string()) {
      uint64_t dir = u.uleb();
      u.uleb(), u.uleb();  // modification time, length
      add_file(dir < directories.size() ? directories[dir] : "", f);
    }
    return u.ok;
  }

  // DWARF 5: entry formats, then entries; strings inline (DW_FORM_string)
  // or in another section (not kept here: such a name reads as empty).
  bool files_v5(Cursor& u, unsigned offset_size) {
    std::vector<std::string> directories;
    auto entries = [&](bool are_files) {
      unsigned formats = unsigned(u.fixed(1));
      std::vector<std::pair<uint64_t, uint64_t>> format;  // (content type, form)
      for (unsigned i = 0; i < formats && u.ok; ++i) format.emplace_back(u.uleb(), u.uleb());
      uint64_t count = u.uleb();
      // Every entry takes at least one byte of the section: a count past what
      // is left, or entries of no fields, is malformed (not a loop to run).
      if (count && (format.empty() || count > u.size - u.at)) return false;
      for (uint64_t n = 0; n < count && u.ok; ++n) {
        std::string_view name;
        uint64_t dir = 0;
        for (auto [type, form] : format) {
          uint64_t value = 0;
          std::string_view text;
          switch (form) {
            case 0x08: text = u.string(); break;  // DW_FORM_string
            case 0x0e:
            case 0x1f: u.fixed(offset_size); break;  // DW_FORM_strp, DW_FORM_line_strp
            case 0x0b: value = u.fixed(1); break;    // DW_FORM_data1
            case 0x05: value = u.fixed(2); break;    // DW_FORM_data2
            case 0x06: value = u.fixed(4); break;    // DW_FORM_data4
            case 0x07: value = u.fixed(8); break;    // DW_FORM_data8
            case 0x1e: u.skip(16); break;            // DW_FORM_data16 (MD5)
            case 0x0f: value = u.uleb(); break;      // DW_FORM_udata
            case 0x09: u.skip(u.uleb()); break;      // DW_FORM_block
            default: return false;
          }
          if (type == 1) name = text;       // DW_LNCT_path
          else if (type == 2) dir = value;  // DW_LNCT_directory_index
        }
        if (are_files) add_file(dir < directories.size() ? directories[dir] : "", name);
        else directories.emplace_back(name);
      }
      return u.ok;
    };
    return entries(false) && entries(true);
  }

  void add_file(std::string_view directory, std::string_view name) {
    std::string path = !directory.empty() && !name.empty() && name[0] != '/'
                           ? std::string(directory) + "/" + std::string(name)
                           : std::string(name);
    files_.push_back(table_.files_.size());
    table_.files_.push_back(std::move(path));
  }

  // The state machine of DWARF's section 6.2, rows kept per function.
  bool run(Cursor& u) {
    uint64_t address = 0;
    uint64_t file = 1;
    uint64_t line = 1;  // unsigned: a hostile program's advances wrap instead of overflowing
    DeviceLineTable::Function* function = nullptr;
    auto reset = [&] {
      address = 0, file = 1, line = 1;
      function = nullptr;
    };
    auto emit = [&](bool end) {
      if (!function || address > UINT32_MAX) return;
      if (table_rows_ >= kMaxRows) {
        overflowed_ = true;  // read() drops the whole table: a cut sequence would give later pcs a wrong line
        return;
      }
      uint32_t f = file < files_.size() ? uint32_t(files_[file]) : 0;
      function->rows.push_back(
          {uint32_t(address), f, end ? -1 : int32_t(std::clamp<int64_t>(int64_t(line), 0, INT32_MAX))});
      ++table_rows_;
    };
    while (u.ok && u.at < u.size) {
      const unsigned op = unsigned(u.fixed(1));
      if (op >= opcode_base_) {
        const unsigned adjusted = op - opcode_base_;
        address += uint64_t(adjusted / line_range_) * min_instruction_;
        line += uint64_t(line_base_ + int64_t(adjusted % line_range_));
        emit(false);
        continue;
      }
      switch (op) {
        case 0: {  // extended
          const uint64_t length = u.uleb();
          if (length == 0 || !u.has(length)) return false;
          const uint64_t operand_at = u.at + 1, next = u.at + length;
          const unsigned sub = unsigned(u.fixed(1));
          if (sub == 1) {  // DW_LNE_end_sequence
            emit(true);
            reset();
          } else if (sub == 2) {  // DW_LNE_set_address: relative to the symbol it is relocated against
            const uint64_t raw = length - 1 <= 8 ? u.fixed(unsigned(length - 1)) : 0;
            auto r = relocations_.find(operand_at);
            function = nullptr;
            if (r != relocations_.end()) {
              address = raw + uint64_t(r->second.addend);
              function = &function_named(symbols_.name(r->second.symbol));
            }
          } else if (sub == 3) {  // DW_LNE_define_file (DWARF 2-4)
            std::string_view name = u.string();
            u.uleb(), u.uleb(), u.uleb();
            add_file("", name);
          }
          u.at = next;
          break;
        }
        case 1: emit(false); break;                             // DW_LNS_copy
        case 2: address += u.uleb() * min_instruction_; break;  // DW_LNS_advance_pc
        case 3: line += uint64_t(u.sleb()); break;              // DW_LNS_advance_line
        case 4: file = u.uleb(); break;                         // DW_LNS_set_file
        case 8: address += uint64_t((255 - opcode_base_) / line_range_) * min_instruction_; break;  // const_add_pc
        case 9: address += u.fixed(2); break;  // DW_LNS_fixed_advance_pc
        default:  // column, flags, isa, and opcodes this reader does not know: their operands skipped
          for (unsigned i = 0; i < lengths_[op]; ++i) u.uleb();
      }
    }
    return u.ok;
  }

  DeviceLineTable::Function& function_named(const std::string& name) {
    for (auto& f : table_.functions_)
      if (f.name == name) return f;
    table_.functions_.push_back({name, {}});
    return table_.functions_.back();
  }

  DeviceLineTable& table_;
  const Symbols& symbols_;
  const std::map<uint64_t, Target>& relocations_;
  std::vector<size_t> files_;  // this unit's file numbers -> the table's
  std::vector<unsigned> lengths_;
  unsigned min_instruction_ = 1, line_range_ = 1, opcode_base_ = 1;
  int line_base_ = 0;
  size_t table_rows_ = 0;
  bool overflowed_ = false;

 public:
  bool overflowed() const { return overflowed_; }
};

DeviceLineTable DeviceLineTable::read(const void* cubin, size_t size) {
  DeviceLineTable table;
  Elf elf;
  if (!parse_elf(cubin, size, elf)) return table;
  Symbols symbols = symbols_of(elf);
  table.calls_malloc_ = symbols.imports("malloc");
  const Section* lines = elf.named(".debug_line");
  if (!lines || lines->header.sh_size > kMaxSection) return table;
  const auto relocations = relocations_of(elf, size_t(lines - elf.sections.data()));
  LineProgramReader reader(table, symbols, relocations);
  Cursor c{elf.bytes(*lines), lines->header.sh_size};
  while (c.ok && c.at < c.size)
    if (!reader.unit(c)) break;
  if (reader.overflowed()) {  // past kMaxRows: no table, rather than one cut short
    DeviceLineTable none;
    none.calls_malloc_ = table.calls_malloc_;
    return none;
  }
  // Sequences may come in any order; a function's rows are searched by offset.
  for (Function& f : table.functions_)
    std::stable_sort(f.rows.begin(), f.rows.end(), [](const Row& a, const Row& b) { return a.offset < b.offset; });
  std::erase_if(table.functions_, [](const Function& f) { return f.rows.empty() || f.name.empty(); });
  return table;
}

DeviceLine DeviceLineTable::at(std::string_view function, uint64_t offset) const {
  for (const Function& f : functions_) {
    if (f.name != function) continue;
    // The last row at or before the offset; an end-of-sequence row covers nothing.
    auto it = std::upper_bound(f.rows.begin(), f.rows.end(), offset,
                               [](uint64_t o, const Row& r) { return o < r.offset; });
    if (it == f.rows.begin()) return {};
    const Row& r = *std::prev(it);
    if (r.line <= 0) return {};
    return {r.file < files_.size() ? files_[r.file] : std::string(), r.line};
  }
  return {};
}

std::optional<uint64_t> DeviceLineTable::offset_of(std::string_view function, int line) const {
  for (const Function& f : functions_)
    if (f.name == function)
      for (const Row& r : f.rows)
        if (r.line == line) return r.offset;
  return std::nullopt;
}

size_t DeviceLineTable::rows() const {
  size_t n = 0;
  for (const Function& f : functions_) n += f.rows.size();
  return n;
}

}  // namespace cudaleak::symbols
