// The report's JSON schema (docs/report-format.md): one field list per type.
// The writer and the validating reader (json_visitors.h) both walk these
// lists, so that what is written and what is read cannot drift apart. Code
// under `if constexpr (V::after_read)` runs once an object's every member has
// been read: checks across fields and defaults that depend on other fields.
//
// A visitor V is called as v(key, value, presence):
//   Required  written always; a reader refuses the report without it
//   Always    written always; a reader keeps the default when it is missing
//   IfSet     written only when it differs from its default
// Hex{x} writes an address as a hex string; Language{python} a frame's language; Present{flag, x} writes x only when
// flag is set, and a reader sets flag when the key is there.
#pragma once
#include <cstdint>

#include "report/model/report.h"

namespace cudaleak::report::schema {

enum class Presence { Required, Always, IfSet };
using enum Presence;

struct Hex {
  uint64_t& value;
};

struct Language {
  bool& python;
};

template <class T>
struct Present {
  bool& present;
  T& value;
};

template <class V>
void fields(V& v, Frame& f) {
  v("ip", Hex{f.ip});                        // Python frames sent by cudaleak_torch have none
  v("language", Language{f.python}, IfSet);  // "python", or absent for native frames
  v("module", f.module, IfSet);
  v("function", f.function, IfSet);
  v("file", f.file, IfSet);
  v("line", f.line, IfSet);
  v("inlined", f.inlined, IfSet);
}

template <class V>
void fields(V& v, Allocation& a) {
  v("address", Hex{a.record.handle}, Required);
  v("bytes", a.record.bytes, Required);
  v("thread", a.record.thread);
  v("sequence", a.record.sequence);
  v("time_ns", a.record.time_ns);
  v("context", Hex{a.record.context});
  v("stream", Hex{a.record.stream}, IfSet);
  v("owner", Hex{a.owner}, IfSet);
  v.unless("rank", a.rank, -1);
}

template <class V>
void fields(V& v, KindTotal& t) {
  v("bytes", t.bytes);
  v("count", t.count);
}

template <class V>
void fields(V& v, RankShare& r) {
  v("rank", r.rank, Required);
  v("pid", r.pid);
  v("host", r.host, IfSet);
  v.unless("device", r.device, -1);
  v("bytes", r.bytes);
  v("count", r.count);
}

template <class V>
void fields(V& v, PoolHolding& p) {
  v("reserved", p.reserved);
  v("used", p.used);
  v("high_water", p.high_water);
  v("threshold_set", p.threshold_set);
  v("release_threshold", p.release_threshold, IfSet);
  v("threshold_api", p.threshold_api, IfSet);
  v("threshold_stack", p.threshold_stack, IfSet);
}

template <class V>
void fields(V& v, LeakGroup& g) {
  v("kind", g.kind, Required);
  v("api", g.api);
  v("bytes", g.bytes, Required);
  v("count", g.count, Required);
  v("device", g.device);
  v("stack", g.stack);
  v("allocations", g.allocations);
  v("released_by", g.released_by, IfSet);
  v("site", g.site, IfSet);
  v("suppressed_by", g.suppressed_by, IfSet);
  v("cached_by", g.cached_by, IfSet);
  v("baseline", g.baseline, IfSet);
  v("growing", g.growing, IfSet);
  v("count_history", g.count_history, IfSet);
  v("fails_gate", g.fails_gate, IfSet);
  v("pid", g.pid, IfSet);
  v.unless("rank", g.rank, -1);
  v("ranks", g.ranks, IfSet);
  v("owner", g.owner, IfSet);
  v("holds", g.holds, IfSet);
  v("attributed_by_stack", g.attributed_by_stack, IfSet);
  v("pool", Present<PoolHolding>{g.has_pool, g.pool});  // readers that predate it skip it: format_version stays 2
  v("reachability", g.reachability, IfSet);             // the same; absent: not scanned
  v("referenced_from", g.referenced_from, IfSet);       // readers that predate it skip it: format_version stays 2
}

template <class V>
void fields(V& v, Process& p) {
  v("pid", p.pid, Required);
  v("ppid", p.ppid);
  v("exe", p.exe);
  v("argv", p.argv);
  v.unless("rank", p.rank, -1);
  v.unless("local_rank", p.local_rank, -1);
  v("world_size", p.world_size, IfSet);
  v("launcher", p.launcher, IfSet);
  v("host", p.host, IfSet);
  v("start_unix_ns", p.start_unix_ns, IfSet);
  v("run_id", p.run_id, IfSet);
}

template <class V>
void fields(V& v, ProcessSummary& p) {
  fields(v, p.process);  // flattened: a process with its outcome
  v("reason", p.reason);
  v("leaked_bytes", p.leaked_bytes);
  v("leaked_count", p.leaked_count);
  v("duration_ns", p.duration_ns);  // older merges lack it: no end is known
}

template <class V>
void fields(V& v, Summary& s) {
  v("leaked_bytes", s.leaked_bytes, Required);
  v("leaked_count", s.leaked_count, Required);
  v("by_kind", s.by_kind, Required);
  v("suppressed_bytes", s.suppressed_bytes);
  v("suppressed_count", s.suppressed_count);
  v("cached_bytes", s.cached_bytes);
  v("cached_count", s.cached_count);
  v("cached_by", s.cached_by);
  v("pool_reserved_bytes", s.pool_reserved_bytes, IfSet);
  v("pool_reserved_count", s.pool_reserved_count, IfSet);
  v("reachable_bytes", s.reachable_bytes, IfSet);
  v("reachable_count", s.reachable_count, IfSet);
}

template <class V>
void fields(V& v, ReachabilityScan& s) {
  v("complete", s.complete);
  v("note", s.note, IfSet);
  v("bytes_scanned", s.bytes_scanned);
  v("duration_ns", s.duration_ns);
  v("roots", s.roots);
  v("threads", s.threads);
  v("threads_unseen", s.threads_unseen, IfSet);
  v("heap_blocks", s.heap_blocks);
}

template <class V>
void fields(V& v, SuppressionUse& u) {
  v("rule", u.rule, Required);
  v("source", u.source);
  v("count", u.count);
  v("bytes", u.bytes);
}

template <class V>
void fields(V& v, GateResult& g) {
  v("evaluated", g.evaluated);
  v("failed", g.failed);
  v("error", g.error, IfSet);
  v("failing_groups", g.failing_groups);
  v("failing_bytes", g.failing_bytes);
  v("failing_count", g.failing_count);
  v("failing_tensor_groups", g.failing_tensor_groups, IfSet);
  v("failing_growth_sites", g.failing_growth_sites, IfSet);
}

template <class V>
void fields(V& v, Module& m) {
  v("path", m.path, Required);
  v("base", Hex{m.base}, Required);
  v("build_id", m.build_id);
}

template <class V>
void fields(V& v, Note& n) {
  v("type", n.type, Required);
  v("api", n.api);
  v("handle", Hex{n.handle}, Required);
  v("result", n.result);
  v("count", n.count);
  v("stack", n.stack);
}

template <class V>
void fields(V& v, PrimaryContext& p) {
  v("device", p.device, Required);
  v("retains", p.retains);
  v("releases", p.releases);
  v("resets", p.resets);
  v("outstanding", p.outstanding);
}

template <class V>
void fields(V& v, PeakGroup& g) {
  v("kind", g.kind);
  v("api", g.api);
  v("where", g.where);
  v("bytes", g.bytes);
  v("count", g.count);
  v("stack", g.stack);
}

template <class V>
void fields(V& v, Peak& p) {
  v("time_ns", p.time_ns);
  v("bytes", p.bytes);
  v("by_kind", p.by_kind);
  v("groups", p.groups);
}

// Points are compact arrays: [time_ns, max_total, bytes of each kind...]
// (json_visitors.h reads and writes TimelinePoint as such).
template <class V>
void fields(V& v, TimelineSite& s) {
  v("kind", s.kind, Required);
  v("api", s.api);
  v("where", s.where);
  v("peak_bytes", s.peak_bytes);
  v("stack", s.stack);
}

// Readers that predate it skip `growth`: format_version stays 2.
template <class V>
void fields(V& v, SiteGrowth& g) {
  v("kind", g.kind, Required);
  v("api", g.api);
  v("where", g.where);
  v("bytes", g.bytes);
  v("level", g.level);
  v("since_ns", g.since_ns);
  v("since_bytes", g.since_bytes);
  v("last_rise_ns", g.last_rise_ns, IfSet);
  v("rises", g.rises);
  v("history_ns", g.history_ns);
  v("interval_ns", g.interval_ns);
  v("history", g.history);
  v("steady", g.steady, IfSet);
  v("rise_requests", g.rise_requests, IfSet);
  v("view", g.view, IfSet);
  v("site", g.site, IfSet);
  v("suppressed_by", g.suppressed_by, IfSet);
  v("baseline", g.baseline, IfSet);
  v("fails_gate", g.fails_gate, IfSet);
  v("stack", g.stack);
}

template <class V>
void fields(V& v, DeviceTimeline& d) {
  v("device", d.device, Required);
  v("pid", d.pid, IfSet);
  v.unless("rank", d.rank, -1);
  v("uuid", d.uuid, IfSet);
  v("resolution_ns", d.resolution_ns);
  v("peak", d.peak);
  v("points", d.points);
  v("sites", d.sites, IfSet);
  v("site_points", d.site_points, IfSet);
  v("growth", d.growth, IfSet);
  if constexpr (V::after_read) {
    v.require(d.site_points.empty() || d.site_points.size() == d.points.size(), "site_points",
              "has " + std::to_string(d.site_points.size()) + " lists for " + std::to_string(d.points.size()) +
                  " points");
    for (const auto& point : d.site_points)
      for (const auto& [site, bytes] : point)
        v.require(site < d.sites.size(), "site_points",
                  "names site " + std::to_string(site) + " of " + std::to_string(d.sites.size()));
  }
}

template <class V>
void fields(V& v, TimelineMark& m) {
  v("time_ns", m.time_ns);
  v("type", m.type, Required);
  v("name", m.name, IfSet);
  v("pid", m.pid, IfSet);
}

template <class V>
void fields(V& v, Timeline& t) {
  v("kinds", t.kinds);
  v("devices", t.devices);
  v("marks", t.marks, IfSet);
}

template <class V>
void fields(V& v, OomSite& s) {
  v("kind", s.kind);
  v("api", s.api);
  v("where", s.where);
  v("bytes", s.bytes);
  v("count", s.count);
  v("first_ns", s.first_ns);
  v("last_ns", s.last_ns);
  v("stack", s.stack);
}

template <class V>
void fields(V& v, PoolUsage& p) {
  v("handle", Hex{p.handle});
  v("default", p.is_default);
  v("reserved", p.reserved);
  v("used", p.used);
}

template <class V>
void fields(V& v, OtherProcessUsage& o) {
  v("pid", o.pid);
  v("name", o.name);
  v("bytes", o.bytes);
  v("bytes_known", o.bytes_known);
  v.unless("rank", o.rank, -1);
}

template <class V>
void fields(V& v, Reservation& r) {
  v("limit", r.limit, Required);
  v("value", r.value);
  v("bytes", r.bytes);
  v("threads", r.threads, IfSet);
  v("device", r.device);
  v("context", Hex{r.context});
  v("time_ns", r.time_ns);
  v("api", r.api);
  v("stack", r.stack);
  v("pid", r.pid, IfSet);
}

template <class V>
void fields(V& v, Diagnosis& d) {
  v("cause", d.cause);
  v("bytes", d.bytes);
  v("message", d.message);
}

template <class V>
void fields(V& v, TensorGroup& g) {
  v("bytes", g.bytes);
  v("count", g.count);
  v("pinning_segments", g.pinning_segments);
  v("stack", g.stack);
  v("growing", g.growing, IfSet);
  v("bytes_history", g.bytes_history, IfSet);
  v("by_segment", g.by_segment, IfSet);
  // cudaleak_torch sends Python frames without "language"; a by_segment stack
  // is cudaleak's own, native and Python frames marked as in every stack.
  if constexpr (V::after_read)
    if (!g.by_segment)
      for (Frame& f : g.stack) f.python = true;
}

// A segment is a compact array too: [address, size, [[size, state]...]].
template <class V>
void fields(V& v, AllocatorDevice& d) {
  v("device", d.device);
  v("reserved", d.reserved);
  v("allocated", d.allocated);
  v("active", d.active);
  v("segments", d.segments);
  v("free", d.free);
  v("largest_free_block", d.largest_free_block);
  v("free_in_pinned_segments", d.free_in_pinned_segments);
  v("pinned_segments", d.pinned_segments);
  v("expandable", d.expandable);
  v("live_tensors", d.live_tensors);
  v("segment_list", d.segment_list);
  v("pid", d.pid, IfSet);
  v.unless("rank", d.rank, -1);
}

template <class V>
void fields(V& v, PyTorchView& p) {
  v("when", p.when);
  v("settings", p.settings);
  v("devices", p.devices);
}

template <class V>
void fields(V& v, JaxArrayGroup& g) {
  v("bytes", g.bytes);
  v("count", g.count);
  v("largest_bytes", g.largest_bytes);
  v("shape", g.shape, IfSet);
  v("stack", g.stack);
  v("no_memory_count", g.no_memory_count, IfSet);
  v("no_memory_bytes", g.no_memory_bytes, IfSet);
  // cudaleak_jax sends Python frames without "language".
  if constexpr (V::after_read)
    for (Frame& f : g.stack) f.python = true;
}

template <class V>
void fields(V& v, JaxDevice& d) {
  v("device", d.device);
  v("id", d.id);
  v("kind", d.kind, IfSet);
  v("bytes_in_use", d.bytes_in_use);
  v("peak_bytes_in_use", d.peak_bytes_in_use, IfSet);
  v("bytes_limit", d.bytes_limit);
  v("bytes_reserved", d.bytes_reserved, IfSet);
  v("pool_bytes", d.pool_bytes, IfSet);
  v("largest_free_block", d.largest_free_block, IfSet);
  v("num_allocs", d.num_allocs, IfSet);
  v("largest_alloc_size", d.largest_alloc_size, IfSet);
  v("arrays", d.arrays);
  v("arrays_bytes", d.arrays_bytes);
  v("no_memory_arrays", d.no_memory_arrays, IfSet);
  v("no_memory_bytes", d.no_memory_bytes, IfSet);
  v("groups", d.groups);
  v("pid", d.pid, IfSet);
  v.unless("rank", d.rank, -1);
}

template <class V>
void fields(V& v, JaxView& j) {
  v("when", j.when);
  v("settings", j.settings);
  v("versions", j.versions, IfSet);
  v("source", j.source, IfSet);
  v("note", j.note, IfSet);
  v("executables_bytes", j.executables_bytes, IfSet);
  v("devices", j.devices);
}

template <class V>
void fields(V& v, JaxPeakBuffer& b) {
  v("bytes", b.bytes);
  v("shape", b.shape, IfSet);
  v("op", b.op, IfSet);
  v("file", b.file, IfSet);
  v("line", b.line, IfSet);
}

template <class V>
void fields(V& v, JaxCompiled& c) {
  v("parameter_bytes", c.parameter_bytes);
  v("output_bytes", c.output_bytes);
  v("temp_bytes", c.temp_bytes);
  v("total_bytes", c.total_bytes);
  v("peak_buffers", c.peak_buffers, IfSet);
}

template <class V>
void fields(V& v, JaxOom& o) {
  v("exception", o.exception);
  v("message", o.message);
  v("settings", o.settings, IfSet);
  v("raised", o.raised);
  v("compiled", o.compiled);
  v("executables_bytes", o.executables_bytes, IfSet);
  v("device", o.device);
}

template <class V>
void fields(V& v, CupyPool& c) {
  v("when", c.when);
  v("device", c.device);
  v("used_bytes", c.used_bytes);
  v("total_bytes", c.total_bytes);
  v("free_blocks", c.free_blocks);
  v("limit_bytes", c.limit_bytes);
  v("pinned_free_blocks", c.pinned_free_blocks);
  v("pid", c.pid, IfSet);
  v.unless("rank", c.rank, -1);
}

template <class V>
void fields(V& v, OomAttempt& a) {
  v("time_ns", a.time_ns);
  v("api", a.api);
  v("request_bytes", a.request_bytes);
  v("device_info", a.device_info);
  v("free_bytes", a.free_bytes);
  v("stack", a.stack);
}

template <class V>
void fields(V& v, OomEvent& e) {
  v("time_ns", e.time_ns);
  v("api", e.api);
  v("request_bytes", e.request_bytes);
  v("device", e.device);
  v("stream", Hex{e.stream}, IfSet);
  v("stack", e.stack);
  v("device_info", e.device_info);
  v("free_bytes", e.free_bytes);
  v("total_bytes", e.total_bytes);
  v("tracked_bytes", e.tracked_bytes);
  v("tracked_by_kind", e.tracked_by_kind);
  v("top_sites", e.top_sites);
  v("recent_window_ns", e.recent_window_ns);
  v("recent_bytes", e.recent_bytes);
  v("old_bytes", e.old_bytes);
  v("pools", e.pools);
  v("nvml", e.nvml);
  v("other_processes", e.other_processes);
  v("untracked_bytes", e.untracked_bytes);
  v("reservations", e.reservations, IfSet);
  v("diagnosis", e.diagnosis);
  v("pytorch", Present<AllocatorDevice>{e.has_pytorch, e.pytorch});
  v("jax", Present<JaxOom>{e.has_jax, e.jax});
  v("attempts", e.attempts, IfSet);
  v("recovered", e.recovered, IfSet);
  v("pid", e.pid, IfSet);
  v.unless("rank", e.rank, -1);
}

template <class V>
void fields(V& v, PythonInfo& p) {
  v("version", p.version);
  v("frames", p.frames);
  v("note", p.note, IfSet);
}

// The top level. format and format_version are checked before this list is
// read (json_io.cpp), so that a report of another version gets a clear error.
template <class V>
void fields(V& v, Report& r) {
  v("format", r.format, Required);
  v("format_version", r.format_version, Required);
  v("tool_version", r.tool_version);
  v("reason", r.reason, Required);
  v("timestamp", r.timestamp);
  v("symbolized", r.symbolized);
  v("process", r.process, Required);
  v("summary", r.summary, Required);
  v("suppressions", r.suppressions);
  v("gate", r.gate);
  v("leaks", r.leaks, Required);
  v("notes", r.notes);
  v("notes_total", r.notes_total);
  if constexpr (V::after_read)
    if (!v.was_read("notes_total")) r.notes_total = r.notes.size();
  v("primary_contexts", r.primary_contexts);
  v("modules", r.modules);
  v("checkpoint", r.checkpoint, IfSet);
  v("duration_ns", r.duration_ns);
  v("processes", r.processes, IfSet);
  v("history", r.history, IfSet);
  v("oom_events", r.oom_events);
  v("reservations", r.reservations, IfSet);
  v("device_malloc_modules", r.device_malloc_modules, IfSet);
  v("timeline", r.timeline);
  v("pytorch", Present<PyTorchView>{r.has_pytorch, r.pytorch});
  v("jax", Present<JaxView>{r.has_jax, r.jax});
  v("cupy", Present<CupyPool>{r.has_cupy, r.cupy});
  v("cupy_processes", r.cupy_processes, IfSet);
  bool has_python = !(r.python == PythonInfo{});  // any field set: what was read is written back
  v("python", Present<PythonInfo>{has_python, r.python});
  v("reachability", Present<ReachabilityScan>{r.has_reachability, r.reachability});
}

}  // namespace cudaleak::report::schema
