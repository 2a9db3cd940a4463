#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "report/render/ci_formats.h"
#include "report/render/diff_output.h"
#include "report/model/merge.h"
#include "report/analyze/views.h"
#include "tests/unit/report_frames.h"

using namespace cudaleak::report;

namespace {
LeakGroup group(const std::string& kind, uint64_t bytes, uint64_t count, const std::string& fn, const std::string& file,
                int line, int device = 0) {
  LeakGroup g;
  REQUIRE(parse_name(kind, g.kind));
  g.bytes = bytes;
  g.count = count;
  g.device = device;
  g.api = "cudaMalloc";
  g.stack = {{1, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
             {2, "/app/prog", fn, file, line},
             {3, "/app/prog", "main", "/src/main.cpp", 9}};
  return g;
}
Report sample_report(int pid, int rank) {
  Report r;
  r.reason = Reason::Exit;
  r.process.pid = pid;
  r.process.rank = rank;
  r.leaks = {group("device", 4000, 2, "load_weights", "/src/model.cpp", 10),
             group("pinned", 100, 1, "stage", "/src/io.cpp", 20, 1),
             group("stream", 0, 3, "start_workers", "/src/pool.cpp", 30)};
  r.leaks[1].suppressed_by = "leak:stage (x.supp:1)";
  r.summary.leaked_bytes = 4000;
  r.summary.leaked_count = 5;
  r.summary.by_kind = {{Kind::Device, {4000, 2}}, {Kind::Stream, {0, 3}}};
  r.summary.suppressed_bytes = 100;
  r.summary.suppressed_count = 1;
  return r;
}
}  // namespace

TEST_CASE("filters: kind, device, bytes, module and function, suppressed only when asked", "[views]") {
  Report r = sample_report(1, -1);
  CHECK(filter_report(r, {}).leaks.size() == 2);
  Filter with_suppressed;
  with_suppressed.include_suppressed = true;
  CHECK(filter_report(r, with_suppressed).leaks.size() == 3);
  Filter kinds;
  kinds.kinds = {Kind::Stream};
  Report streams = filter_report(r, kinds);
  REQUIRE(streams.leaks.size() == 1);
  CHECK(streams.summary.leaked_count == 3);
  CHECK(streams.summary.leaked_bytes == 0);
  Filter fn;
  fn.function = "load_*";
  CHECK(filter_report(r, fn).leaks.at(0).kind == Kind::Device);
  Filter dev;
  dev.device = 1;
  dev.include_suppressed = true;
  CHECK(filter_report(r, dev).leaks.size() == 1);
  Filter big;
  big.min_bytes = 5000;
  CHECK(filter_report(r, big).leaks.empty());
  Filter mod;
  mod.module = "libcublas*";
  CHECK(filter_report(r, mod).leaks.empty());
}

TEST_CASE("aggregates by function, file, module and kind", "[views]") {
  Report r = sample_report(1, -1);
  r.leaks.push_back(group("device", 1000, 1, "load_weights", "/src/model.cpp", 44));
  auto by_fn = aggregate(r, "function");
  REQUIRE(by_fn.size() == 3);
  CHECK(by_fn[0].key == "load_weights");
  CHECK(by_fn[0].bytes == 5000);
  CHECK(by_fn[0].groups == 2);
  CHECK(aggregate(r, "file")[0].key == "/src/model.cpp");
  CHECK(aggregate(r, "module")[0].key == "/app/prog");
  CHECK(aggregate(r, "kind")[0].key == "device");
  CHECK_THROWS_AS(aggregate(r, "colour"), std::invalid_argument);
}

TEST_CASE("a ctypes call is folded under the Python function that made it, not the FFI", "[views]") {
  Report r;
  LeakGroup g;
  g.kind = Kind::Device;
  g.bytes = 1 << 20;
  g.count = 1;
  g.api = "cuMemAlloc_v2";
  g.stack = {{0x1, "/usr/lib/x86_64-linux-gnu/libffi.so.8.1.4", "", "", 0},
             {0x2, "/usr/lib/x86_64-linux-gnu/libffi.so.8.1.4", "ffi_call", "", 0},
             {0x3, "/usr/lib/python3.12/lib-dynload/_ctypes.cpython-312-x86_64-linux-gnu.so", "", "", 0},
             {0x4, "/usr/bin/python3.12", "_PyObject_MakeTpCall", "", 0},
             cudaleak::test::python_frame("leak_through_the_driver", "/work/rank_steps.py", 10)};
  r.leaks = {g};
  CHECK(aggregate(r, "function")[0].key == "leak_through_the_driver");
  CHECK(aggregate(r, "file")[0].key == "/work/rank_steps.py");
  // Without a frame of the user's, never libffi's or the interpreter's
  // (report/model/frame_owner.h): the API.
  r.leaks[0].stack.pop_back();
  CHECK(aggregate(r, "function")[0].key == "(cuMemAlloc_v2)");
  // A stripped program: its own unnamed frame, not the C runtime's below it.
  r.leaks[0].stack = {{0x5, "/app/stripped", "", "", 0},
                      {0x6, "/app/stripped", "", "", 0},
                      {0x7, "/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_call_main", "", 0}};
  CHECK(aggregate(r, "function")[0].key == "??");
  CHECK(aggregate(r, "module")[0].key == "/app/stripped");
}

TEST_CASE("aggregates by function: a template's instances fold into the one row a reader sees", "[views]") {
  Report r;
  for (const char* type : {"float", "double"}) {
    LeakGroup g;
    g.kind = Kind::Device;
    g.bytes = 1000;
    g.count = 1;
    std::string name = std::string("ns::run<") + type + ", " + std::string(200, 'x') + ">(int)";
    g.stack = {{0x1, "/app/prog", name, "", 0}};
    r.leaks.push_back(g);
  }
  auto rows = aggregate(r, "function");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].key == "ns::run<...>(...)");
  CHECK(rows[0].bytes == 2000);
  CHECK(rows[0].groups == 2);
}

TEST_CASE("diff classifies sites new, gone, grown, shrunk and same", "[views]") {
  Report before = sample_report(1, -1), after = sample_report(2, -1);
  after.leaks[0].bytes = 8000;                                                    // grown
  after.leaks[2].count = 1;                                                       // shrunk
  after.leaks.push_back(group("event", 0, 1, "record", "/src/timer.cpp", 5));     // new
  before.leaks.push_back(group("array", 64, 1, "make_tex", "/src/tex.cpp", 7));   // gone
  before.leaks.push_back(group("managed", 64, 1, "same_site", "/src/s.cpp", 1));  // same
  after.leaks.push_back(group("managed", 64, 1, "same_site", "/src/s.cpp", 1));
  std::map<std::string, Change> seen;
  std::vector<Change> order;
  for (const auto& c : diff_reports({before}, {after})) {
    seen[text_of(c.kind)] = c.change;
    order.push_back(c.change);
  }
  CHECK(seen.at("device") == Change::Grown);
  CHECK(seen.at("stream") == Change::Shrunk);
  CHECK(seen.at("event") == Change::New);
  CHECK(seen.at("array") == Change::Gone);
  CHECK(seen.at("managed") == Change::Same);
  CHECK(seen.count("pinned") == 0);
  // Listed new, grown, gone, shrunk, same.
  CHECK(order == std::vector<Change>{Change::New, Change::Grown, Change::Gone, Change::Shrunk,
                                     Change::Same});  // suppressed on both sides
  // Sites are identities, not addresses: another run at other addresses matches.
  Report moved = before;
  for (auto& g : moved.leaks)
    for (auto& f : g.stack) f.ip += 0x10000;
  for (const auto& c : diff_reports({before}, {moved})) CHECK(c.change == Change::Same);
}

TEST_CASE("diff output: text lines for changed sites, JSON for every site, as cudaleak diff printed them", "[views]") {
  std::vector<SiteChange> changes = {
      {"new \xf0\x9f\x98\x80 site", Kind::Pinned, Change::New, 0, 4096, 0, 1},
      {"grown \"q\" \\ site", Kind::Device, Change::Grown, 100, 200, 1, 1},
      {"gone\tsite\x01", Kind::Stream, Change::Gone, 0, 0, 2, 0},
      {"same site", Kind::Device, Change::Same, 100, 100, 1, 1},
  };
  CHECK(new_or_grown(changes) == 2);
  // The JSON is the document nlohmann wrote for it before the diff had a renderer.
  nlohmann::json expected = nlohmann::json::array();
  for (const auto& c : changes)
    expected.push_back({{"change", text_of(c.change)},
                        {"kind", text_of(c.kind)},
                        {"site", c.site},
                        {"old_bytes", c.old_bytes},
                        {"new_bytes", c.new_bytes},
                        {"old_count", c.old_count},
                        {"new_count", c.new_count}});
  CHECK(cudaleak::render::diff_json(changes) ==
        expected.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  CHECK(cudaleak::render::diff_json({}) == "[]\n");
  const std::string text = cudaleak::render::diff_text(changes);
  CHECK(text.find("new     pinned                0 B -> 4.0 KiB     0 -> 1  new \xf0\x9f\x98\x80 site\n") == 0);
  CHECK(text.find("grown   device              100 B -> 200 B       1 -> 1  grown \"q\" \\ site\n") !=
        std::string::npos);
  CHECK(text.find("same site") == std::string::npos);  // unchanged sites are counted, not listed
  CHECK(text.ends_with("\n2 leak sites new or grown, 4 compared\n"));
}

TEST_CASE("merge keeps each group's process and rank and adds up totals", "[views]") {
  Report a = sample_report(100, 0), b = sample_report(200, 1);
  b.timeline.devices.push_back(DeviceTimeline{});
  Report m = merge_reports({a, b});
  CHECK(m.reason == Reason::Merged);
  REQUIRE(m.processes.size() == 2);
  CHECK(m.processes[1].process.rank == 1);
  // The two ranks leak at the same three sites: three groups of two ranks each.
  CHECK(m.leaks.size() == 3);
  CHECK(m.summary.leaked_bytes == 8000);
  CHECK(m.summary.by_kind[Kind::Stream].count == 6);
  int rank1 = 0;
  for (const auto& g : m.leaks)
    for (const auto& share : g.ranks) rank1 += share.pid == 200 && share.rank == 1;
  CHECK(rank1 == 3);
  // Processes without a rank (fork children) keep a group each.
  CHECK(merge_reports({sample_report(100, -1), sample_report(200, -1)}).leaks.size() == 6);
  CHECK(m.timeline.devices.at(0).pid == 200);
  // Merging merged reports keeps every process.
  CHECK(merge_reports({m, sample_report(300, 2)}).processes.size() == 3);
}

TEST_CASE("merge counts a process that wrote several reports once, by its latest", "[views]") {
  Report oom = sample_report(100, 0), exit = sample_report(100, 0), other = sample_report(200, 1);
  oom.process.run_id = exit.process.run_id = "100-5-aa";
  other.process.run_id = "200-5-bb";
  oom.reason = Reason::Oom;
  oom.duration_ns = 10;
  exit.duration_ns = 20;
  exit.oom_events = {OomEvent{}};  // the exit report carries the process's every out-of-memory
  oom.oom_events = exit.oom_events;
  Report m = merge_reports({exit, other, oom});
  REQUIRE(m.processes.size() == 2);
  CHECK(m.processes[0].reason == Reason::Exit);
  CHECK(m.summary.leaked_bytes == 8000);
  CHECK(m.oom_events.size() == 1);
  REQUIRE(m.history.size() == 1);
  CHECK(m.history[0].reason == Reason::Oom);
  CHECK(m.history[0].process.run_id == "100-5-aa");
  // Of one process alone: its latest report, as read on its own, with the earlier as history.
  Report one = merge_reports({oom, exit});
  CHECK(one.reason == Reason::Exit);
  CHECK(one.processes.size() == 1);
  CHECK(one.history.size() == 1);
  // Merged again with a merged report: history kept, nothing counted twice.
  Report again = merge_reports({m, sample_report(300, 2)});
  CHECK(again.processes.size() == 3);
  CHECK(again.history.size() == 1);
  // A folder holding the merge and the reports it was made of: the same reports twice, neither
  // counted again nor called earlier reports.
  Report folder = merge_reports({m, exit, other});
  CHECK(folder.processes.size() == 2);
  CHECK(folder.summary.leaked_bytes == m.summary.leaked_bytes);
  CHECK(folder.history.size() == 1);  // the out-of-memory report the merge already held as history
  // The same merge twice (a folder merged twice into it), or a merge of a subset: counted once.
  Report twice = merge_reports({m, m, exit, other});
  CHECK(twice.processes.size() == 2);
  CHECK(twice.summary.leaked_bytes == m.summary.leaked_bytes);
  Report subset = merge_reports({merge_reports({exit}), m});
  CHECK(subset.processes.size() == 2);
  CHECK(subset.summary.leaked_bytes == m.summary.leaked_bytes);
  // Reports without a run_id: the same pid and start are one process; no start, never matched.
  Report old_a = sample_report(100, 0), old_b = sample_report(100, 0);
  old_a.process.start_unix_ns = old_b.process.start_unix_ns = 7;
  old_b.duration_ns = 5;
  CHECK(merge_reports({old_b, old_a}).processes.size() == 1);
  old_b.process.start_unix_ns = 8;  // the same pid reused later: another process
  CHECK(merge_reports({old_a, old_b}).processes.size() == 2);
  CHECK(merge_reports({sample_report(100, 0), sample_report(100, 0)}).processes.size() == 2);
}

TEST_CASE("merge keeps cached totals, modules, suppressions and lines up timeline kinds", "[views]") {
  Report a = sample_report(100, 0), b = sample_report(200, 1);
  a.leaks[0].cached_by = "PyTorch caching allocator";
  a.modules = {Module{"/app/prog", 0x1000, "ab"}};
  b.modules = {Module{"/app/prog", 0x1000, "ab"}, Module{"/lib/libx.so", 0x7000, "cd"}};
  a.suppressions = {SuppressionUse{"leak:stage", "x.supp:1", 1, 100}};
  b.suppressions = {SuppressionUse{"leak:stage", "x.supp:1", 1, 100}};
  a.timeline.kinds = {Kind::Device, Kind::Pinned};
  b.timeline.kinds = {Kind::Managed, Kind::Device};
  a.timeline.devices = {DeviceTimeline{0, 0, 10, {}, {TimelinePoint{5, {7, 8}, 15}}}};
  b.timeline.devices = {DeviceTimeline{0, 0, 10, {}, {TimelinePoint{6, {3, 4}, 7}}}};
  Report m = merge_reports({a, b});
  CHECK(m.summary.cached_bytes == 4000);
  CHECK(m.summary.cached_by.at("PyTorch caching allocator").count == 2);
  CHECK(m.summary.leaked_bytes == 4000);  // b's device group; a's is cached
  CHECK(m.modules.size() == 2);
  REQUIRE(m.suppressions.size() == 1);
  CHECK(m.suppressions[0].count == 2);
  CHECK(m.suppressions[0].bytes == 200);
  CHECK(m.timeline.kinds == std::vector<Kind>{Kind::Device, Kind::Pinned, Kind::Managed});
  REQUIRE(m.timeline.devices.size() == 2);
  CHECK(m.timeline.devices[0].points[0].bytes == std::vector<uint64_t>{7, 8, 0});
  CHECK(m.timeline.devices[1].points[0].bytes == std::vector<uint64_t>{4, 0, 3});
  CHECK(m.timeline.devices[1].pid == 200);
}

TEST_CASE("merge puts processes started apart on one time axis from the earliest start", "[views]") {
  Report a = sample_report(100, 0), b = sample_report(200, 1), c = sample_report(300, 2);
  a.process.start_unix_ns = 5'000'000'000;
  b.process.start_unix_ns = 5'300'000'000;  // started 300 ms after a
  c.process.start_unix_ns = 0;              // an older report that does not say: left as it is
  a.duration_ns = 1'000'000'000;
  b.duration_ns = 1'000'000'000;
  b.timeline.kinds = {Kind::Device};
  b.timeline.devices = {DeviceTimeline{0, 0, 10, Peak{40, 9, {}, {}}, {TimelinePoint{20, {9}, 9}}}};
  b.timeline.marks = {TimelineMark{30, MarkType::Checkpoint, "epoch 1", 0}};
  a.timeline.marks = {TimelineMark{400'000'000, MarkType::Snapshot, "", 0}};
  b.leaks[0].allocations = {
      Allocation{cudaleak::Record{.handle = 0x10, .bytes = 8, .sequence = 1, .time_ns = 25, .thread = 1}}};
  OomEvent e;
  e.time_ns = 50;
  e.top_sites = {OomSite{Kind::Device, "cudaMalloc", "f", 8, 1, 10, 20, {}}};
  b.oom_events = {e};
  Report m = merge_reports({a, b, c});
  const uint64_t shift = 300'000'000;
  CHECK(m.duration_ns == shift + 1'000'000'000);
  REQUIRE(m.timeline.devices.size() == 1);
  CHECK(m.timeline.devices[0].points[0].time_ns == shift + 20);
  CHECK(m.timeline.devices[0].peak.time_ns == shift + 40);
  REQUIRE(m.timeline.marks.size() == 2);
  CHECK(m.timeline.marks[0].time_ns == shift + 30);  // sorted by time across processes
  CHECK(m.timeline.marks[0].pid == 200);
  CHECK(m.timeline.marks[1].pid == 100);
  CHECK(m.oom_events.at(0).time_ns == shift + 50);
  CHECK(m.oom_events[0].top_sites[0].first_ns == shift + 10);
  bool found = false;
  for (const auto& g : m.leaks)  // the three ranks' groups of one site are one, listing b's allocation
    if ((g.pid == 200 || std::any_of(g.ranks.begin(), g.ranks.end(), [](const auto& s) { return s.pid == 200; })) &&
        !g.allocations.empty())
      found = g.allocations[0].record.time_ns == shift + 25;
  CHECK(found);
  CHECK(m.processes[1].process.start_unix_ns == 5'300'000'000);
  // A merged report merged again keeps its processes' times (origin: its earliest start).
  Report again = merge_reports({m, a});
  CHECK(again.timeline.marks.at(0).time_ns == shift + 30);
}

TEST_CASE("SARIF's default source root is the git work tree above a directory", "[views]") {
  std::string root = cudaleak::render::find_source_root(CUDALEAK_FIXTURES);
  CHECK(std::filesystem::exists(root + "/.git"));
  CHECK(std::string(CUDALEAK_FIXTURES).starts_with(root + "/"));
  CHECK(cudaleak::render::find_source_root("/proc") == "");
}

TEST_CASE("SARIF: each out-of-memory the program saw is one warning at the user's line, recovered calls none",
          "[views][ci]") {
  cudaleak::report::Report r;
  r.process.pid = 7;
  r.process.exe = "/src/train";
  cudaleak::report::OomEvent e;
  e.api = "cudaMalloc";
  e.request_bytes = 1 << 30;
  e.device = 0;
  cudaleak::report::Frame user;
  user.function = "train_step";
  user.file = "/src/repo/train.py";
  user.line = 11;
  user.python = true;
  e.stack = {user};
  e.attempts.resize(2);
  e.diagnosis = {{cudaleak::report::Cause::LiveTensors, 1 << 30, "1.0 GiB is held by live tensors"}};
  cudaleak::report::OomEvent recovered = e;
  recovered.recovered = true;
  r.oom_events = {e, recovered};
  auto sarif = nlohmann::json::parse(cudaleak::render::sarif_json({r}, "/src/repo"));
  const auto& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["ruleId"] == "cudaleak/out-of-memory");
  CHECK(results[0]["level"] == "warning");
  const auto& where = results[0]["locations"][0]["physicalLocation"];
  CHECK(where["artifactLocation"]["uri"] == "train.py");
  CHECK(where["region"]["startLine"] == 11);
  std::string text = results[0]["message"]["text"];
  CHECK(text.find("in train_step (train.py:11)") != std::string::npos);
  CHECK(text.find("Before it, 2 calls") != std::string::npos);
  CHECK(text.find("1. 1.0 GiB is held by live tensors") != std::string::npos);
}

TEST_CASE("SARIF: the repository's root is found from its root and from below it, as a clean path", "[views][ci]") {
  namespace fs = std::filesystem;
  fs::path repo = fs::temp_directory_path() / ("cudaleak-root-" + std::to_string(::getpid()));
  fs::remove_all(repo);
  fs::create_directories(repo / ".git");
  fs::create_directories(repo / "src" / "deep");
  CHECK(cudaleak::render::find_source_root(repo.string()) == repo.string());
  CHECK(cudaleak::render::find_source_root(repo.string() + "/.") == repo.string());  // was "/repo/."
  CHECK(cudaleak::render::find_source_root(repo.string() + "/") == repo.string());
  CHECK(cudaleak::render::find_source_root((repo / "src" / "deep").string()) == repo.string());
  CHECK(cudaleak::render::find_source_root((repo / "src" / ".." / "src").string()) == repo.string());

  cudaleak::report::Report r;
  r.process.exe = repo.string() + "/app";
  cudaleak::report::LeakGroup g;
  g.kind = cudaleak::report::Kind::Device;
  g.fails_gate = true;
  g.site = "main";
  cudaleak::report::Frame f;
  f.function = "main";
  f.file = repo.string() + "/src/./my file.cu";
  f.line = 3;
  g.stack = {f};
  r.leaks = {g};
  auto sarif = nlohmann::json::parse(
      cudaleak::render::sarif_json({r}, cudaleak::render::find_source_root(repo.string() + "/.")));
  CHECK(sarif["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"] == "file://" + repo.string() + "/");
  const auto& where = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  CHECK(where["uriBaseId"] == "SRCROOT");
  CHECK(where["uri"] == "src/my%20file.cu");
  fs::remove_all(repo);
}

TEST_CASE("SARIF: a leak in a binary without debug info is located at the binary, named by its function",
          "[views][ci]") {
  cudaleak::report::Report r;
  r.process.exe = "/opt/app/bin/solver";
  cudaleak::report::LeakGroup g;
  g.kind = cudaleak::report::Kind::Device;
  g.fails_gate = true;
  g.site = "solver+0x11a9";
  cudaleak::report::Frame f;
  f.ip = 0x4011a9;
  f.module = "/opt/app/bin/solver";
  f.function = "solve";  // from the symbol table: no file, no line
  g.stack = {f};
  r.leaks = {g};
  auto sarif = nlohmann::json::parse(cudaleak::render::sarif_json({r}, "/src/repo"));
  const auto& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  REQUIRE(results[0].contains("locations"));
  const auto& location = results[0]["locations"][0];
  CHECK(location["physicalLocation"]["artifactLocation"]["uri"] == "file:///opt/app/bin/solver");
  CHECK_FALSE(location["physicalLocation"].contains("region"));  // no line to point at
  CHECK(location["logicalLocations"][0]["fullyQualifiedName"] == "solve");
}

TEST_CASE("JUnit and SARIF with no report at all but a process the gate could not judge are never clean", "[views]") {
  const std::vector<cudaleak::render::UnjudgedProcess> unjudged = {
      {"4242 (python worker.py)", "its report could not be written to /out/r.json: No space left on device"}};
  const std::string xml = cudaleak::render::junit_xml({}, unjudged);
  CHECK(xml.find("tests=\"1\" failures=\"0\" skipped=\"0\" errors=\"1\"") != std::string::npos);
  CHECK(xml.find("<testsuite name=\"4242 (python worker.py)\"") != std::string::npos);
  CHECK(xml.find("<error message=\"its report could not be written to /out/r.json: No space left on device: what "
                 "it leaked is unknown\"/>") != std::string::npos);
  auto sarif = nlohmann::json::parse(cudaleak::render::sarif_json({}, "", unjudged));
  const auto& invocation = sarif["runs"][0]["invocations"][0];
  CHECK(invocation["executionSuccessful"] == false);
  REQUIRE(invocation["toolExecutionNotifications"].size() == 1);
  CHECK(invocation["toolExecutionNotifications"][0]["level"] == "error");
  CHECK(invocation["toolExecutionNotifications"][0]["message"]["text"].get<std::string>().starts_with(
      "process 4242 (python worker.py): its report could not be written"));
  // Nothing unjudged: the invocation succeeded, and says so.
  auto clean = nlohmann::json::parse(cudaleak::render::sarif_json({}));
  CHECK(clean["runs"][0]["invocations"][0]["executionSuccessful"] == true);
  CHECK(!clean["runs"][0]["invocations"][0].contains("toolExecutionNotifications"));
}
