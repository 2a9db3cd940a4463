#include "json_io.h"

#include <nlohmann/json.hpp>

namespace cudaleak::report {

using nlohmann::json;

// Addresses are written as hex strings: JSON numbers lose precision past 2^53
// in most readers, and hex is what people compare with debuggers.
namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
uint64_t unhex(const json& j) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  return std::stoull(j.get<std::string>(), nullptr, 16);
}
}  // namespace

void to_json(json& j, const Frame& f) {
  j = json{{"ip", hex(f.ip)}};
  if (f.python) j["language"] = "python";  // no module: its file is the source
  else j["module"] = f.module;
  if (!f.function.empty()) j["function"] = f.function;
  if (!f.file.empty()) j["file"] = f.file;
  if (f.line > 0) j["line"] = f.line;
  if (f.inlined) j["inlined"] = true;
}
void from_json(const json& j, Frame& f) {
  f.ip = unhex(j.at("ip"));
  f.module = j.value("module", "");
  f.function = j.value("function", "");
  f.file = j.value("file", "");
  f.line = j.value("line", 0);
  f.inlined = j.value("inlined", false);
  f.python = j.value("language", "") == "python";
}

void to_json(json& j, const Allocation& a) {
  j = json{{"address", hex(a.address)}, {"bytes", a.bytes},  {"thread", a.thread}, {"sequence", a.sequence},
           {"time_ns", a.time_ns},      {"context", hex(a.context)}};
  if (a.stream) j["stream"] = hex(a.stream);
  if (a.owner) j["owner"] = hex(a.owner);
}
void from_json(const json& j, Allocation& a) {
  a.address = unhex(j.at("address"));
  a.bytes = j.at("bytes").get<uint64_t>();
  a.thread = j.value("thread", 0u);
  a.sequence = j.value("sequence", uint64_t(0));
  a.time_ns = j.value("time_ns", uint64_t(0));
  a.context = j.contains("context") ? unhex(j["context"]) : 0;
  a.stream = j.contains("stream") ? unhex(j["stream"]) : 0;
  a.owner = j.contains("owner") ? unhex(j["owner"]) : 0;
}

void to_json(json& j, const LeakGroup& g) {
  j = json{{"kind", g.kind},   {"api", g.api},       {"bytes", g.bytes},
           {"count", g.count}, {"device", g.device}, {"stack", g.stack},
           {"allocations", g.allocations}};
  if (!g.released_by.empty()) j["released_by"] = g.released_by;
  if (!g.site.empty()) j["site"] = g.site;
  if (!g.suppressed_by.empty()) j["suppressed_by"] = g.suppressed_by;
  if (!g.cached_by.empty()) j["cached_by"] = g.cached_by;
  if (!g.baseline.empty()) j["baseline"] = g.baseline;
  if (g.growing) j["growing"] = true;
  if (!g.count_history.empty()) j["count_history"] = g.count_history;
  if (g.fails_gate) j["fails_gate"] = true;
  if (g.pid) j["pid"] = g.pid;
  if (g.rank >= 0) j["rank"] = g.rank;
  if (!g.owner.empty()) j["owner"] = g.owner;
  if (!g.holds.empty()) {
    json holds = json::object();
    for (const auto& [kind, t] : g.holds) holds[kind] = json{{"bytes", t.bytes}, {"count", t.count}};
    j["holds"] = holds;
  }
}
void from_json(const json& j, LeakGroup& g) {
  g.kind = j.at("kind").get<std::string>();
  g.api = j.value("api", "");
  g.bytes = j.at("bytes").get<uint64_t>();
  g.count = j.at("count").get<uint64_t>();
  g.device = j.value("device", -1);
  g.released_by = j.value("released_by", "");
  g.stack = j.value("stack", std::vector<Frame>{});
  g.allocations = j.value("allocations", std::vector<Allocation>{});
  g.site = j.value("site", "");
  g.suppressed_by = j.value("suppressed_by", "");
  g.cached_by = j.value("cached_by", "");
  g.baseline = j.value("baseline", "");
  g.growing = j.value("growing", false);
  g.count_history = j.value("count_history", std::vector<uint64_t>{});
  g.fails_gate = j.value("fails_gate", false);
  g.pid = j.value("pid", 0);
  g.rank = j.value("rank", -1);
  g.owner = j.value("owner", "");
  if (j.contains("holds"))
    for (const auto& [kind, t] : j["holds"].items())
      g.holds[kind] = KindTotal{t.value("bytes", uint64_t(0)), t.value("count", uint64_t(0))};
}

json process_json(const Process& p) {
  json j{{"pid", p.pid}, {"ppid", p.ppid}, {"exe", p.exe}, {"argv", p.argv}};
  if (p.rank >= 0) j["rank"] = p.rank;
  return j;
}
Process process_from(const json& p) {
  return Process{p.at("pid").get<int>(), p.value("ppid", 0), p.value("exe", ""),
                 p.value("argv", std::vector<std::string>{}), p.value("rank", -1)};
}

void to_json(json& j, const ProcessSummary& p) {
  j = process_json(p.process);
  j["reason"] = p.reason;
  j["leaked_bytes"] = p.leaked_bytes;
  j["leaked_count"] = p.leaked_count;
}
void from_json(const json& j, ProcessSummary& p) {
  p.process = process_from(j);
  p.reason = j.value("reason", "");
  p.leaked_bytes = j.value("leaked_bytes", uint64_t(0));
  p.leaked_count = j.value("leaked_count", uint64_t(0));
}

void to_json(json& j, const SuppressionUse& u) {
  j = json{{"rule", u.rule}, {"source", u.source}, {"count", u.count}, {"bytes", u.bytes}};
}
void from_json(const json& j, SuppressionUse& u) {
  u.rule = j.at("rule").get<std::string>();
  u.source = j.value("source", "");
  u.count = j.value("count", uint64_t(0));
  u.bytes = j.value("bytes", uint64_t(0));
}

void to_json(json& j, const GateResult& g) {
  j = json{{"evaluated", g.evaluated},         {"failed", g.failed},
           {"failing_groups", g.failing_groups}, {"failing_bytes", g.failing_bytes},
           {"failing_count", g.failing_count}};
  if (!g.error.empty()) j["error"] = g.error;
}
void from_json(const json& j, GateResult& g) {
  g.evaluated = j.value("evaluated", false);
  g.failed = j.value("failed", false);
  g.error = j.value("error", "");
  g.failing_groups = j.value("failing_groups", uint64_t(0));
  g.failing_bytes = j.value("failing_bytes", uint64_t(0));
  g.failing_count = j.value("failing_count", uint64_t(0));
}

void to_json(json& j, const Module& m) { j = json{{"path", m.path}, {"base", hex(m.base)}, {"build_id", m.build_id}}; }
void from_json(const json& j, Module& m) {
  m.path = j.at("path").get<std::string>();
  m.base = unhex(j.at("base"));
  m.build_id = j.value("build_id", "");
}

void to_json(json& j, const Note& n) {
  j = json{{"type", n.type},     {"api", n.api},     {"handle", hex(n.handle)},
           {"result", n.result}, {"count", n.count}, {"stack", n.stack}};
}
void from_json(const json& j, Note& n) {
  n.type = j.at("type").get<std::string>();
  n.api = j.value("api", "");
  n.handle = unhex(j.at("handle"));
  n.result = j.value("result", 0);
  n.count = j.value("count", uint64_t(1));
  n.stack = j.value("stack", std::vector<Frame>{});
}

void to_json(json& j, const PrimaryContext& p) {
  j = json{{"device", p.device}, {"retains", p.retains}, {"releases", p.releases},
           {"resets", p.resets}, {"outstanding", p.outstanding}};
}
void from_json(const json& j, PrimaryContext& p) {
  p.device = j.at("device").get<int>();
  p.retains = j.value("retains", uint64_t(0));
  p.releases = j.value("releases", uint64_t(0));
  p.resets = j.value("resets", uint64_t(0));
  p.outstanding = j.value("outstanding", int64_t(0));
}

void to_json(json& j, const PeakGroup& g) {
  j = json{{"kind", g.kind}, {"api", g.api}, {"where", g.where}, {"bytes", g.bytes}, {"count", g.count}, {"stack", g.stack}};
}
void from_json(const json& j, PeakGroup& g) {
  g.kind = j.value("kind", "");
  g.api = j.value("api", "");
  g.where = j.value("where", "");
  g.bytes = j.value("bytes", uint64_t(0));
  g.count = j.value("count", uint64_t(0));
  g.stack = j.value("stack", std::vector<Frame>{});
}
void to_json(json& j, const Peak& p) {
  j = json{{"time_ns", p.time_ns}, {"bytes", p.bytes}, {"by_kind", p.by_kind}, {"groups", p.groups}};
}
void from_json(const json& j, Peak& p) {
  p.time_ns = j.value("time_ns", uint64_t(0));
  p.bytes = j.value("bytes", uint64_t(0));
  p.by_kind = j.value("by_kind", std::map<std::string, uint64_t>{});
  p.groups = j.value("groups", std::vector<PeakGroup>{});
}

// Points are compact arrays: [time_ns, max_total, bytes of each kind...].
void to_json(json& j, const DeviceTimeline& d) {
  json points = json::array();
  for (const auto& p : d.points) {
    json row = json::array({p.time_ns, p.max_total});
    for (uint64_t b : p.bytes) row.push_back(b);
    points.push_back(std::move(row));
  }
  j = json{{"device", d.device}, {"resolution_ns", d.resolution_ns}, {"peak", d.peak}, {"points", points}};
  if (d.pid) j["pid"] = d.pid;
}
void from_json(const json& j, DeviceTimeline& d) {
  d.device = j.at("device").get<int>();
  d.pid = j.value("pid", 0);
  d.resolution_ns = j.value("resolution_ns", uint64_t(0));
  d.peak = j.value("peak", Peak{});
  for (const auto& row : j.value("points", json::array())) {
    TimelinePoint p;
    p.time_ns = row.at(0).get<uint64_t>();
    p.max_total = row.at(1).get<uint64_t>();
    for (size_t i = 2; i < row.size(); ++i) p.bytes.push_back(row[i].get<uint64_t>());
    d.points.push_back(std::move(p));
  }
}

void to_json(json& j, const OomSite& s) {
  j = json{{"kind", s.kind},         {"api", s.api},           {"where", s.where},  {"bytes", s.bytes},
           {"count", s.count},       {"first_ns", s.first_ns}, {"last_ns", s.last_ns}, {"stack", s.stack}};
}
void from_json(const json& j, OomSite& s) {
  s.kind = j.value("kind", "");
  s.api = j.value("api", "");
  s.where = j.value("where", "");
  s.bytes = j.value("bytes", uint64_t(0));
  s.count = j.value("count", uint64_t(0));
  s.first_ns = j.value("first_ns", uint64_t(0));
  s.last_ns = j.value("last_ns", uint64_t(0));
  s.stack = j.value("stack", std::vector<Frame>{});
}
void to_json(json& j, const PoolUsage& p) {
  j = json{{"handle", hex(p.handle)}, {"default", p.is_default}, {"reserved", p.reserved}, {"used", p.used}};
}
void from_json(const json& j, PoolUsage& p) {
  p.handle = j.contains("handle") ? unhex(j["handle"]) : 0;
  p.is_default = j.value("default", false);
  p.reserved = j.value("reserved", uint64_t(0));
  p.used = j.value("used", uint64_t(0));
}
void to_json(json& j, const OtherProcessUsage& o) {
  j = json{{"pid", o.pid}, {"name", o.name}, {"bytes", o.bytes}, {"bytes_known", o.bytes_known}};
}
void from_json(const json& j, OtherProcessUsage& o) {
  o.pid = j.value("pid", 0);
  o.name = j.value("name", "");
  o.bytes = j.value("bytes", uint64_t(0));
  o.bytes_known = j.value("bytes_known", true);
}
void to_json(json& j, const Diagnosis& d) { j = json{{"cause", d.cause}, {"bytes", d.bytes}, {"message", d.message}}; }
void from_json(const json& j, Diagnosis& d) {
  d.cause = j.value("cause", "");
  d.bytes = j.value("bytes", uint64_t(0));
  d.message = j.value("message", "");
}
void to_json(json& j, const TensorGroup& g) {
  j = json{{"bytes", g.bytes}, {"count", g.count}, {"pinning_segments", g.pinning_segments}, {"stack", g.stack}};
}
void from_json(const json& j, TensorGroup& g) {
  g.bytes = j.value("bytes", uint64_t(0));
  g.count = j.value("count", uint64_t(0));
  g.pinning_segments = j.value("pinning_segments", uint64_t(0));
  g.stack.clear();
  for (const json& f : j.value("stack", json::array())) {  // as cudaleak_torch sends them: Python frames
    Frame frame;
    if (f.contains("ip")) {
      frame = f.get<Frame>();
    } else {
      frame.file = f.value("file", "");
      frame.function = f.value("function", "");
      frame.line = f.value("line", 0);
    }
    frame.python = true;
    g.stack.push_back(std::move(frame));
  }
}
void to_json(json& j, const AllocatorSegment& s) { j = json::array({s.address, s.size, s.blocks}); }
void from_json(const json& j, AllocatorSegment& s) {
  s.address = j.at(0).get<uint64_t>();
  s.size = j.at(1).get<uint64_t>();
  s.blocks = j.at(2).get<std::vector<std::pair<uint64_t, int>>>();
}
void to_json(json& j, const AllocatorDevice& d) {
  j = json{{"device", d.device}, {"reserved", d.reserved}, {"allocated", d.allocated}, {"active", d.active},
           {"segments", d.segments}, {"free", d.free}, {"largest_free_block", d.largest_free_block},
           {"free_in_pinned_segments", d.free_in_pinned_segments}, {"pinned_segments", d.pinned_segments},
           {"expandable", d.expandable}, {"live_tensors", d.live_tensors}, {"segment_list", d.segment_list}};
}
void from_json(const json& j, AllocatorDevice& d) {
  d.device = j.value("device", 0);
  for (auto [field, key] : {std::pair{&d.reserved, "reserved"}, {&d.allocated, "allocated"}, {&d.active, "active"},
                            {&d.segments, "segments"}, {&d.free, "free"}, {&d.largest_free_block, "largest_free_block"},
                            {&d.free_in_pinned_segments, "free_in_pinned_segments"},
                            {&d.pinned_segments, "pinned_segments"}})
    *field = j.value(key, uint64_t(0));
  d.expandable = j.value("expandable", false);
  d.live_tensors = j.value("live_tensors", std::vector<TensorGroup>{});
  d.segment_list = j.value("segment_list", std::vector<AllocatorSegment>{});
}
void to_json(json& j, const PyTorchView& v) {
  j = json{{"when", v.when}, {"settings", v.settings}, {"devices", v.devices}};
}
void from_json(const json& j, PyTorchView& v) {
  v.when = j.value("when", "");
  v.settings = j.value("settings", "");
  v.devices = j.value("devices", std::vector<AllocatorDevice>{});
}

void to_json(json& j, const OomEvent& e) {
  j = json{{"time_ns", e.time_ns},
           {"api", e.api},
           {"request_bytes", e.request_bytes},
           {"device", e.device},
           {"stack", e.stack},
           {"device_info", e.device_info},
           {"free_bytes", e.free_bytes},
           {"total_bytes", e.total_bytes},
           {"tracked_bytes", e.tracked_bytes},
           {"tracked_by_kind", e.tracked_by_kind},
           {"top_sites", e.top_sites},
           {"recent_window_ns", e.recent_window_ns},
           {"recent_bytes", e.recent_bytes},
           {"old_bytes", e.old_bytes},
           {"pools", e.pools},
           {"nvml", e.nvml},
           {"other_processes", e.other_processes},
           {"untracked_bytes", e.untracked_bytes},
           {"diagnosis", e.diagnosis}};
  if (e.stream) j["stream"] = hex(e.stream);
  if (e.has_pytorch) j["pytorch"] = e.pytorch;
}
void from_json(const json& j, OomEvent& e) {
  e.time_ns = j.value("time_ns", uint64_t(0));
  e.api = j.value("api", "");
  e.request_bytes = j.value("request_bytes", uint64_t(0));
  e.device = j.value("device", -1);
  e.stream = j.contains("stream") ? unhex(j["stream"]) : 0;
  e.stack = j.value("stack", std::vector<Frame>{});
  e.device_info = j.value("device_info", false);
  e.free_bytes = j.value("free_bytes", uint64_t(0));
  e.total_bytes = j.value("total_bytes", uint64_t(0));
  e.tracked_bytes = j.value("tracked_bytes", uint64_t(0));
  e.tracked_by_kind = j.value("tracked_by_kind", std::map<std::string, uint64_t>{});
  e.has_pytorch = j.contains("pytorch");
  if (e.has_pytorch) e.pytorch = j["pytorch"].get<AllocatorDevice>();
  e.top_sites = j.value("top_sites", std::vector<OomSite>{});
  e.recent_window_ns = j.value("recent_window_ns", uint64_t(0));
  e.recent_bytes = j.value("recent_bytes", uint64_t(0));
  e.old_bytes = j.value("old_bytes", uint64_t(0));
  e.pools = j.value("pools", std::vector<PoolUsage>{});
  e.nvml = j.value("nvml", "");
  e.other_processes = j.value("other_processes", std::vector<OtherProcessUsage>{});
  e.untracked_bytes = j.value("untracked_bytes", uint64_t(0));
  e.diagnosis = j.value("diagnosis", std::vector<Diagnosis>{});
}

PyTorchView pytorch_view_from_json(const std::string& text, PyTorchOom* oom) {
  try {
    json j = json::parse(text);
    PyTorchView v = j.get<PyTorchView>();
    if (oom && j.contains("oom")) {
      oom->device = j["oom"].value("device", 0);
      oom->request = j["oom"].value("request", uint64_t(0));
    }
    return v;
  } catch (const json::exception& e) {
    throw FormatError(std::string("not a PyTorch view: ") + e.what());
  }
}

std::string to_json(const Report& r, int indent) {
  json by_kind = json::object();
  for (const auto& [kind, total] : r.summary.by_kind) by_kind[kind] = json{{"bytes", total.bytes}, {"count", total.count}};
  json cached_by = json::object();
  for (const auto& [name, total] : r.summary.cached_by) cached_by[name] = json{{"bytes", total.bytes}, {"count", total.count}};
  json j{{"format", r.format},
         {"format_version", r.format_version},
         {"tool_version", r.tool_version},
         {"reason", r.reason},
         {"timestamp", r.timestamp},
         {"symbolized", r.symbolized},
         {"process", process_json(r.process)},
         {"summary", {{"leaked_bytes", r.summary.leaked_bytes}, {"leaked_count", r.summary.leaked_count}, {"by_kind", by_kind},
                      {"suppressed_bytes", r.summary.suppressed_bytes}, {"suppressed_count", r.summary.suppressed_count},
                      {"cached_bytes", r.summary.cached_bytes}, {"cached_count", r.summary.cached_count},
                      {"cached_by", cached_by}}},
         {"suppressions", r.suppressions},
         {"gate", r.gate},
         {"leaks", r.leaks},
         {"notes", r.notes},
         {"notes_total", r.notes_total},
         {"primary_contexts", r.primary_contexts},
         {"modules", r.modules}};
  if (!r.checkpoint.empty()) j["checkpoint"] = r.checkpoint;
  j["duration_ns"] = r.duration_ns;
  if (!r.processes.empty()) j["processes"] = r.processes;
  j["oom_events"] = r.oom_events;
  j["timeline"] = json{{"kinds", r.timeline.kinds}, {"devices", r.timeline.devices}};
  if (r.has_pytorch) j["pytorch"] = r.pytorch;
  if (!r.python.version.empty() || !r.python.note.empty()) {
    j["python"] = json{{"version", r.python.version}, {"frames", r.python.frames}};
    if (!r.python.note.empty()) j["python"]["note"] = r.python.note;
  }
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

Report from_json(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw FormatError(std::string("not valid JSON (truncated or corrupt?): ") + e.what());
  }
  if (!j.is_object() || j.value("format", "") != kFormatName) throw FormatError("not a cudaleak report");
  int version = j.value("format_version", 0);
  if (version < 1) throw FormatError("report has no valid format_version");
  if (version > kFormatVersion)
    throw FormatError("report format version " + std::to_string(version) + " is newer than this cudaleak reads (" +
                      std::to_string(kFormatVersion) + "); use a newer cudaleak");
  try {
    Report r;
    r.format_version = version;
    r.tool_version = j.value("tool_version", "");
    r.reason = j.at("reason").get<std::string>();
    r.timestamp = j.value("timestamp", int64_t(0));
    r.symbolized = j.value("symbolized", false);
    r.process = process_from(j.at("process"));
    const json& s = j.at("summary");
    r.summary.leaked_bytes = s.at("leaked_bytes").get<uint64_t>();
    r.summary.leaked_count = s.at("leaked_count").get<uint64_t>();
    for (const auto& [kind, total] : s.at("by_kind").items())
      r.summary.by_kind[kind] = KindTotal{total.at("bytes").get<uint64_t>(), total.at("count").get<uint64_t>()};
    r.leaks = j.at("leaks").get<std::vector<LeakGroup>>();
    r.notes = j.value("notes", std::vector<Note>{});
    r.notes_total = j.value("notes_total", uint64_t(r.notes.size()));
    r.primary_contexts = j.value("primary_contexts", std::vector<PrimaryContext>{});
    r.modules = j.value("modules", std::vector<Module>{});
    r.summary.suppressed_bytes = s.value("suppressed_bytes", uint64_t(0));
    r.summary.suppressed_count = s.value("suppressed_count", uint64_t(0));
    r.summary.cached_bytes = s.value("cached_bytes", uint64_t(0));
    r.summary.cached_count = s.value("cached_count", uint64_t(0));
    const json cached = s.value("cached_by", json::object());  // items() must not outlive its json
    for (const auto& [name, total] : cached.items())
      r.summary.cached_by[name] = KindTotal{total.value("bytes", uint64_t(0)), total.value("count", uint64_t(0))};
    r.suppressions = j.value("suppressions", std::vector<SuppressionUse>{});
    r.gate = j.value("gate", GateResult{});
    r.checkpoint = j.value("checkpoint", "");
    r.duration_ns = j.value("duration_ns", uint64_t(0));
    r.processes = j.value("processes", std::vector<ProcessSummary>{});
    r.oom_events = j.value("oom_events", std::vector<OomEvent>{});
    r.has_pytorch = j.contains("pytorch");
    if (r.has_pytorch) r.pytorch = j["pytorch"].get<PyTorchView>();
    if (j.contains("python") && j["python"].is_object()) {
      r.python.version = j["python"].value("version", "");
      r.python.frames = j["python"].value("frames", false);
      r.python.note = j["python"].value("note", "");
    }
    if (j.contains("timeline")) {
      r.timeline.kinds = j["timeline"].value("kinds", std::vector<std::string>{});
      r.timeline.devices = j["timeline"].value("devices", std::vector<DeviceTimeline>{});
    }
    return r;
  } catch (const json::exception& e) {
    throw FormatError(std::string("malformed report: ") + e.what());
  }
}

}  // namespace cudaleak::report
