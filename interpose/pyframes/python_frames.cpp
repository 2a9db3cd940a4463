#include "interpose/pyframes/python_frames.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <unordered_map>

#include "common/frame_tags.h"

namespace cudaleak::pyframes {

namespace {

constexpr size_t kMaxPythonFrames = 128;
constexpr size_t kMaxMixedFrames = 512;

struct Table {
  std::deque<Frame> frames;  // index = id - 1; never shrinks
  std::unordered_map<std::string, uint32_t> ids;
};

// The table is made at the first Python frame, under the mutex, and never
// destroyed (hooks run during exit). The crash path and fork never make it:
// they may run where malloc cannot.
constinit std::mutex g_mutex;
Table* g_table = nullptr;

// Set when a walk met a frame that does not fit the layout: Python frames are
// then left out for the rest of the process.
std::atomic<bool> g_layout_mismatch{false};

uint32_t intern(const Frame& f) {
  std::string key = f.file + '\0' + f.function + '\0' + std::to_string(f.line);
  std::lock_guard lock(g_mutex);
  if (!g_table) g_table = new Table();
  Table& t = *g_table;
  auto [it, added] = t.ids.try_emplace(std::move(key), uint32_t(t.frames.size() + 1));
  if (added) t.frames.push_back(f);
  return it->second;
}

// Per-thread, direct-mapped memory of (code object, offset) -> frame id. A
// hit is checked against the code object's file and name objects, so a code
// object freed and another allocated at its address is not mistaken for it.
struct Remembered {
  const void* code = nullptr;
  int byte_offset = 0;
  const void* filename_object = nullptr;
  const void* name_object = nullptr;
  uint32_t id = 0;
};
constexpr size_t kRemembered = 256;
__attribute__((tls_model("initial-exec"))) thread_local Remembered t_remembered[kRemembered];

uint32_t frame_id(const Interpreter& py, const RawFrame& raw) {
  size_t slot = (reinterpret_cast<uintptr_t>(raw.code) >> 4 ^ size_t(raw.byte_offset) * 0x9e3779b1u) % kRemembered;
  Remembered& r = t_remembered[slot];
  if (r.id && r.code == raw.code && r.byte_offset == raw.byte_offset) {
    const void *filename = nullptr, *name = nullptr;
    code_identity(py, raw.code, filename, name);
    if (filename == r.filename_object && name == r.name_object) return r.id;
  }
  CodeText text;
  read_code(py, raw.code, text);
  uint32_t id = intern(Frame{text.file, text.function, line_of(py, raw.code, raw.byte_offset)});
  r = Remembered{raw.code, raw.byte_offset, text.filename_object, text.name_object, id};
  return id;
}

bool in_eval_loop(const Interpreter& py, uint64_t return_address) {
  return return_address > py.eval_begin && return_address <= py.eval_end;
}

bool in_interpreter(const Interpreter& py, uint64_t return_address) {
  return return_address > py.code_begin && return_address <= py.code_end;
}

}  // namespace

bool detail::look_for_interpreter() { return interpreter() && !g_layout_mismatch.load(std::memory_order_relaxed); }

size_t interleave(uint64_t* ips, size_t n, size_t capacity) {
  const Interpreter* py = interpreter();
  if (!py || g_layout_mismatch.load(std::memory_order_relaxed)) return n;
  RawFrame raw[kMaxPythonFrames];
  size_t count = walk_this_thread(*py, raw, kMaxPythonFrames);
  if (count == SIZE_MAX) {
    g_layout_mismatch.store(true, std::memory_order_relaxed);
    detail::g_active.store(0, std::memory_order_relaxed);
    return n;
  }
  if (count == 0) return n;
  uint64_t python[kMaxPythonFrames];
  for (size_t i = 0; i < count; ++i) python[i] = report::python_frame_ip(frame_id(*py, raw[i]));

  uint64_t out[kMaxMixedFrames];
  capacity = std::min(capacity, kMaxMixedFrames);
  size_t o = 0, next = 0;
  for (size_t i = 0; i < n && o < capacity; ++i) {
    if (next < count && in_eval_loop(*py, ips[i])) {
      // This eval-loop frame ran the Python frames up to its entry frame.
      do out[o++] = python[next];
      while (!raw[next++].last_of_eval_call && next < count && o < capacity);
      continue;
    }
    // The interpreter's own native frames between two Python frames (calls,
    // vectorcall, the eval loop's helpers) say nothing the Python frames do
    // not, and vary with the interpreter's build: left out, as memray does.
    if (next > 0 && next < count && in_interpreter(*py, ips[i])) continue;
    out[o++] = ips[i];
  }
  // Frames the native stack had no place for (it was cut at the depth limit,
  // or the unwinder stopped early) are the outermost: they go last.
  while (next < count && o < capacity) out[o++] = python[next++];
  std::copy(out, out + o, ips);
  return o;
}

uint32_t intern_device_frame(const std::string& kernel, uint64_t pc, const std::string& file, int line) {
  std::string key = "\1device\0" + kernel + '\0' +
                    (line > 0 ? file + '\0' + std::to_string(line) : "pc\0" + std::to_string(pc));
  std::lock_guard lock(g_mutex);
  if (!g_table) g_table = new Table();
  Table& t = *g_table;
  auto [it, added] = t.ids.try_emplace(std::move(key), uint32_t(t.frames.size() + 1));
  if (added) t.frames.push_back(line > 0 ? Frame{file, kernel, line} : Frame{"", kernel, 0});
  return it->second;
}

std::vector<Frame> frames() {
  std::lock_guard lock(g_mutex);
  if (!g_table) return {};
  return {g_table->frames.begin(), g_table->frames.end()};
}

Status report_status() {
  Status s = status();
  if (s.frames && g_layout_mismatch.load(std::memory_order_relaxed)) {
    s.frames = false;
    s.note = "frames of Python " + s.version + " did not match the layout cudaleak knows; stacks are native only";
  }
  return s;
}

std::mutex& mutex() { return g_mutex; }

bool visit_if_free(void (*f)(void*, uint32_t, const Frame&), void* context, bool (*try_lock)(std::mutex&)) {
  if (!try_lock(g_mutex)) return false;
  if (g_table)
    for (size_t i = 0; i < g_table->frames.size(); ++i) f(context, uint32_t(i + 1), g_table->frames[i]);
  g_mutex.unlock();
  return true;
}

}  // namespace cudaleak::pyframes
