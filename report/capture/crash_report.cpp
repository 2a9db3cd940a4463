#include "report/capture/crash_report.h"

#include <sys/stat.h>

#include <cctype>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "common/capture_columns.h"
#include "report/capture/assemble.h"
#include "report/model/builder.h"
#include "report/model/json_io.h"
#include "report/model/json_visitors.h"
#include "common/kinds.h"
#include "report/symbols/modules.h"
#include "report/symbols/symbolizer.h"

namespace cudaleak::capture {

using nlohmann::json;

namespace {

report::FormatError bad(const std::string& what) { return report::FormatError("crash capture: " + what); }

// Where each column this reader knows lies in one section's rows
// (common/capture_columns.h), and how many fields a row may have.
struct Layout {
  std::vector<int> at;  // by the column's place in the section's list; -1: not in this capture
  size_t min_fields = 0, max_fields = 0;
};

Layout layout_of(const json& j, int version, const capture_columns::Section& s) {
  using report::schema::Path;
  Layout l;
  l.at.assign(s.count, -1);
  if (version < 2) {  // no names: the columns of version 1, in order
    for (size_t i = 0; i < s.count; ++i) l.at[i] = int(i);
    l.min_fields = s.required;
    l.max_fields = s.count;
    return l;
  }
  const Path root, columns{&root, "columns"};
  const std::string section(s.name);
  const Path at{&columns, section.c_str()};
  if (!j.contains("columns") || !j["columns"].is_object() || !j["columns"].contains(section) ||
      !j["columns"][section].is_array())
    report::schema::fail(at, "expected the list of the section's column names");
  const json& names = j["columns"][section];
  for (size_t k = 0; k < names.size(); ++k) {
    if (!names[k].is_string()) report::schema::fail(Path{&at, nullptr, k}, "expected a column name");
    for (size_t i = 0; i < s.count; ++i)
      if (names[k].get<std::string>() == s.columns[i] && l.at[i] < 0) l.at[i] = int(k);
  }
  for (size_t i = 0; i < s.required; ++i)
    if (l.at[i] < 0) report::schema::fail(at, "no column \"" + std::string(s.columns[i]) + "\"");
  l.min_fields = l.max_fields = names.size();
  return l;
}

}  // namespace

std::vector<report::Module> modules_from_maps(const std::vector<std::string>& lines) {
  std::vector<report::Module> modules;
  std::set<std::string> seen;
  for (const std::string& line : lines) {
    unsigned long long start = 0, end = 0, offset = 0;
    char perms[8] = {};
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &path_at) < 4 ||
        path_at <= 0 || size_t(path_at) >= line.size())
      continue;
    std::string path = line.substr(size_t(path_at));
    if (path.empty() || path[0] != '/' || offset != 0 || seen.count(path) || path.ends_with(" (deleted)")) continue;
    seen.insert(path);
    // Only objects: device nodes (/dev/nvidiactl, /dev/nvidia0) are mapped too,
    // and reading one as a file fails or never ends.
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    modules.push_back(
        report::Module{path, start - symbols::file_first_load_address(path), symbols::file_build_id(path)});
  }
  return modules;
}

bool is_crash_capture(const std::string& text) {
  // The handler writes '{"format":"cudaleak-raw-capture"' with no space; a
  // capture pretty-printed since (jq .) is the same capture.
  size_t i = 0;
  auto skip_space = [&] {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };
  auto take = [&](std::string_view token) {
    skip_space();
    if (text.compare(i, token.size(), token) != 0) return false;
    i += token.size();
    return true;
  };
  return take("{") && take("\"format\"") && take(":") && take(std::string("\"") + kCaptureFormat + "\"");
}

CrashCapture parse_crash_capture(const std::string& text) {
  using report::schema::Path;
  using report::schema::read_value;
  using enum report::schema::Presence;
  json j;
  try {
    j = report::schema::parse(text, " (the process may have died while writing it)");
  } catch (const report::FormatError& e) {
    throw bad(e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kCaptureFormat) throw bad("not a crash capture");
  const json version_value = j.value("format_version", json());
  if (!version_value.is_number_integer() || version_value.get<int64_t>() < 1)
    throw bad("format_version " + version_value.dump() + " is not a version");
  if (version_value.get<int64_t>() > capture_columns::kFormatVersion)
    throw bad("format_version " + version_value.dump() + " is newer than this cudaleak reads (" +
              std::to_string(capture_columns::kFormatVersion) + "); use a newer cudaleak");
  const int version = int(version_value.get<int64_t>());
  CrashCapture c;
  // Positional records: each field read with its type and range checked.
  auto field = [](const json& row, const Path& at, size_t i, auto& out) {
    read_value(row[i], Path{&at, nullptr, i}, out);
  };
  // Consecutive fields from index `first` on, each into the next variable.
  auto fields = [&](const json& row, const Path& at, size_t first, auto&... out) {
    size_t i = first;
    (field(row, at, i++, out), ...);
  };
  const Path root;
  auto rows = [&](const char* key, size_t min_fields, size_t max_fields, auto&& each) {
    Path at{&root, key};
    const json& list = j.contains(key) ? j[key] : json::array();
    if (!list.is_array()) report::schema::fail(at, "expected an array");
    for (size_t i = 0; i < list.size(); ++i) {
      Path row_at{&at, nullptr, i};
      const json& row = list[i];
      if (!row.is_array() || row.size() < min_fields || row.size() > max_fields)
        report::schema::fail(row_at, "expected a list of " +
                                         (min_fields == max_fields
                                              ? std::to_string(max_fields)
                                              : std::to_string(min_fields) + " to " + std::to_string(max_fields)) +
                                         " fields, got " + (row.is_array() ? std::to_string(row.size()) : "no list"));
      each(row, row_at);
    }
  };
  // Rows of a section of common/capture_columns.h; `read(row, at, column,
  // out)` reads a column by its name, leaving `out` as it is where the
  // capture has no such column.
  auto named_rows = [&](const capture_columns::Section& section, auto&& each) {
    Layout layout = layout_of(j, version, section);
    rows(std::string(section.name).c_str(), layout.min_fields, layout.max_fields, [&](const json& row, const Path& at) {
      auto read = [&](auto column, auto& out) {
        const int i = layout.at[size_t(column)];
        if (i >= 0 && size_t(i) < row.size()) field(row, at, size_t(i), out);
      };
      each(row, at, read);
    });
  };
  auto name = [&](const std::string& v) { return c.names.emplace_back(v).c_str(); };
  // A record's name as an index of the snapshot's names (RawSnapshot::names).
  auto index_of = [&](const std::string& v) -> uint16_t {
    for (size_t i = 0; i < c.snapshot.names.size(); ++i)
      if (v == c.snapshot.names[i]) return uint16_t(i);
    return c.snapshot.intern(name(v));
  };
  try {
    report::schema::TreeObject top(j, root);
    std::string cmdline;
    top("signal", c.signal, Required);
    top("timestamp", c.timestamp, Required);
    top("tool_version", c.tool_version, Required);
    top("options", c.options, Required);
    top("elapsed_ns", c.elapsed_ns, Required);
    top("start_unix_ns", c.process.start_unix_ns);  // captures of earlier versions lack it
    top("run_id", c.process.run_id);                // as start_unix_ns
    top("rank", c.process.rank);                    // the process's place in a job; as start_unix_ns
    top("local_rank", c.process.local_rank);
    top("world_size", c.process.world_size);
    top("launcher", c.process.launcher);
    top("host", c.process.host);
    top("pid", c.process.pid, Required);
    top("ppid", c.process.ppid, Required);
    top("exe", c.process.exe, Required);
    top("cmdline", cmdline, Required);
    for (size_t start = 0; start < cmdline.size();) {
      size_t stop = cmdline.find('\0', start);
      if (stop == std::string::npos) stop = cmdline.size();
      c.process.argv.push_back(cmdline.substr(start, stop - start));
      start = stop + 1;
    }
    using capture_columns::Resource;
    named_rows(capture_columns::kResources, [&](const json&, const Path& at, auto&& read) {
      std::string kind_text, hook, released;
      read(Resource::Kind, kind_text);
      auto kind = kind_from_name(kind_text);
      if (!kind) report::schema::fail(at, "unknown kind \"" + kind_text + "\"");
      Record x;
      x.kind = *kind;
      int device = -1;
      read(Resource::Api, hook);
      read(Resource::Handle, x.handle);
      read(Resource::Bytes, x.bytes);
      read(Resource::Sequence, x.sequence);
      read(Resource::TimeNs, x.time_ns);
      read(Resource::Context, x.context);
      read(Resource::Stream, x.stream);
      read(Resource::Stack, x.stack_id);
      read(Resource::Thread, x.thread);
      read(Resource::Device, device);
      read(Resource::ReleasedBy, released);
      read(Resource::Scope, x.scope);  // captures written before library scopes have none
      if (device < INT8_MIN || device > INT8_MAX) report::schema::fail(at, "device out of range");
      x.device = int8_t(device);
      x.api = index_of(hook);
      if (!released.empty()) x.teardown = index_of(released);
      c.snapshot.resources.push_back(x);
    });
    using capture_columns::Note;
    named_rows(capture_columns::kNotes, [&](const json&, const Path&, auto&& read) {
      report::RawNote note;
      std::string api;
      read(Note::Type, note.type);
      read(Note::Hook, api);
      read(Note::Handle, note.handle);
      read(Note::Result, note.result);
      read(Note::Stack, note.stack_id);
      read(Note::Count, note.count);
      note.hook = name(api);
      c.snapshot.notes.push_back(std::move(note));
    });
    top("notes_total", c.snapshot.notes_total, Required);
    // An id and at most 256 return addresses with the Python frames put in
    // for the interpreter's (1024 with room to spare): a longer row was not
    // written by cudaleak, and would take memory without bound to symbolize.
    rows("stacks", 1, 1 + 1024, [&](const json& s, const Path& at) {
      uint32_t id = 0;
      field(s, at, 0, id);
      auto& frames = c.stacks[id];
      frames.resize(s.size() - 1);
      for (size_t i = 1; i < s.size(); ++i) field(s, at, i, frames[i - 1]);
    });
    const size_t python_frames = j.contains("python_frames") && j["python_frames"].is_array()
                                     ? j["python_frames"].size()
                                     : 0;
    using capture_columns::PythonFrame;
    named_rows(capture_columns::kPythonFrames, [&](const json&, const Path& at, auto&& read) {
      uint32_t id = 0;
      read(PythonFrame::Id, id);
      // The handler writes every interned frame, ids 1..N: a larger id is damage.
      if (id == 0 || id > python_frames) report::schema::fail(at, "Python frame id out of range");
      if (c.python_frames.size() < id) c.python_frames.resize(id);
      report::Frame& frame = c.python_frames[id - 1];
      read(PythonFrame::File, frame.file);
      read(PythonFrame::Function, frame.function);
      read(PythonFrame::Line, frame.line);
      frame.python = true;
    });
    // The timeline (captures of earlier versions have none): one row per
    // device, its points with one byte count per kind of timeline_kinds.
    top("timeline_kinds", c.timeline.kinds);
    rows("timeline", 5, 5, [&](const json& d, const Path& at) {
      report::DeviceTimeline device;
      fields(d, at, 0, device.device, device.resolution_ns, device.peak.time_ns, device.peak.bytes);
      Path points_at{&at, nullptr, 4};
      if (!d[4].is_array()) report::schema::fail(points_at, "expected an array of points");
      for (size_t i = 0; i < d[4].size(); ++i) {
        const json& p = d[4][i];
        Path point_at{&points_at, nullptr, i};
        if (!p.is_array() || p.size() != 2 + c.timeline.kinds.size())
          report::schema::fail(point_at, "expected " + std::to_string(2 + c.timeline.kinds.size()) + " numbers");
        report::TimelinePoint point;
        fields(p, point_at, 0, point.time_ns, point.max_total);
        point.bytes.resize(c.timeline.kinds.size());
        for (size_t k = 0; k < point.bytes.size(); ++k) field(p, point_at, 2 + k, point.bytes[k]);
        device.points.push_back(std::move(point));
      }
      c.timeline.devices.push_back(std::move(device));
    });
    using capture_columns::Mark;
    named_rows(capture_columns::kMarks, [&](const json&, const Path&, auto&& read) {
      report::TimelineMark mark;
      read(Mark::Type, mark.type);
      read(Mark::Name, mark.name);
      read(Mark::TimeNs, mark.time_ns);
      c.timeline.marks.push_back(std::move(mark));
    });
    std::vector<std::pair<std::string, uint64_t>> skipped;
    if (j.contains("skipped")) {
      const json& list = j["skipped"];
      if (!list.is_array()) report::schema::fail(Path{&root, "skipped"}, "expected an array");
      for (size_t i = 0; i < list.size(); ++i) {
        Path at{&root, "skipped"};
        Path item{&at, nullptr, i};
        if (!list[i].is_object()) report::schema::fail(item, "expected an object");
        report::schema::TreeObject r(list[i], item);
        std::string what;
        uint64_t count = 0;
        r("what", what, Required);
        r("count", count, Required);
        c.skipped.push_back(what + " (" + std::to_string(count) + ")");
      }
    }
    top("maps", c.maps, Required);
  } catch (const report::FormatError& e) {
    throw bad(std::string("malformed: ") + e.what());
  }
  return c;
}

report::Report build_crash_report(const CrashCapture& c, const BuildSettings& settings, const gate::GateConfig& gate) {
  report::Capture capture;
  capture.snapshot = c.snapshot;
  capture.stacks = [&](uint32_t id) -> std::span<const uint64_t> {
    auto it = c.stacks.find(id);
    return it == c.stacks.end() ? std::span<const uint64_t>() : std::span<const uint64_t>(it->second);
  };
  // Always resolved offline: the dying process could not, and the files are still here.
  std::vector<std::string> missing;
  capture.modules = modules_from_maps(c.maps);
  capture.resolver = report::with_python_frames(symbols::make_offline_symbolizer(capture.modules, {}, &missing),
                                                c.python_frames);
  capture.symbolized = true;
  capture.tool_version = c.tool_version;
  capture.reason = report::Reason::Crash;
  capture.timestamp = c.timestamp;
  capture.process = c.process;
  capture.duration_ns = c.elapsed_ns;
  if (!c.timeline.devices.empty() || !c.timeline.marks.empty()) capture.timeline = c.timeline;
  report::AssembleSettings assemble;
  assemble.max_allocations = settings.max_allocations;
  assemble.gate = &gate;
  return report::assemble(std::move(capture), assemble).report;
}

}  // namespace cudaleak::capture
