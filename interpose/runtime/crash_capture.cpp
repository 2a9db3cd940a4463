#include "interpose/runtime/crash_capture.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/capture_columns.h"
#include "common/kinds.h"
#include "interpose/runtime/descriptors.h"
#include "interpose/runtime/runtime.h"
#include "report/model/report_path.h"
#include "report/symbols/launcher_env.h"
#include "interpose/runtime/reporter.h"
#include "common/safe_output.h"
#include "interpose/base/log.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/track/registry.h"
#include "interpose/track/tracker.h"

namespace cudaleak::crash_capture {

namespace {

// Built outside the handler; read-only inside it.
const std::string* g_options_text = nullptr;  // CUDALEAK_OPTIONS as this process got it
char g_gate_file[PATH_MAX];                   // CUDALEAK_GATE_DIR/<pid>.gate, or ""
// The process's place in a job (rank, local rank, world size, launcher, host)
// as JSON members, so that a crashed rank's report says which rank it was.
const std::string* g_job_members = nullptr;

// JSON into a static buffer, flushed with write(2).
class Writer final : public tracker::CrashVisitor, public Timeline::CrashVisitor {
 public:
  explicit Writer(safe_output::File& f) : file_(f) {}

  void raw(const char* s, size_t n) {
    while (n > 0) {
      size_t room = sizeof buf_ - used_;
      size_t take = n < room ? n : room;
      std::memcpy(buf_ + used_, s, take);
      used_ += take;
      s += take;
      n -= take;
      if (used_ == sizeof buf_) flush();
    }
  }
  void text(const char* s) { raw(s, std::strlen(s)); }
  void number(uint64_t v) {
    char d[24];
    size_t n = 0;
    do d[sizeof d - 1 - n++] = char('0' + v % 10);
    while ((v /= 10) != 0);
    raw(d + sizeof d - n, n);
  }
  void signed_number(int64_t v) {
    if (v < 0) {
      text("-");
      number(uint64_t(-(v + 1)) + 1);
    } else {
      number(uint64_t(v));
    }
  }
  void string(const char* s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    text("\"");
    for (size_t i = 0; i < n; ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        char e[2] = {'\\', char(c)};
        raw(e, 2);
      } else if (c < 0x20) {
        char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        raw(e, 6);
      } else {
        raw(reinterpret_cast<const char*>(&c), 1);
      }
    }
    text("\"");
  }
  void string(const char* s) { string(s, s ? std::strlen(s) : 0); }
  void separator(bool& first) {
    if (!first) text(",");
    first = false;
  }
  void flush() {
    if (used_) safe_output::write(file_, buf_, used_);
    used_ = 0;
  }

  // Sections are written in visiting order; each visitor call appends to the
  // section that is open.
  enum class Section { Resources, Notes, Stacks } section = Section::Resources;
  bool first = true;

  // Each row's values in the order of its columns (common/capture_columns.h).
  void resource(const Record& r, const char* released_by) override {
    static_assert(capture_columns::kResource.size() == 13 && capture_columns::kResource[12] == "scope",
                  "the row below writes kResource's 13 columns in order");
    if (section != Section::Resources) return;
    separator(first);
    text("[");
    auto kind = kind_name(r.kind);
    string(kind.data(), kind.size());
    text(",");
    string(creator_name(r.api));
    for (uint64_t v :
         {r.handle, r.bytes, r.sequence, r.time_ns, r.context, r.stream, uint64_t(r.stack_id), uint64_t(r.thread)}) {
      text(",");
      number(v);
    }
    text(",");
    signed_number(r.device);
    text(",");
    string(released_by ? released_by : "");
    text(",");
    number(r.scope);
    text("]\n");
  }
  void note(const report::RawNote& n) override {
    if (section != Section::Resources) return;
    notes_[notes_count_ < kNotes ? notes_count_++ : kNotes - 1] = &n;
  }
  void stack(uint32_t id, std::span<const uint64_t> frames) override {
    if (section != Section::Stacks) return;
    separator(first);
    text("[");
    number(id);
    for (uint64_t ip : frames) {
      text(",");
      number(ip);
    }
    text("]\n");
  }
  static void python_frame(void* self, uint32_t id, const pyframes::Frame& f) {
    static_assert(capture_columns::kPythonFrame.size() == 4, "the row below writes kPythonFrame's columns in order");
    auto& w = *static_cast<Writer*>(self);
    w.separator(w.first);
    w.text("[");
    w.number(id);
    w.text(",");
    w.string(f.file.data(), f.file.size());
    w.text(",");
    w.string(f.function.data(), f.function.size());
    w.text(",");
    w.signed_number(f.line);
    w.text("]\n");
  }
  // The timeline: one row per device, [device, resolution_ns, peak_time_ns,
  // peak_bytes, [[time_ns, max_total, bytes per memory kind...], ...]].
  void device(int device, uint64_t resolution_ns, uint64_t peak_time_ns, uint64_t peak_bytes) override {
    end_device();
    separator(first);
    text("[");
    signed_number(device);
    for (uint64_t v : {resolution_ns, peak_time_ns, peak_bytes}) {
      text(",");
      number(v);
    }
    text(",[");
    in_device_ = true;
    first_point_ = true;
  }
  void point(uint64_t time_ns, uint64_t max_total, const uint64_t* bytes, size_t kinds) override {
    separator(first_point_);
    text("[");
    number(time_ns);
    text(",");
    number(max_total);
    for (size_t k = 0; k < kinds; ++k) {
      text(",");
      number(bytes[k]);
    }
    text("]");
  }
  void end_device() {
    if (in_device_) text("]]\n");
    in_device_ = false;
  }
  static void mark(void* self, const report::TimelineMark& m) {
    static_assert(capture_columns::kMark.size() == 3, "the row below writes kMark's columns in order");
    auto& w = *static_cast<Writer*>(self);
    w.separator(w.first);
    w.text("[");
    const std::string_view type = report::name_of(m.type);
    w.string(type.data(), type.size());
    w.text(",");
    w.string(m.name.data(), m.name.size());
    w.text(",");
    w.number(m.time_ns);
    w.text("]\n");
  }

  void skipped(const char* what, size_t count) override {
    // The tracker is visited twice (records, then stacks): name each part once.
    for (size_t i = 0; i < skipped_count_; ++i)
      if (skipped_[i].what == what) return;
    if (skipped_count_ < kSkipped) skipped_[skipped_count_++] = {what, count};
  }
  void totals(uint64_t notes_total, uint64_t elapsed_ns) override {
    notes_total_ = notes_total;
    elapsed_ns_ = elapsed_ns;
  }

  void write_notes() {
    static_assert(capture_columns::kNote.size() == 6, "each row below writes kNote's columns in order");
    bool f = true;
    for (size_t i = 0; i < notes_count_; ++i) {
      const report::RawNote& n = *notes_[i];
      separator(f);
      text("[");
      const std::string_view type = report::name_of(n.type);
      string(type.data(), type.size());
      text(",");
      string(n.hook);
      text(",");
      number(n.handle);
      text(",");
      signed_number(n.result);
      text(",");
      number(n.stack_id);
      text(",");
      number(n.count);
      text("]");
    }
  }
  // The columns of every section, by name: readers take each field by its name.
  void write_columns() {
    text("\"columns\":{");
    bool first_section = true;
    for (const capture_columns::Section* s : capture_columns::kSections) {
      separator(first_section);
      string(s->name.data(), s->name.size());
      text(":[");
      for (size_t i = 0; i < s->count; ++i) {
        if (i) text(",");
        string(s->columns[i].data(), s->columns[i].size());
      }
      text("]");
    }
    text("}");
  }
  void write_skipped() {
    bool f = true;
    for (size_t i = 0; i < skipped_count_; ++i) {
      separator(f);
      text("{\"what\":");
      string(skipped_[i].what);
      text(",\"count\":");
      number(skipped_[i].count);
      text("}");
    }
  }
  uint64_t notes_total_ = 0, elapsed_ns_ = 0;

 private:
  safe_output::File& file_;
  char buf_[16384];
  size_t used_ = 0;
  bool in_device_ = false, first_point_ = true;
  static constexpr size_t kNotes = 256, kSkipped = 8;
  const report::RawNote* notes_[kNotes];
  size_t notes_count_ = 0;
  struct Skipped {
    const char* what;
    size_t count;
  } skipped_[kSkipped];
  size_t skipped_count_ = 0;
};

// Copies a small file (/proc/self/...) as one JSON string, or lines as an array.
void copy_file(Writer& w, const char* path, bool as_lines) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  w.text(as_lines ? "[" : "\"");
  if (fd >= 0) {
    static char chunk[4096], line[1024];
    size_t line_len = 0;
    bool first = true;
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)) {
      for (ssize_t i = 0; i < n; ++i) {
        char c = chunk[i];
        if (!as_lines) {
          if (c == '\0') w.text("\\u0000");
          else if (c == '"' || c == '\\') {
            char e[2] = {'\\', c};
            w.raw(e, 2);
          } else if (static_cast<unsigned char>(c) < 0x20) w.text(" ");
          else w.raw(&c, 1);
          continue;
        }
        if (c != '\n' && line_len < sizeof line) {
          line[line_len++] = c;
          continue;
        }
        if (c == '\n') {
          w.separator(first);
          w.string(line, line_len);
          w.text("\n");
          line_len = 0;
        }
      }
    }
    close(fd);
  }
  w.text(as_lines ? "]" : "\"");
}

safe_output::File g_file;  // static: the handler may run on a small alternate stack
Writer* g_writer = nullptr;
alignas(Writer) unsigned char g_writer_storage[sizeof(Writer)];

void tell_launcher(const char* report_path) {
  if (!g_gate_file[0]) return;
  safe_output::File gate;
  if (!safe_output::open(gate, g_gate_file)) return;
  char cwd[PATH_MAX];
  const char* lines[] = {"status=raw\nraw=", "", "", report_path, "\n"};
  if (report_path[0] != '/' && getcwd(cwd, sizeof cwd)) {
    lines[1] = cwd;
    lines[2] = "/";
  }
  for (const char* part : lines) safe_output::write(gate, part, std::strlen(part));
  safe_output::commit(gate);
}

// A crash report that cannot be written is said so on stderr, in one line
// put together without allocating (async-signal-safe); false.
bool tell_lost(const safe_output::File& f) {
  const char* why = f.problem ? f.problem : "cannot be written";
  const char* parts[] = {"cudaleak: the crash report could not be written to ",
                         f.path,
                         ": ",
                         why,
                         f.error ? " (" : "",
                         f.error ? strerrorname_np(f.error) : "",
                         f.error ? ")" : "",
                         "\n"};
  for (const char* p : parts)
    if (p) write_text(p, std::strlen(p));
  return false;
}

}  // namespace

void prepare() {
  const char* text = std::getenv("CUDALEAK_OPTIONS");
  delete g_options_text;
  g_options_text = new std::string(text ? text : "");
  g_gate_file[0] = '\0';
  // Only the place in a job and the host: this runs at every process's
  // start, where the rest of the process's description (command line,
  // executable) would be read for nothing.
  const symbols::JobPlace self = symbols::job_place_of_this_process();
  char name[256] = "";
  gethostname(name, sizeof name - 1);
  std::string host;
  for (const char* ch = name; *ch; ++ch)  // a host name is letters, digits, '-' and '.': nothing to escape
    if (std::isalnum(static_cast<unsigned char>(*ch)) || *ch == '-' || *ch == '.' || *ch == '_') host += *ch;
  delete g_job_members;
  g_job_members = new std::string(",\"rank\":" + std::to_string(self.rank) +
                                  ",\"local_rank\":" + std::to_string(self.local_rank) +
                                  ",\"world_size\":" + std::to_string(self.world_size) + ",\"launcher\":\"" +
                                  self.launcher + "\",\"host\":\"" + host + "\"");
  if (const char* dir = std::getenv("CUDALEAK_GATE_DIR"); dir && *dir) {
    std::string path = std::string(dir) + "/" + std::to_string(getpid()) + ".gate";
    if (path.size() < sizeof g_gate_file) std::memcpy(g_gate_file, path.c_str(), path.size() + 1);
  }
}

bool write(int signal) {
  descriptors::Headroom descriptors;  // a program out of descriptors still gets its capture
  char path[PATH_MAX];
  if (!report::expand_report_path_into(path, sizeof path, options().output.c_str(), int(getpid()),
                                       next_report_sequence()))
    return false;
  if (!safe_output::open(g_file, path)) return tell_lost(g_file);
  Writer& w = *(g_writer = new (g_writer_storage) Writer(g_file));
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  w.text("{\"format\":\"cudaleak-raw-capture\",\"format_version\":");
  w.number(uint64_t(capture_columns::kFormatVersion));
  w.text(",\"reason\":\"crash\",\"signal\":");
  w.number(uint64_t(signal));
  w.text(",\"tool_version\":");
  w.string(CUDALEAK_VERSION);
  w.text(",\"timestamp\":");
  w.number(uint64_t(now.tv_sec));
  w.text(",\"pid\":");
  w.number(uint64_t(getpid()));
  w.text(",\"ppid\":");
  w.number(uint64_t(getppid()));
  char exe[PATH_MAX];
  ssize_t exe_len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  w.text(",\"exe\":");
  w.string(exe, exe_len > 0 ? size_t(exe_len) : 0);
  w.text(",\"cmdline\":");
  copy_file(w, "/proc/self/cmdline", false);
  w.text(",\"options\":");
  w.string(g_options_text ? g_options_text->c_str() : "");
  w.text(",\n");
  w.write_columns();
  w.text(",\n\"resources\":[\n");
  tracker::visit_for_crash(w);  // resources (and notes remembered) now
  w.text("],\n\"notes\":[");
  w.write_notes();
  w.text("],\"notes_total\":");
  w.number(w.notes_total_);
  w.text(",\"elapsed_ns\":");
  w.number(w.elapsed_ns_);
  w.text(",\"start_unix_ns\":");
  w.number(tracker::start_unix_ns());
  w.text(",\"run_id\":");
  w.string(tracker::run_id(), std::strlen(tracker::run_id()));
  if (g_job_members) w.text(g_job_members->c_str());
  w.text(",\n\"stacks\":[\n");
  w.section = Writer::Section::Stacks;
  w.first = true;
  tracker::visit_for_crash(w);  // stacks only, after the records that name them
  w.text("],\n\"python_frames\":[\n");
  w.first = true;
  if (!pyframes::visit_if_free(&Writer::python_frame, &w, &Registry::try_lock_briefly<std::mutex>))
    w.skipped("Python frames", 1);
  w.text("],\n\"timeline_kinds\":[");
  bool first_kind = true;
  for (int k = 0; k < kKindCount; ++k) {
    if (!kind_holds_memory(Kind(k))) continue;
    w.separator(first_kind);
    auto name = kind_name(Kind(k));
    w.string(name.data(), name.size());
  }
  w.text("],\n\"timeline\":[\n");
  w.first = true;
  if (size_t held = tracker::visit_timeline_for_crash(w)) w.skipped("timeline devices", held);
  w.end_device();
  w.text("],\n\"marks\":[\n");
  w.first = true;
  if (!runtime().marks.visit_if_free(&Writer::mark, &w)) w.skipped("timeline marks", 1);
  w.text("],\n\"skipped\":[");
  w.write_skipped();
  w.text("],\n\"maps\":");
  copy_file(w, "/proc/self/maps", true);
  w.text("}\n");
  w.flush();
  if (!safe_output::commit(g_file)) return tell_lost(g_file);
  tell_launcher(g_file.path);
  return true;
}

}  // namespace cudaleak::crash_capture
