#include "crash_report.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "json_io.h"
#include "kinds.h"
#include "symbols/modules.h"
#include "symbols/symbolizer.h"

namespace cudaleak::capture {

using nlohmann::json;

namespace {

// Lowest PT_LOAD address of an ELF file, page-aligned: what its first mapping
// (offset 0) corresponds to. 0 for shared objects and PIE, the link address
// for position-dependent executables.
uint64_t first_load_address(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  ElfW(Ehdr) eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return 0;
  uint64_t lowest = UINT64_MAX;
  for (int i = 0; i < eh.e_phnum; ++i) {
    ElfW(Phdr) ph{};
    in.seekg(std::streamoff(eh.e_phoff + size_t(i) * sizeof ph));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) break;
    if (ph.p_type == PT_LOAD && ph.p_vaddr < lowest) lowest = ph.p_vaddr;
  }
  return lowest == UINT64_MAX ? 0 : lowest & ~uint64_t(0xfff);
}

report::FormatError bad(const std::string& what) { return report::FormatError("crash capture: " + what); }

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
    modules.push_back(report::Module{path, start - first_load_address(path), symbols::file_build_id(path)});
  }
  return modules;
}

bool is_crash_capture(const std::string& text) {
  return text.rfind(std::string("{\"format\":\"") + kCaptureFormat + "\"", 0) == 0;
}

CrashCapture parse_crash_capture(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw bad(std::string("not valid JSON (the process may have died while writing it): ") + e.what());
  }
  CrashCapture c;
  try {
    if (!j.is_object() || j.at("format") != kCaptureFormat) throw bad("not a crash capture");
    if (j.at("format_version") != 1) throw bad("format_version " + j.at("format_version").dump() + " is not 1");
    c.signal = j.at("signal").get<int>();
    c.timestamp = j.at("timestamp").get<int64_t>();
    c.tool_version = j.at("tool_version").get<std::string>();
    c.options = j.at("options").get<std::string>();
    c.elapsed_ns = j.at("elapsed_ns").get<uint64_t>();
    c.process.pid = j.at("pid").get<int>();
    c.process.ppid = j.at("ppid").get<int>();
    c.process.exe = j.at("exe").get<std::string>();
    std::string cmdline = j.at("cmdline").get<std::string>();
    for (size_t start = 0; start < cmdline.size();) {
      size_t stop = cmdline.find('\0', start);
      if (stop == std::string::npos) stop = cmdline.size();
      c.process.argv.push_back(cmdline.substr(start, stop - start));
      start = stop + 1;
    }
    auto name = [&](const json& v) { return c.names.emplace_back(v.get<std::string>()).c_str(); };
    for (const json& r : j.at("resources")) {
      // 13 fields; captures written before library scopes have 12.
      if (!r.is_array() || (r.size() != 12 && r.size() != 13)) throw bad("a resource is not a list of 13 fields");
      auto kind = kind_from_name(r[0].get<std::string>());
      if (!kind) throw bad("unknown kind " + r[0].dump());
      report::RawResource x;
      x.kind = *kind;
      x.hook = name(r[1]);
      x.handle = r[2].get<uint64_t>();
      x.bytes = r[3].get<uint64_t>();
      x.sequence = r[4].get<uint64_t>();
      x.time_ns = r[5].get<uint64_t>();
      x.context = r[6].get<uint64_t>();
      x.stream = r[7].get<uint64_t>();
      x.stack_id = r[8].get<uint32_t>();
      x.thread = r[9].get<uint32_t>();
      x.device = r[10].get<int>();
      std::string released = r[11].get<std::string>();
      x.released_by = released.empty() ? nullptr : name(r[11]);
      if (r.size() == 13) x.scope = r[12].get<uint32_t>();
      c.snapshot.resources.push_back(x);
    }
    for (const json& n : j.at("notes")) {
      if (!n.is_array() || n.size() != 6) throw bad("a note is not a list of 6 fields");
      c.snapshot.notes.push_back(report::RawNote{n[0].get<std::string>(), name(n[1]), n[2].get<uint64_t>(),
                                                 n[3].get<int>(), n[4].get<uint32_t>(), n[5].get<uint64_t>()});
    }
    c.snapshot.notes_total = j.at("notes_total").get<uint64_t>();
    for (const json& s : j.at("stacks")) {
      if (!s.is_array() || s.empty()) throw bad("a stack is not a list");
      auto& frames = c.stacks[s[0].get<uint32_t>()];
      for (size_t i = 1; i < s.size(); ++i) frames.push_back(s[i].get<uint64_t>());
    }
    const json python_frames = j.value("python_frames", json::array());
    for (const json& f : python_frames) {
      if (!f.is_array() || f.size() != 4) throw bad("a Python frame is not a list of 4 fields");
      auto id = f[0].get<uint32_t>();
      // The handler writes every interned frame, ids 1..N: a larger id is damage.
      if (id == 0 || id > python_frames.size()) throw bad("a Python frame id is out of range");
      if (c.python_frames.size() < id) c.python_frames.resize(id);
      report::Frame& frame = c.python_frames[id - 1];
      frame.file = f[1].get<std::string>();
      frame.function = f[2].get<std::string>();
      frame.line = f[3].get<int>();
      frame.python = true;
    }
    for (const json& s : j.at("skipped"))
      c.skipped.push_back(s.at("what").get<std::string>() + " (" + std::to_string(s.at("count").get<uint64_t>()) + ")");
    c.maps = j.at("maps").get<std::vector<std::string>>();
  } catch (const json::exception& e) {
    throw bad(std::string("malformed: ") + e.what());
  }
  return c;
}

report::Report build_crash_report(const CrashCapture& c, const BuildSettings& settings, const gate::GateConfig& gate) {
  std::vector<std::string> missing;
  std::vector<report::Module> modules = modules_from_maps(c.maps);
  auto resolver = report::with_python_frames(symbols::make_offline_symbolizer(modules, {}, &missing),
                                             c.python_frames);
  report::BuildOptions build;
  build.max_allocations = settings.max_allocations;
  auto lookup = [&](uint32_t id) -> std::span<const uint64_t> {
    auto it = c.stacks.find(id);
    return it == c.stacks.end() ? std::span<const uint64_t>() : std::span<const uint64_t>(it->second);
  };
  // Always resolved offline: the dying process could not, and the files are still here.
  report::Report r = report::build_report(c.snapshot, lookup, resolver.get(), build);
  r.symbolized = true;
  r.tool_version = c.tool_version;
  r.reason = "crash";
  r.timestamp = c.timestamp;
  r.process = c.process;
  r.modules = std::move(modules);
  r.duration_ns = c.elapsed_ns;
  gate::evaluate(r, gate);
  return r;
}

}  // namespace cudaleak::capture
