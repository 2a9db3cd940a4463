#include "interpose/pyframes/interpreter.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "interpose/base/real_dlsym.h"

namespace cudaleak::pyframes {

namespace {

constexpr size_t kMaxWalkSteps = 4096;  // a cycle in a corrupt chain ends here
constexpr size_t kMaxTextLength = 4096;

template <typename T>
T load(const void* base, size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof value);
  return value;
}

// A libpython loaded with RTLD_LOCAL (an application that embeds Python) is
// not in the global scope: find it among the loaded objects.
void* local_libpython() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        const char* name = info->dlpi_name ? info->dlpi_name : "";
        const char* base = std::strrchr(name, '/');
        base = base ? base + 1 : name;
        if (std::strncmp(base, "libpython3.", 11) != 0) return 0;
        *static_cast<std::string*>(data) = name;
        return 1;
      },
      &found);
  return found.empty() ? nullptr : dlopen(found.c_str(), RTLD_NOLOAD | RTLD_LAZY);
}

// The executable segments of the loaded object that holds `address`.
void executable_range(uintptr_t address, uintptr_t& begin, uintptr_t& end) {
  struct Query {
    uintptr_t address, begin = UINTPTR_MAX, end = 0;
  } q{address};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* q = static_cast<Query*>(data);
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
          holds |= ph.p_type == PT_LOAD && q->address >= lo && q->address < lo + ph.p_memsz;
        }
        if (!holds) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
          q->begin = std::min(q->begin, uintptr_t(info->dlpi_addr + ph.p_vaddr));
          q->end = std::max(q->end, uintptr_t(info->dlpi_addr + ph.p_vaddr + ph.p_memsz));
        }
        return 1;
      },
      &q);
  if (q.end > q.begin) {
    begin = q.begin;
    end = q.end;
  }
}

struct Found {
  Interpreter py;
  Status status;
};

Found find() {
  Found f;
  DlsymFn sym = real_dlsym();
  if (!sym) return f;
  void* scope = RTLD_DEFAULT;
  auto get_version = reinterpret_cast<const char* (*)()>(sym(scope, "Py_GetVersion"));
  if (!get_version) {
    scope = local_libpython();
    if (!scope) return f;
    get_version = reinterpret_cast<const char* (*)()>(sym(scope, "Py_GetVersion"));
    if (!get_version) return f;
  }
  f.status.present = true;
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(get_version(), "%d.%d.%d", &major, &minor, &patch) < 2) {
    f.status.note = "the interpreter's version could not be read; stacks are native only";
    return f;
  }
  f.status.version = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  Interpreter& py = f.py;
  py.version = f.status.version;
  py.layout = layout_for(major, minor);
  if (!py.layout) {
    f.status.note = "Python " + py.version +
                    " has no frame layout in this cudaleak (3.9 to 3.13 do); stacks are "
                    "native only";
    return f;
  }
  py.this_thread_state = reinterpret_cast<void* (*)()>(sym(scope, "PyGILState_GetThisThreadState"));
  py.is_initialized = reinterpret_cast<int (*)()>(sym(scope, "Py_IsInitialized"));
  py.addr2line = reinterpret_cast<int (*)(const void*, int)>(sym(scope, "PyCode_Addr2Line"));
  py.code_type = sym(scope, "PyCode_Type");
  py.unicode_type = sym(scope, "PyUnicode_Type");
  if (!py.this_thread_state || !py.is_initialized || !py.addr2line || !py.code_type || !py.unicode_type) {
    py.layout = nullptr;
    f.status.note = "Python " + py.version +
                    " does not export the functions frames are read with; stacks are "
                    "native only";
    return f;
  }
  if (void* eval = sym(scope, "_PyEval_EvalFrameDefault")) {
    Dl_info info;
    ElfW(Sym)* entry = nullptr;
    if (dladdr1(eval, &info, reinterpret_cast<void**>(&entry), RTLD_DL_SYMENT) && entry && entry->st_size) {
      py.eval_begin = reinterpret_cast<uintptr_t>(eval);
      py.eval_end = py.eval_begin + entry->st_size;
      executable_range(py.eval_begin, py.code_begin, py.code_end);
    }
  }
  f.status.frames = true;
  return f;
}

const Found& found() {
  static const Found* f = new Found(find());  // never destroyed: hooks run during exit
  return *f;
}

void append_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

// A str object's text, for compact strings (every identifier and file name).
bool read_text(const Interpreter& py, const void* s, std::string& out) {
  if (!s || load<const void*>(s, 8) != py.unicode_type) return false;
  auto length = load<int64_t>(s, 16);
  auto state = load<uint32_t>(s, 32);
  unsigned kind = (state >> 2) & 7;
  bool compact = (state >> 5) & 1, ascii = (state >> 6) & 1;
  if (!compact || length < 0 || size_t(length) > kMaxTextLength) return false;
  const char* data = static_cast<const char*>(s) + (ascii ? py.layout->ascii_header : py.layout->compact_header);
  out.clear();
  if (ascii || kind == 1) {
    for (int64_t i = 0; i < length; ++i) append_utf8(out, static_cast<unsigned char>(data[i]));
  } else if (kind == 2) {
    for (int64_t i = 0; i < length; ++i) append_utf8(out, load<uint16_t>(data, size_t(i) * 2));
  } else if (kind == 4) {
    for (int64_t i = 0; i < length; ++i) append_utf8(out, load<uint32_t>(data, size_t(i) * 4));
  } else {
    return false;
  }
  return true;
}

}  // namespace

const Interpreter* interpreter() {
  const Found& f = found();
  return f.status.frames ? &f.py : nullptr;
}

Status status() { return found().status; }

size_t walk_this_thread(const Interpreter& py, RawFrame* out, size_t capacity) {
  const CPythonLayout& l = *py.layout;
  if (!py.is_initialized()) return 0;
  const void* thread = py.this_thread_state();
  if (!thread) return 0;
  const void* frame = load<const void*>(thread, l.thread_frame);
  if (l.chain == FrameChain::CFrame) frame = frame ? load<const void*>(frame, l.cframe_current) : nullptr;
  size_t n = 0;
  for (size_t steps = 0; frame && n < capacity && steps < kMaxWalkSteps; ++steps) {
    const void* previous = load<const void*>(frame, l.frame_previous);
    if (l.entry == EntryMark::ShimOwner && load<char>(frame, l.frame_entry) == kShimOwner) {
      if (n) out[n - 1].last_of_eval_call = true;
      frame = previous;
      continue;
    }
    const void* code = load<const void*>(frame, l.frame_code);
    if (!code || load<const void*>(code, 8) != py.code_type) return SIZE_MAX;
    RawFrame& f = out[n++];
    f.code = code;
    switch (l.instruction) {
      case InstructionField::LastiBytes: f.byte_offset = load<int>(frame, l.frame_instruction); break;
      case InstructionField::LastiUnits: {
        int units = load<int>(frame, l.frame_instruction);
        f.byte_offset = units < 0 ? -1 : units * 2;
        break;
      }
      case InstructionField::PointerIntoCode: {
        auto at = load<uintptr_t>(frame, l.frame_instruction);
        auto start = reinterpret_cast<uintptr_t>(code) + l.code_instructions;
        f.byte_offset = at >= start && at - start < (1u << 30) ? int(at - start) : -1;
        break;
      }
    }
    f.last_of_eval_call = l.entry == EntryMark::EveryFrame ||
                          (l.entry == EntryMark::IsEntryFlag && load<bool>(frame, l.frame_entry));
    frame = previous;
  }
  return n;
}

void code_identity(const Interpreter& py, const void* code, const void*& filename_object, const void*& name_object) {
  const CPythonLayout& l = *py.layout;
  filename_object = load<const void*>(code, l.code_filename);
  name_object = load<const void*>(code, l.code_qualname ? l.code_qualname : l.code_name);
}

void read_code(const Interpreter& py, const void* code, CodeText& out) {
  code_identity(py, code, out.filename_object, out.name_object);
  if (!read_text(py, out.filename_object, out.file)) out.file = "?";
  if (!read_text(py, out.name_object, out.function)) out.function = "?";
}

int line_of(const Interpreter& py, const void* code, int byte_offset) { return py.addr2line(code, byte_offset); }

}  // namespace cudaleak::pyframes
