#include "interpose/runtime/reachability.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ctime>

#include "common/proc_self.h"
#include "common/kinds.h"
#include "interpose/base/loaded_objects.h"
#include "interpose/base/log.h"
#include "interpose/base/options_in_effect.h"
#include "interpose/base/own_threads.h"
#include "interpose/runtime/library_threads.h"
#include "interpose/runtime/reach_maps.h"
#include "interpose/runtime/reach_scan.h"
#include "interpose/runtime/reach_static_runtime.h"
#include "interpose/runtime/runtime.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/track/libunwind_api.h"
#include "interpose/track/tracker.h"

namespace cudaleak::reachability {

using namespace reach;

namespace {

// Handle values below this are small integers (texture objects, cuFFT
// plans): any counter would match them.
constexpr uint64_t kSmallestHandle = 0x10000;

struct Label {
  report::ReachRoot kind = report::ReachRoot::None;
  const char* module = "";  // the loader's name, valid while the scan runs
};

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + uint64_t(ts.tv_nsec);
}

struct Work {
  Scan scan;
  MappedArray<Label> labels;
  MappedArray<Mapping> maps;
  MappedArray<uint64_t> root_mappings;    // begins of mappings scanned as roots (stacks): never followed
  MappedArray<uint64_t> excluded_blocks;  // heap blocks of excluded objects' thread-local storage
  MappedArray<Range> runtime_globals;
  // Every loaded object's writable segments: their .bss past the file's end
  // reads as anonymous memory, but is a root or excluded, never a heap block.
  MappedArray<Range> segments;
  // The code of the C library and the loader: their frames on the reporting
  // thread's stack (exit, _dl_fini) lie where the program's returned frames
  // were, and keep their stale words in slots they never write.
  MappedArray<Range> system_code;
  char exe[4096] = {};
  // A Python process: CPython's object arenas keep freed objects' stale
  // words, and a Python object rarely holds device memory as a raw word, so
  // anonymous memory of unknown layout is not followed (malloc's chunks are).
  bool python = false;
  uint64_t threads = 0, threads_unseen = 0;
};

uint32_t add_label(Work& w, report::ReachRoot kind, const char* module) {
  w.labels.push_back(Label{kind, module});
  return uint32_t(w.labels.size() - 1);
}

// [begin, end) as roots, less the ranges in `holes` (sorted).
void add_root(Work& w, uint64_t begin, uint64_t end, uint32_t label, const MappedArray<Range>* holes) {
  if (holes)
    for (const Range& h : *holes) {
      if (h.end <= begin || h.begin >= end) continue;
      if (h.begin > begin) w.scan.roots.push_back(Root{begin, h.begin, label});
      begin = std::max(begin, h.end);
    }
  if (begin < end) w.scan.roots.push_back(Root{begin, end, label});
}

int add_object(dl_phdr_info* info, size_t, void* data) {
  Work& w = *static_cast<Work*>(data);
  const bool executable = !info->dlpi_name || !info->dlpi_name[0];
  const char* path = executable ? w.exe : info->dlpi_name;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const uint64_t begin = info->dlpi_addr + ph.p_vaddr;
    w.segments.push_back(Range{begin & ~uint64_t(4095), (begin + ph.p_memsz + 4095) & ~uint64_t(4095)});
  }
  const char* base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  if (std::strncmp(base, "libc.so", 7) == 0 || std::strncmp(base, "ld-linux", 8) == 0)
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr)& ph = info->dlpi_phdr[i];
      if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
        w.system_code.push_back(Range{info->dlpi_addr + ph.p_vaddr, info->dlpi_addr + ph.p_vaddr + ph.p_memsz});
    }
  if (!executable && (excluded_object(path) || info->dlpi_addr == own_load_bias())) {
    // The calling thread's block of its thread-local storage, when dlopen'd:
    // malloc's memory, which the scan must not follow.
    if (info->dlpi_tls_data) w.excluded_blocks.push_back(uint64_t(info->dlpi_tls_data));
    return 0;
  }
  if (std::strstr(path, "linux-vdso") || std::strstr(path, "linux-gate")) return 0;
  const uint32_t label = add_label(w, report::ReachRoot::Global, path);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W)) continue;
    const uint64_t begin = info->dlpi_addr + ph.p_vaddr;
    add_root(w, begin, begin + ph.p_memsz, label, executable ? &w.runtime_globals : nullptr);
  }
  return 0;
}

// /proc/self/task/TID/`file` into `text`, NUL-terminated; false when
// nothing could be read (the thread ended).
bool read_task_file(uint32_t tid, const char* file, char* text, size_t size) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%u/%s", tid, file);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, text, size - 1);
  close(fd);
  text[n > 0 ? n : 0] = '\0';
  return n > 0;
}

// A blocked thread's stack pointer: /proc/self/task/TID/syscall ends in "sp pc";
// a running thread's says "running".
uint64_t stack_pointer_of(uint32_t tid) {
  char text[512];
  if (!read_task_file(tid, "syscall", text, sizeof text)) return 0;
  if (std::strncmp(text, "running", 7) == 0) return 0;
  const char* fields[16];
  int count = 0;
  for (char* p = text; *p && count < 16;) {
    while (*p == ' ' || *p == '\n') *p++ = '\0';
    if (*p) fields[count++] = p;
    while (*p && *p != ' ' && *p != '\n') ++p;
  }
  return count >= 3 ? std::strtoull(fields[count - 2], nullptr, 16) : 0;
}

// Threads known by name as CUDA's, NCCL's or cudaleak's (reach_classes.cpp),
// also where pthread_create was not seen (library_threads.h).
bool library_thread(uint32_t tid) {
  char name[32];
  if (!read_task_file(tid, "comm", name, sizeof name)) return false;
  if (char* end = std::strchr(name, '\n')) *end = '\0';
  return library_thread_name(name);
}

// With --verbose, which thread's stack was a root, so that a still-reachable
// finding's root word can be placed (log_verbose on a finding).
void log_thread(uint32_t tid, uint64_t sp, bool skipped) {
  char name[32];
  if (!read_task_file(tid, "comm", name, sizeof name)) name[0] = '\0';
  if (char* end = std::strchr(name, '\n')) *end = '\0';
  log_verbose("reachability: thread %u (%s) %s from 0x%llx", tid, name, skipped ? "not scanned" : "scanned",
              static_cast<unsigned long long>(sp));
}

void add_stack(Work& w, uint64_t sp, uint32_t label) {
  const Mapping* m = mapping_at(w.maps, sp);
  if (!m || !m->writable || (m->type != MapType::Anonymous && m->type != MapType::Stack)) return;
  w.root_mappings.push_back(m->begin);
  if (label != UINT32_MAX) add_root(w, sp & ~uint64_t(7), m->end, label, nullptr);
}

bool is_root_mapping(const Work& w, uint64_t begin) {
  return std::find(w.root_mappings.begin(), w.root_mappings.end(), begin) != w.root_mappings.end();
}

// A thread's stack as glibc maps it: a guard page right below, and neither
// an arena's heap nor chunks mmapped by malloc (adjacent mappings read as one).
bool looks_like_stack(const Work& w, size_t i, WindowReader& reader) {
  const Mapping& m = w.maps[i];
  if (i == 0 || m.type != MapType::Anonymous || w.maps[i - 1].end != m.begin || w.maps[i - 1].readable ||
      w.maps[i - 1].writable)
    return false;
  uint64_t heap_end = 0, prev_size = 1, head = 0;
  if (arena_first_chunk(reader, m.begin, m.end, heap_end)) return false;
  return !(reader.word(m.begin, prev_size) && reader.word(m.begin + 8, head) && prev_size == 0 && (head & 2));
}

// The reporting thread's stack above entry_sp, frame by frame, less the
// frames of the C library and the loader; all of it where it cannot be unwound.
void add_reporting_stack(Work& w, uint64_t entry_sp, uint64_t end, uint32_t label) {
  const LibUnwind& api = libunwind();
  unw_context_t context;
  unw_cursor_t cursor;
  if (!api.can_walk() || api.getcontext(&context) != 0 || api.init_local(&cursor, &context) != 0) {
    add_root(w, entry_sp, end, label, nullptr);
    return;
  }
  uint64_t ip = 0, sp = 0;
  bool have = false;
  for (int depth = 0; depth < 512; ++depth) {
    unw_word_t next_ip = 0, next_sp = 0;
    if (api.step(&cursor) <= 0 || api.get_reg(&cursor, UNW_REG_IP, &next_ip) != 0 ||
        api.get_reg(&cursor, UNW_REG_SP, &next_sp) != 0 || next_sp <= sp || next_sp > end)
      break;
    // The frame of `ip` spans [sp, next_sp).
    if (have && sp >= entry_sp) {
      const bool system = std::any_of(w.system_code.begin(), w.system_code.end(),
                                      [&](const Range& r) { return ip >= r.begin && ip < r.end; });
      if (!system) {
        add_root(w, sp, next_sp, label, nullptr);
        log_verbose("reachability: the reporting thread's frame at 0x%llx..0x%llx (code 0x%llx) scanned",
                    static_cast<unsigned long long>(sp), static_cast<unsigned long long>(next_sp),
                    static_cast<unsigned long long>(ip));
      }
    } else if (have && next_sp > entry_sp) {
      add_root(w, entry_sp, next_sp, label, nullptr);  // the entry frame's callers start inside it
    }
    ip = next_ip, sp = next_sp, have = true;
  }
  add_root(w, std::max(sp, entry_sp), end, label, nullptr);  // the outermost frame and what lies above it
}

// A thread's id as gettid() gives it, from its entry in /proc/self/task.
// Where /proc was mounted for another PID namespace (`unshare --pid` without
// a /proc of its own, some sandboxes), the entries are that namespace's ids:
// the last field of NSpid in the thread's status is this namespace's. Without
// the translation the reporting thread would scan its own stack, cudaleak's
// frames and all, and the program's main thread would go unrecognised.
uint32_t own_namespace_tid(uint32_t listed, bool foreign_proc) {
  if (!foreign_proc) return listed;
  char text[2048];
  if (!read_task_file(listed, "status", text, sizeof text)) return 0;
  const char* line = std::strstr(text, "\nNSpid:");
  if (!line) return 0;
  uint32_t last = 0;
  for (const char* p = line + 7; *p && *p != '\n';) {
    while (*p == ' ' || *p == '\t') ++p;
    if (*p < '0' || *p > '9') break;
    last = uint32_t(std::strtoul(p, const_cast<char**>(&p), 10));
  }
  return last;
}

// Every thread's stack from its stack pointer up; cudaleak's own threads not at all.
void add_threads(Work& w, uint64_t entry_sp) {
  const uint32_t stack = add_label(w, report::ReachRoot::Stack, "");
  const auto self = uint32_t(syscall(SYS_gettid));
  // The reporting thread: the frames above cudaleak's entry only.
  const uint64_t here = uint64_t(__builtin_frame_address(0));
  add_stack(w, here, UINT32_MAX);
  const Mapping* own = mapping_at(w.maps, here);
  if (entry_sp && !is_own_thread(self) && own && entry_sp >= here && entry_sp < own->end) {
    add_reporting_stack(w, entry_sp & ~uint64_t(7), own->end, stack);
    ++w.threads;
  }
  for (int slot = 0; slot < kOwnThreadSlots; ++slot)  // running or not, their stacks are cudaleak's
    if (uintptr_t sp = own_thread_stack(slot)) add_stack(w, sp, UINT32_MAX);
  int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) char buffer[4096];
  bool main_seen = false;
  const bool foreign_proc = proc_of_another_namespace();
  for (long n; (n = syscall(SYS_getdents64, dir, buffer, sizeof buffer)) > 0;)
    for (long at = 0; at < n;) {
      auto* entry = reinterpret_cast<dirent64*>(buffer + at);
      at += entry->d_reclen;
      const auto tid = uint32_t(std::strtoul(entry->d_name, nullptr, 10));  // /proc's id: its files' names
      const uint32_t own_tid = own_namespace_tid(tid, foreign_proc);        // gettid()'s
      if (!tid || own_tid == self) continue;
      const uint64_t sp = stack_pointer_of(tid);
      if (own_tid == uint32_t(getpid())) main_seen = sp != 0;
      if (!sp) {
        w.threads_unseen += !is_own_thread(own_tid) && !library_thread(tid);
        continue;
      }
      const Mapping* m = mapping_at(w.maps, sp);
      const bool skipped = is_own_thread(own_tid) || library_thread(tid) ||
                           (m && started_by_cuda_library(m->begin, m->end));
      add_stack(w, sp, skipped ? UINT32_MAX : stack);
      w.threads += !skipped;
      if (options().verbose) log_thread(tid, sp, skipped);
    }
  close(dir);
  if (self == uint32_t(getpid())) main_seen = true;
  // A running thread's stack pointer is not known: every mapping that looks
  // like a thread's stack (glibc puts a guard below it) is scanned whole,
  // and the main thread's [stack] when it is the one running.
  WindowReader probe;
  for (size_t i = 0; i < w.maps.size(); ++i) {
    const Mapping& m = w.maps[i];
    if (!m.writable || is_root_mapping(w, m.begin)) continue;
    const bool main_stack = m.type == MapType::Stack;
    if ((main_stack && !main_seen) ||
        (w.threads_unseen && looks_like_stack(w, i, probe) && !started_by_cuda_library(m.begin, m.end))) {
      w.root_mappings.push_back(m.begin);
      add_root(w, m.begin, m.end, stack, nullptr);
      log_verbose("reachability: mapping 0x%llx..0x%llx scanned whole as a thread's stack",
                  static_cast<unsigned long long>(m.begin), static_cast<unsigned long long>(m.end));
    } else if (main_stack) {
      w.root_mappings.push_back(m.begin);  // scanned from its stack pointer, never followed
    }
  }
}

// The writable anonymous memory a pointer may lead into, as pieces.
void add_regions(Work& w, WindowReader& reader, size_t max_pieces) {
  WalkLimits limits{max_pieces};
  for (size_t i = 0; i < w.maps.size(); ++i) {
    const Mapping& m = w.maps[i];
    // A thread's stack (a guard page below it) is a root when its thread is
    // the program's, never a block to follow (a thread just started, not yet
    // seen in /proc, is pointed to by the thread list).
    const bool guarded = looks_like_stack(w, i, reader);
    if (!m.readable || !m.writable || m.shared ||
        (m.type != MapType::Anonymous && m.type != MapType::Heap && m.type != MapType::Stack))
      continue;
    Region r{m.begin, m.end, uint32_t(w.scan.pieces.size()), 0, false};
    uint64_t heap_end = 0;
    const bool segment = std::any_of(w.segments.begin(), w.segments.end(),
                                     [&](const Range& s) { return s.begin < m.end && m.begin < s.end; });
    if (m.type == MapType::Stack || segment || owned_by_scan(m.begin) || is_root_mapping(w, m.begin)) {
      r.excluded = true;
    } else if (m.type == MapType::Heap) {
      walk_heap(reader, m.begin, m.end, w.scan.pieces, limits);
    } else if (uint64_t first = arena_first_chunk(reader, m.begin, m.end, heap_end)) {
      walk_heap(reader, first, heap_end, w.scan.pieces, limits);
    } else if (guarded) {
      r.excluded = true;
    } else if (!walk_mmapped(reader, m.begin, m.end, w.scan.pieces)) {
      if (w.python) r.excluded = true;
      else w.scan.pieces.push_back(m.begin | kInUse | kWhole);
    }
    r.count = uint32_t(w.scan.pieces.size() - r.first);
    w.scan.regions.push_back(r);
  }
}

// glibc's tcache_key, read where a chunk freed into the main thread's tcache
// keeps it: the table is the main heap's first chunk, its entries point at
// freed chunks' data, whose second word is the key. 0 when none is freed.
uint64_t tcache_key(const Work& w) {
  for (const Mapping& m : w.maps) {
    if (m.type != MapType::Heap || !looks_like_tcache(m.begin, 16 + 64 * 2 + 64 * 8)) continue;
    uint64_t entries[64];
    if (read_own(m.begin + 16 + 64 * 2, entries, sizeof entries) != sizeof entries) return 0;
    for (uint64_t e : entries) {
      uint64_t key = 0;
      if (e && read_own(e + 8, &key, 8) == 8 && key) return key;
    }
  }
  return 0;
}

void add_targets(Work& w, const report::RawSnapshot& snapshot) {
  for (size_t i = 0; i < snapshot.resources.size(); ++i) {
    const Record& r = snapshot.resources[i];
    if (r.torn_down()) continue;
    const Search how = search_of(r.kind);
    if (how == Search::Range && r.handle)
      w.scan.targets.push_back(Target{r.handle, r.handle + std::max<uint64_t>(r.bytes, 1), uint32_t(i), false});
    if (how == Search::Exact && r.handle >= kSmallestHandle)
      w.scan.targets.push_back(Target{r.handle, r.handle + 1, uint32_t(i), true});
  }
}

void add_result(report::RawSnapshot& snapshot, const Work& w, size_t i, bool complete) {
  const Record& r = snapshot.resources[i];
  if (r.torn_down()) return;
  report::RawReach out;
  out.sequence = r.sequence;
  const Finding f = i < w.scan.findings.size() ? w.scan.findings[i] : Finding{};  // none when the scan could not start
  const Search how = search_of(r.kind);
  const bool searched = how == Search::Range ? r.handle != 0 : how == Search::Exact && r.handle >= kSmallestHandle;
  if (f.found) {
    out.state = report::Reachability::StillReachable;
    const Label& label = w.labels[f.root];
    const Mapping* m = options().verbose ? mapping_at(w.maps, f.root_word) : nullptr;
    log_verbose("reachability: %.*s #%llu still reachable: root word at 0x%llx (mapping 0x%llx..0x%llx)%s",
                int(kind_name(r.kind).size()), kind_name(r.kind).data(), static_cast<unsigned long long>(r.sequence),
                static_cast<unsigned long long>(f.root_word), static_cast<unsigned long long>(m ? m->begin : 0),
                static_cast<unsigned long long>(m ? m->end : 0), f.via_heap ? ", through a heap block" : "");
    out.root = label.kind;
    out.root_address = f.root_word;
    out.module = label.module;
    out.via_heap = f.via_heap;
    out.interior = f.interior;
  } else {
    out.state = searched && complete ? report::Reachability::DefinitelyLost : report::Reachability::NotDetermined;
  }
  snapshot.reach.push_back(std::move(out));
}

}  // namespace

void find_references(report::RawSnapshot& snapshot, uint64_t entry_sp, uint64_t byte_limit) {
  const uint64_t start = now_ns();
  snapshot.reach.clear();
  snapshot.reach_scanned = true;
  report::ReachabilityScan& stats = snapshot.reach_scan;
  stats = {};
  bool any = false;  // nothing alive to look for: no scan to pay for
  for (const Record& r : snapshot.resources) any = any || !r.torn_down();
  if (!any) {
    stats.note = "nothing alive to look for";
    return;
  }
  auto w = std::make_unique<Work>();  // before the heap is walked: its own block is then a known chunk
  w->python = pyframes::report_status().present;
  MappedArray<char> text;
  open_reads();
  struct Closer {
    ~Closer() { close_reads(); }
  } closer;
  bool ok = read_whole_file("/proc/self/maps", text, size_t(64) << 20) &&
            parse_maps(text.begin(), text.size(), w->maps);
  ssize_t n = readlink("/proc/self/exe", w->exe, sizeof w->exe - 1);
  w->exe[n > 0 ? n : 0] = '\0';
  static_runtime_globals(w->exe, 0, w->runtime_globals);  // file offsets; moved by the bias below
  ok = ok && w->scan.findings.resize(snapshot.resources.size());
  if (ok) {
    // The executable's load bias: the first object dl_iterate_phdr names.
    uint64_t bias = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* b) {
          *static_cast<uint64_t*>(b) = info->dlpi_addr;
          return 1;
        },
        &bias);
    for (Range& r : w->runtime_globals) r = Range{r.begin + bias, r.end + bias};
    dl_iterate_phdr(add_object, w.get());
    add_threads(*w, entry_sp);
    WindowReader reader;
    add_regions(*w, reader, size_t(64) << 20);
    add_targets(*w, snapshot);
    w->scan.byte_limit = byte_limit;
    ok = w->scan.prepare();
  }
  if (ok) w->scan.tcache_key = tcache_key(*w);
  if (ok) {
    tracker::own_blocks([](const void* block, void* scan) { static_cast<Scan*>(scan)->exclude_piece(uint64_t(block)); },
                        &w->scan);
    w->scan.exclude_piece(uint64_t(w.get()));
    w->scan.exclude_piece(uint64_t(&runtime()));                 // the library's state, never the program's
    w->scan.exclude_piece(uint64_t(snapshot.resources.data()));  // every handle, copied for the report
    for (uint64_t block : w->excluded_blocks) w->scan.exclude_piece(block);
    w->scan.run();
  }
  stats.complete = ok && w->scan.complete;
  if (!ok) stats.note = "the scan could not read this process's memory map or ran out of its own memory";
  else if (!w->scan.complete) stats.note = "stopped at reachability_limit before every reference was followed";
  else if (w->threads_unseen) stats.note = "threads that were running had every stack-like mapping scanned whole";
  for (size_t i = 0; i < snapshot.resources.size(); ++i) add_result(snapshot, *w, i, stats.complete);
  std::sort(snapshot.reach.begin(), snapshot.reach.end(),
            [](const report::RawReach& a, const report::RawReach& b) { return a.sequence < b.sequence; });
  stats.bytes_scanned = w->scan.bytes_scanned;
  stats.roots = w->scan.roots.size();
  stats.threads = w->threads;
  stats.threads_unseen = w->threads_unseen;
  stats.heap_blocks = w->scan.pieces_followed;
  stats.duration_ns = now_ns() - start;
}

}  // namespace cudaleak::reachability
