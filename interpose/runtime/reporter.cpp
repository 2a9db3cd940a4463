#include "common/terminal_text.h"
#include "interpose/base/entry_frame.h"
#include "interpose/runtime/reporter.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

#include "common/kinds.h"
#include "common/quantities.h"
#include "interpose/runtime/budgets.h"
#include "interpose/runtime/descriptors.h"
#include "interpose/runtime/launcher_files.h"
#include "interpose/runtime/device_identity.h"
#include "interpose/runtime/line_growth.h"
#include "interpose/base/log.h"
#include "common/safe_output.h"
#include "report/write/in_process.h"
#include "interpose/runtime/runtime.h"
#include "interpose/runtime/unseen_memory.h"
#include "interpose/runtime/reachability.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/track/stack_cache.h"
#include "interpose/track/tracker.h"

namespace cudaleak {

namespace {

// Writes `text` to `path` (safe_output.h says how); on failure *problem says why.
bool write_file(const std::string& path, const std::string& text, std::string* problem = nullptr,
                std::string* written_to = nullptr) {
  safe_output::File f;
  bool ok = safe_output::write_whole(f, path.c_str(), text.data(), text.size());
  if (!ok && problem) *problem = safe_output::problem_of(f);
  if (written_to) *written_to = f.path;
  if (f.shared_name[0])
    log_message("%s was written by another process of %s; this report goes to %s", f.shared_name,
                f.another_run ? "another run (a PID namespace of its own, where pids repeat)" : "this run", f.path);
  return ok;
}

// Names from the program reach the terminal with their control characters escaped.
void print(const std::string& text) {
  const std::string safe = terminal_safe(text);
  write_text(safe.data(), safe.size());
}

std::vector<report::Frame> python_frames() {
  std::vector<report::Frame> out;
  for (const auto& f : pyframes::frames()) {
    report::Frame frame;
    frame.file = f.file;
    frame.function = f.function;
    frame.line = f.line;
    frame.python = true;
    out.push_back(std::move(frame));
  }
  return out;
}

uint64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000 + uint64_t(ts.tv_nsec) / 1000000;
}

// What the printed text shows, from the options of the same names.
report::Printing printing() {
  const Options& opt = options();
  report::Printing p;
  p.summary = opt.print_summary;
  p.max_groups = size_t(opt.summary_groups);
  p.full_stacks = opt.full_stacks;
  p.gen_suppressions = opt.gen_suppressions;
  p.color = text_in_color();
  return p;
}

}  // namespace

// Symbols are looked up once per process: later reports reuse them.
std::unique_ptr<report::FrameResolver> make_frame_resolver() {
  return report::this_process_resolver(options().symbolize, python_frames());
}

namespace {

// What this process recorded, for report::assemble: the tracker's records
// and stacks, resolved by this process's symbols and Python frames.
report::Capture gather(report::RawSnapshot raw, Reason reason) {
  report::Capture c;
  c.snapshot = std::move(raw);
  c.stacks = tracker::held_stack;  // the caller holds the depot (tracker::StacksHeld)
  c.resolver = make_frame_resolver();
  c.symbolized = options().symbolize;
  c.reason = reason;
  c.tool_version = CUDALEAK_VERSION;
  return c;
}

report::AssembleSettings settings_for_reports() {
  report::AssembleSettings s;
  s.max_allocations = size_t(options().max_allocations);
  s.gate = &runtime().gate.get();
  return s;
}

// Lost or still reachable (reachability.h): entry_sp is where the reporting
// thread entered cudaleak, whose own frames lie below it. reachability=auto
// scans native programs only: a Python process refers to device memory
// through objects in arenas the scan does not follow, whose freed words keep
// stale addresses, so a site's allocations would split between the classes
// by chance rather than by what the program holds.
void find_references(report::RawSnapshot& snapshot, uint64_t entry_sp) {
  const std::string& setting = options().reachability;
  if (setting == "false" || (setting == "auto" && pyframes::report_status().present)) return;
  reachability::find_references(snapshot, entry_sp, uint64_t(options().reachability_limit));
  const report::ReachabilityScan& s = snapshot.reach_scan;
  log_verbose("reachability: %llu bytes scanned in %llu ms (%llu roots, %llu heap blocks, %llu thread stacks%s)",
              static_cast<unsigned long long>(s.bytes_scanned),
              static_cast<unsigned long long>(s.duration_ns / 1000000), static_cast<unsigned long long>(s.roots),
              static_cast<unsigned long long>(s.heap_blocks), static_cast<unsigned long long>(s.threads),
              s.complete ? "" : ", incomplete");
}

Written write_locked(Reason reason, const char* checkpoint, bool fresh_view, uint64_t entry_sp) {
  const Options& opt = options();
  uint64_t t0 = now_ms();
  if (reason == Reason::Signal) runtime().mark(report::MarkType::Snapshot, "");
  if (reason == Reason::Checkpoint) runtime().mark(report::MarkType::Report, checkpoint ? checkpoint : "");
  tracker::StacksHeld held;  // from the snapshot until its stacks are resolved
  report::Capture c = gather(tracker::snapshot(), reason);
  find_references(c.snapshot, entry_sp);
  uint64_t t_snapshot = now_ms();
  if (checkpoint) c.checkpoint = checkpoint;
  c.timestamp = std::time(nullptr);
  c.process = report::this_process();
  c.process.start_unix_ns = tracker::start_unix_ns();
  c.process.run_id = tracker::run_id();
  c.modules = report::this_process_modules();
  c.timeline = tracker::timeline(&c.timeline_sites);
  for (report::DeviceTimeline& d : c.timeline.devices) d.uuid = device_identity::uuid_text_of(d.device);
  for (auto& [device, sites] : tracker::site_growth())
    for (report::DeviceTimeline& d : c.timeline.devices)
      if (d.device == device) d.growth = std::move(sites);
  c.timeline.marks = runtime().marks.all();
  c.peak_groups = tracker::peak_groups();
  c.oom_events = runtime().oom.events(c.resolver.get());
  if (report::PyTorchView view; runtime().python_view.latest(view)) c.pytorch = std::move(view);
  if (report::JaxView view; runtime().python_view.latest_jax(view)) c.jax = std::move(view);
  if (report::CupyPool pool; runtime().python_view.latest_cupy(pool)) c.cupy = std::move(pool);
  pyframes::Status py = pyframes::report_status();
  if (py.present)
    c.python = report::PythonInfo{py.version, py.frames && opt.python_frames,
                                  opt.python_frames ? py.note : "python_frames=false"};
  c.duration_ns = tracker::elapsed_ns();
  if (reason == Reason::Exit && unseen_memory::wanted()) c.gate_error = unseen_memory::check(c.snapshot);
  if ((reason == Reason::Exit || reason == Reason::Termination) && c.gate_error.empty())
    c.gate_error = launcher_files::unseen_reason();
  const size_t resources = c.snapshot.resources.size();
  uint64_t live = 0;  // every live resource, those caching allocators hold and suppressed ones too
  for (const Record& x : c.snapshot.resources) live += !x.torn_down();
  report::RawSnapshot observed;
  if (reason == Reason::Signal || reason == Reason::Checkpoint) observed = c.snapshot;
  report::AssembleSettings settings = settings_for_reports();
  settings.history = [fresh_view](report::Report& r) {
    line_growth::merge_into(r.timeline, runtime().python_view.line_growth());  // before the gate, which counts them
    if (r.has_pytorch) runtime().growth.annotate_tensors(r.pytorch);           // against the earlier views
    if (r.has_pytorch && fresh_view) runtime().growth.observe_tensors(r.pytorch);
    runtime().growth.annotate(r);
  };
  uint64_t t_built = 0;
  report::Destination to;
  to.pattern = opt.output;
  to.serial = next_report_sequence;
  to.assembled = [&](const report::Assembled&) {
    if (reason == Reason::Signal || reason == Reason::Checkpoint) runtime().growth.observe(observed);
    t_built = now_ms();
  };
  std::string launcher_copy;
  to.write = [&](std::string& path, const std::string& json, std::string* problem) {
    // Only around the writes: symbolization before would take the descriptor kept for them.
    descriptors::Headroom descriptors;
    bool written = write_file(path, json, problem, &path);
    if (written && (reason == Reason::Exit || reason == Reason::Termination))
      launcher_copy = launcher_files::copy_for_launcher(path, json);
    return written;
  };
  report::Delivered delivered = report::deliver(std::move(c), settings, to, printing());
  const report::Report& r = delivered.assembled.report;
  Written w;
  w.path = delivered.path;
  w.written = delivered.written;
  w.launcher_copy = launcher_copy;
  log_verbose("%s report of %zu resources in %llu ms (snapshot %llu, build and symbolize %llu, JSON %llu)",
              report::text_of(reason).c_str(), resources, static_cast<unsigned long long>(now_ms() - t0),
              static_cast<unsigned long long>(t_snapshot - t0), static_cast<unsigned long long>(t_built - t_snapshot),
              static_cast<unsigned long long>(now_ms() - t_built));
  report::SymbolLookups symbols = report::symbol_lookups();
  log_verbose("symbols of this process so far: %llu looked up, %llu remembered, %llu restarts",
              static_cast<unsigned long long>(symbols.looked_up), static_cast<unsigned long long>(symbols.remembered),
              static_cast<unsigned long long>(symbols.restarts));
  StackCacheStats cache = stack_cache_thread_stats();
  log_verbose("stack cache of the reporting thread: %llu hits, %llu misses, %llu learned, %llu refused",
              static_cast<unsigned long long>(cache.hits), static_cast<unsigned long long>(cache.misses),
              static_cast<unsigned long long>(cache.learned), static_cast<unsigned long long>(cache.refused));
  w.gate = delivered.assembled.verdict;
  w.problem = delivered.problem;
  if (!w.written) log_message("cannot write the report to %s: %s", w.path.c_str(), w.problem.c_str());

  if (reason == Reason::Oom && !r.oom_events.empty()) {
    // The event's story is the text.
  } else if (reason == Reason::Signal || reason == Reason::Checkpoint) {
    // "0 live" for a process whose memory is all PyTorch's cache misleads:
    // `live` counts every live resource.
    log_message("%s of %llu live resource%s (%llu counted as leaks) written to %s",
                reason == Reason::Signal ? "snapshot" : "checkpoint report", static_cast<unsigned long long>(live),
                live == 1 ? "" : "s", static_cast<unsigned long long>(r.summary.leaked_count), w.path.c_str());
  } else if (opt.print_summary && opt.check_context) {
    tracker::PlacementChecks checks = tracker::placement_checks();
    log_message("check_context: %llu creations placed, %llu differ from the driver, %llu on a context bound unseen",
                static_cast<unsigned long long>(checks.checked), static_cast<unsigned long long>(checks.wrong),
                static_cast<unsigned long long>(checks.unseen));
  }
  if (!delivered.text.empty()) print(delivered.text);
  return w;
}

bool driver_loaded() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY);
  if (lib) dlclose(lib);
  return lib != nullptr;
}

}  // namespace

Written write_report(Reason reason, const char* checkpoint) {
  if (!cuda_seen() || lifecycle_state().load() == LifecycleState::Untraced) return {};
  int saved = errno;
  Written w;
  try {
    // Where Python can run, the program's allocator view is taken now, not
    // at the last out-of-memory; before the report lock, which the source's
    // own call takes no part in.
    bool fresh_view = (reason == Reason::Signal || reason == Reason::Checkpoint) && runtime().python_view.refresh();
    std::lock_guard lock(runtime().reports.mutex);
    w = write_locked(reason, checkpoint, fresh_view, entry_frame(uintptr_t(__builtin_frame_address(0))));
  } catch (const std::exception& e) {
    log_message("internal error while writing the report (%s); no report written", e.what());
  } catch (...) {
    log_message("internal error while writing the report; no report written");
  }
  errno = saved;
  return w;
}

report::RawSnapshot snapshot_since(uint64_t since, uint64_t until) {
  report::RawSnapshot raw = tracker::snapshot();
  std::erase_if(raw.resources,
                [&](const Record& r) { return r.sequence <= since || r.sequence > until || r.torn_down(); });
  raw.notes.clear();
  raw.notes_total = 0;
  return raw;
}

Totals totals(const report::RawSnapshot& raw) {
  Totals t;
  for (const Record& r : raw.resources) {
    ++t.count;
    if (kind_holds_memory(r.kind)) t.bytes += r.bytes;
  }
  return t;
}

Verdict judge_since(uint64_t since, uint64_t until) {
  Verdict v;
  tracker::StacksHeld held;  // from the snapshot until its stacks are resolved
  report::RawSnapshot raw = snapshot_since(since, until);
  v.alive = totals(raw);
  if (raw.resources.empty()) return v;
  int saved = errno;
  try {
    std::lock_guard lock(runtime().reports.mutex);
    // No reachability here: a test's verdict counts what the test made and
    // left alive, referenced or not (pytest-memray's limit_leaks), and the
    // test's own frame, still live under a scope guard, holds its pointers.
    // A checkpoint judges whether or not the run gates: the verdict, not r.gate.
    report::GateFailures failures = report::judge(gather(std::move(raw), Reason::Checkpoint), settings_for_reports(),
                                                  printing());
    if (failures.verdict.failed) {  // below min_bytes the gate counts groups but passes
      v.failing.count = failures.verdict.failing_count;
      v.failing.bytes = failures.verdict.failing_bytes;
      v.failures = std::move(failures.text);
      v.file = std::move(failures.file);
      v.line = failures.line;
    }
  } catch (...) {
    internal_failure("judging a checkpoint");
  }
  errno = saved;
  return v;
}

void observe_now() {
  try {
    runtime().growth.observe(tracker::snapshot());
  } catch (...) {
    internal_failure("recording a checkpoint");
  }
}

namespace {

// The final report and the gate's verdict, at exit or on a termination signal.
int finish(Reason reason) {
  const Options& opt = options();
  std::string problem;
  Written w;
  if (cuda_seen()) {
    w = write_report(reason);
    if (internal_failure_happened()) problem = "tracking stopped after an internal error, so leaks may be missing";
    else if (!w.written)
      problem = "its report could not be written to " + w.path + (w.problem.empty() ? "" : ": " + w.problem);
    else if (!w.gate.error.empty()) problem = w.gate.error;
  } else if (driver_loaded() && !cuda_inherited()) {
    // A leak gate that cannot see must not say green.
    problem =
        "this process loaded libcuda.so.1 but none of its CUDA calls went through cudaleak (a driver "
        "entry point obtained in a way cudaleak does not intercept, e.g. from the driver's ELF symbol table)";
    log_message("%s", problem.c_str());
  } else {
    return -1;  // no CUDA in this process: nothing to gate
  }

  const std::string over_budget = problem.empty() ? memory_budget_failure() : "";
  std::string status = !problem.empty() ? "error" : w.gate.failed || !over_budget.empty() ? "fail" : "pass";
  descriptors::Headroom descriptors;  // a program out of descriptors still tells the launcher
  launcher_files::record_verdict(status,
                                 !w.launcher_copy.empty() ? w.launcher_copy
                                 : w.written              ? w.path
                                                          : "",
                                 problem, cuda_seen() && !w.written ? w.path : "");
  if (!over_budget.empty()) print("==" + std::to_string(getpid()) + "==cudaleak: " + over_budget);
  if (!runtime().gate.asked()) return -1;
  if (!problem.empty()) {
    log_message("the leak gate cannot be evaluated: %s; exiting with status %d (gate_error_exitcode)", problem.c_str(),
                opt.gate_error_exitcode);
    return opt.gate_error_exitcode;
  }
  if (w.gate.failed) {
    std::string tensors = w.gate.failing_tensor_groups
                              ? ", " + std::to_string(w.gate.failing_tensor_groups) + " of them PyTorch's live tensors"
                              : "";
    if (w.gate.failing_growth_sites)
      tensors += ", of which " + count_of(w.gate.failing_growth_sites, "site", "sites") +
                 " grew steadily past fail_on_growth (" + opt.fail_on_growth + ")";
    log_message(
        "leak gate failed: %s (%s, %llu bytes) not suppressed%s%s; exiting with "
        "status %d (error_exitcode)",
        count_of(w.gate.failing_groups, "leak group", "leak groups").c_str(),
        count_of(w.gate.failing_count, "resource", "resources").c_str(),
        static_cast<unsigned long long>(w.gate.failing_bytes),
        runtime().gate.get().baseline ? " and new or grown beyond the baseline" : "", tensors.c_str(),
        opt.error_exitcode);
    return opt.error_exitcode;
  }
  if (!over_budget.empty()) {
    log_message("memory budget exceeded; exiting with status %d (error_exitcode)", opt.error_exitcode);
    return opt.error_exitcode;
  }
  return -1;
}

}  // namespace

int finish_at_exit() { return finish(Reason::Exit); }
void finish_on_termination(int) { finish(Reason::Termination); }

unsigned next_report_sequence() { return runtime().reports.sequence.fetch_add(1); }

}  // namespace cudaleak
