// Reports at the points in a process's life: crash, signal, fork, and the
// interception edge cases of the driver API.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {
// Runs `name` (it leaks 1 MiB, says `said`, then dies of SIGSEGV) and returns
// its one report, checked to be the crash's with that leak.
cudaleak::report::Report crash_report_of(const std::string& name, const std::string& said) {
  auto dir = fresh_dir(name);
  Result res = run_sim(dir, {program(name)});
  CHECK(res.signal == SIGSEGV);
  CHECK(res.out == said);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  CHECK(r.reason == Reason::Crash);
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].bytes == (1u << 20));
  return r;
}
}  // namespace

TEST_CASE("crash: a report of live resources, then death by the same signal", "[e2e][lifecycle]") {
  auto r = crash_report_of("crash_after_leak", "about to crash\n");
  CHECK(stack_has(r.leaks[0], "main"));
  // Frames in shared libraries symbolized too: each module's load address is
  // right, so the runtime's frame names the API the program called.
  CHECK(r.leaks[0].api == "cudaMalloc");
  CHECK(stack_has(r.leaks[0], "cudaMalloc"));
  CHECK(r.process.start_unix_ns > 1'600'000'000'000'000'000ull);  // a merge can place it among the others
  // The memory timeline and the marks up to the crash, as an exit report has them.
  REQUIRE(r.timeline.devices.size() == 1);
  const auto& device = r.timeline.devices[0];
  CHECK(device.peak.bytes == (1u << 20));
  REQUIRE_FALSE(device.points.empty());
  auto device_kind = std::find(r.timeline.kinds.begin(), r.timeline.kinds.end(), Kind::Device) -
                     r.timeline.kinds.begin();
  REQUIRE(size_t(device_kind) < r.timeline.kinds.size());
  CHECK(device.points.back().bytes.at(size_t(device_kind)) == (1u << 20));
  REQUIRE(r.timeline.marks.size() == 1);
  CHECK(r.timeline.marks[0].type == MarkType::Checkpoint);
  CHECK(r.timeline.marks[0].name == "allocated");
}

TEST_CASE("crash reports can be turned off", "[e2e][lifecycle]") {
  auto dir = fresh_dir("crash_off");
  Result res = run_sim(dir, {program("crash_after_leak")}, {"--crash-report", "false"});
  CHECK(res.signal == SIGSEGV);
  CHECK(files_in(dir).empty());
}

TEST_CASE("signal: SIGUSR1 writes a snapshot, the exit report follows", "[e2e][lifecycle]") {
  auto dir = fresh_dir("signal");
  // The program waits for its snapshot file: report.<pid>.0.json.
  std::vector<std::string> argv = {cudaleak_tool(),         "run", "--simulated-gpu",          "-o",
                                   dir + "/report.%n.json", "--",  program("signal_snapshot"), dir + "/report.0.json"};
  Result res = run(argv);
  CHECK(res.exit_code == 0);
  CHECK(res.out == "snapshot seen\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  auto snapshot = load(dir + "/report.0.json");
  CHECK(snapshot.reason == Reason::Signal);
  // The program still holds it in main's frame: alive, still reachable, not leaked.
  CHECK(snapshot.summary.reachable_bytes == (2u << 20));
  CHECK(snapshot.summary.leaked_bytes == 0);
  auto final_report = load(dir + "/report.1.json");
  CHECK(final_report.reason == Reason::Exit);
  CHECK(final_report.leaks.empty());
  REQUIRE(final_report.timeline.marks.size() == 1);  // the snapshot, on the timeline
  CHECK(final_report.timeline.marks[0].type == MarkType::Snapshot);
}

TEST_CASE("fork: each process reports only what it created, under its own pid", "[e2e][lifecycle]") {
  auto dir = fresh_dir("fork");
  Result res = run_sim(dir, {program("fork_child")});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "child exited 0\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  auto a = load(files[0]), b = load(files[1]);
  auto& parent = a.process.pid == b.process.ppid ? a : b;
  auto& child = a.process.pid == b.process.ppid ? b : a;
  CHECK(child.process.ppid == parent.process.pid);
  REQUIRE(parent.leaks.size() == 1);
  CHECK(parent.leaks[0].kind == Kind::Device);
  REQUIRE(child.leaks.size() == 1);
  CHECK(child.leaks[0].kind == Kind::Pinned);
  CHECK(child.leaks[0].bytes == (3u << 20));
}

TEST_CASE("driver API edges: ptsz look-ups, NULL arguments, unknown frees, OOM, reset", "[e2e][lifecycle]") {
  auto dir = fresh_dir("api_edges");
  Result res = run_sim(dir, {program("api_edges")}, {"--simulated-gpu-memory", "64MiB"});
  CHECK(res.exit_code == 0);
  CHECK(res.out ==
        "ptsz alloc: 0\n"
        "errno kept: 1\n"
        "null alloc: 1\n"
        "null stream: 1\n"
        "unknown free: 1\n"
        "oom: 2\n"
        "reset: 0\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);  // the 1 TiB request's "oom" report, then the exit report
  auto oom = load(files[0]);
  CHECK(oom.reason == Reason::Oom);
  REQUIRE(oom.oom_events.size() == 1);
  CHECK(oom.oom_events[0].request_bytes == (uint64_t(1) << 40));
  CHECK(oom.oom_events[0].diagnosis.at(0).cause == Cause::RequestTooLarge);
  auto r = load(files[1]);
  CHECK(r.reason == Reason::Exit);
  const auto* ptsz = find_group(r, "async");
  REQUIRE(ptsz);
  CHECK(ptsz->api == "cuMemAllocAsync_ptsz");
  CHECK(ptsz->bytes == 8192);
  const auto* torn = find_group(r, "device");
  REQUIRE(torn);
  CHECK(torn->bytes == 5000);
  CHECK(torn->released_by == "primary_context_reset");
  CHECK(r.summary.leaked_count == 2);  // the failed allocations left nothing behind
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].type == NoteType::UnknownRelease);
  CHECK(r.notes[0].api == "cuMemFree_v2");
  CHECK(r.notes[0].handle == 0x1234);
  REQUIRE(r.primary_contexts.size() == 1);
  CHECK(r.primary_contexts[0].resets == 1);
}

TEST_CASE("a process that never uses CUDA gets no report and no output", "[e2e][lifecycle]") {
  auto dir = fresh_dir("no_cuda");
  Result res = run_sim(dir, {"/bin/sh", "-c", "echo hello; exit 7"});
  CHECK(res.exit_code == 7);
  CHECK(res.out == "hello\n");
  CHECK(res.err.empty());
  CHECK(files_in(dir).empty());
}

TEST_CASE("forked children that never use CUDA, or are not traced, write nothing", "[e2e][lifecycle]") {
  // 40 children that make no CUDA call, two of them ending through exit(): only the parent reports.
  auto dir = fresh_dir("children_no_cuda");
  Result res = run_sim(dir, {program("fork_storm"), "40", "host"});
  CHECK(res.out == "forks 40 hung 0 failed 0\n");
  CHECK(files_in(dir).size() == 1);
  size_t summaries = 0;
  for (size_t at = 0; (at = res.err.find("SUMMARY: cudaleak:", at)) != std::string::npos; ++at) ++summaries;
  CHECK(summaries == 1);
  CHECK(res.err.find("none of its CUDA calls went through cudaleak") == std::string::npos);
  // --trace-children false: the child that leaks 3 MiB is neither tracked nor reported (no "0 leaked" report).
  auto untraced = fresh_dir("children_untraced");
  Result off = run_sim(untraced, {program("fork_child")}, {"--trace-children", "false", "--error-exitcode", "23"});
  CHECK(off.out == "child exited 0\n");
  CHECK(off.exit_code == 23);  // the parent's own leak
  auto files = files_in(untraced);
  REQUIRE(files.size() == 1);
  CHECK(load(files[0]).summary.leaked_bytes == (1u << 20));
}

TEST_CASE("a process that never uses CUDA keeps SIGUSR1's default action", "[e2e][lifecycle]") {
  auto dir = fresh_dir("usr1_no_cuda");
  const std::string script = "sleep 3 & p=$!; sleep 0.3; kill -USR1 $p; wait $p; echo status=$?";
  Result plain = run_preloaded({"/bin/sh", "-c", script}, "output=" + dir + "/r.%p.json");
  CHECK(plain.out == "status=138\n");  // 128 + SIGUSR1: died of it, as without cudaleak
  Result launched = run_sim(dir, {"/bin/sh", "-c", script});
  CHECK(launched.out == "status=138\n");
  CHECK(files_in(dir).empty());
}

TEST_CASE("launcher: bad options are named and nothing runs", "[e2e][launcher]") {
  Result res = run({cudaleak_tool(), "run", "--stack-depth", "0", "--", "/bin/true"});
  CHECK(res.exit_code == 2);
  CHECK(res.err.find("--stack-depth: '0' is not between 1 and 256") != std::string::npos);
  Result unknown = run({cudaleak_tool(), "run", "--option", "nope=1", "--", "/bin/true"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("unknown option 'nope'") != std::string::npos);
  Result missing = run({cudaleak_tool(), "run", "--", "/nonexistent/program"});
  CHECK(missing.exit_code == 127);
}

TEST_CASE("CUDALEAK_OPTIONS problems are reported by the library and the program still runs", "[e2e][launcher]") {
  auto dir = fresh_dir("bad_env_options");
  Result res = run_preloaded({sample("clean")}, "output=" + dir + "/r.json:colour=blue");
  CHECK(res.exit_code == 0);
  CHECK(res.out == "clean run finished\n");
  CHECK(res.err.find("CUDALEAK_OPTIONS: unknown option 'colour'") != std::string::npos);
  CHECK(files_in(dir).size() == 1);
}

TEST_CASE("a bad gate option stops the launcher and fails the gate under plain preload", "[e2e][launcher]") {
  auto dir = fresh_dir("bad_gate_options");
  for (const auto& [value, problem] :
       std::vector<std::pair<std::string, std::string>>{{"256", "'256' is not between 0 and 255"},
                                                        {"-1", "'-1' is not between 0 and 255"},
                                                        {"abc", "expected an integer, got 'abc'"},
                                                        {"1e999", "expected an integer, got '1e999'"}}) {
    INFO("error_exitcode=" << value);
    Result launched = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.json", "--",
                           sample("pinned_leak")},
                          {"CUDALEAK_OPTIONS=error_exitcode=" + value});
    CHECK(launched.exit_code == 2);
    CHECK(launched.out.empty());  // the program never started
    CHECK(launched.err == "cudaleak: CUDALEAK_OPTIONS: error_exitcode: " + problem + "\n");
    Result plain = run_preloaded({sample("pinned_leak")}, "output=" + dir + "/p.json:error_exitcode=" + value);
    CHECK(plain.exit_code == 125);
    CHECK(plain.out == "staging buffers ready\n");
    CHECK(plain.err.find("the leak gate cannot be evaluated: CUDALEAK_OPTIONS: error_exitcode: " + problem +
                         "; exiting with status 125") != std::string::npos);
  }
  // Any refused gate option, with error_exitcode set, leaves no verdict to trust.
  Result kind = run_preloaded({sample("clean")}, "output=" + dir + "/k.json:error_exitcode=23:fail_on=devic");
  CHECK(kind.exit_code == 125);
  CHECK(kind.err.find("fail_on: 'devic' holds 'devic', which is not a kind") != std::string::npos);
  Result status = run_preloaded({sample("clean")},
                                "output=" + dir + "/s.json:error_exitcode=23:gate_error_exitcode=300");
  CHECK(status.exit_code == 125);
  // Without error_exitcode no gate was asked for: the program's status stays.
  Result ungated = run_preloaded({sample("pinned_leak")}, "output=" + dir + "/u.json:min_bytes=-1");
  CHECK(ungated.exit_code == 0);
  CHECK(ungated.err.find("CUDALEAK_OPTIONS: min_bytes: '-1' is below 0") != std::string::npos);
}

TEST_CASE("an injected failure reaches the program untouched and records nothing", "[e2e][lifecycle]") {
  auto dir = fresh_dir("fault_injection");
  // The second cudaMalloc of loop_leak (the first step's result buffer) fails.
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.json", "--", sample("loop_leak")},
                   {"CUDALEAK_SIM_FAIL=cuMemAlloc_v2:2"});
  CHECK(res.exit_code == 2);
  CHECK(res.err.find("cudaMalloc(&result, 16 << 10) failed: out of memory") != std::string::npos);
  auto r = load(dir + "/r.json");
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].count == 1);
  CHECK(r.leaks[0].bytes == (64u << 10));  // the scratch buffer of the step that failed
}

TEST_CASE("crash: a stack overflow still writes its report, on the alternate signal stack", "[e2e][lifecycle]") {
  auto r = crash_report_of("stack_overflow", "about to overflow\n");
  CHECK(stack_has(r.leaks[0], "main"));
}

TEST_CASE("crash: a crash report that cannot be written says so, and concurrent crashes keep every report",
          "[e2e][lifecycle]") {
  // The report's directory went away while the program ran: one line names
  // the path and the problem.
  auto dir = fresh_dir("crash_unwritable") + "/gone";
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/crash.json", "--", "/bin/sh", "-c",
                    "rmdir '" + dir + "' && exec '" + program("crash_after_leak") + "'"});
  CHECK(res.signal == SIGSEGV);
  CHECK(res.err.find("cudaleak: the crash report could not be written to " + dir) != std::string::npos);
  // Eight processes of one run crash at once into one name without %p: each report kept.
  auto shared = fresh_dir("crash_shared_name");
  std::string many;
  for (int i = 0; i < 8; ++i) many += program("crash_after_leak") + " & ";
  Result all = run(
      {cudaleak_tool(), "run", "--simulated-gpu", "-o", shared + "/crash.json", "--", "/bin/sh", "-c", many + "wait"});
  size_t reports = 0;
  for (const auto& f : files_in(shared)) reports += load(f).reason == Reason::Crash;
  CHECK(reports == 8);
}

TEST_CASE("_exit and _Exit: the exit report and the gate as at exit, and nothing from a vfork child",
          "[e2e][lifecycle]") {
  for (const std::string how : {"_exit", "_Exit"}) {
    auto dir = fresh_dir("exit_paths" + how);
    // main's frame still holds the pointer when it leaves: leak_kinds=all counts what is still reachable.
    Result res = run_sim(dir, {program("exit_paths"), how}, {"--error-exitcode", "23", "--leak-kinds", "all"});
    CHECK(res.exit_code == 23);  // the gate's status, as when leaving by exit()
    CHECK(res.out == "leaving by " + how + "\n");
    auto files = files_in(dir);
    REQUIRE(files.size() == 1);
    auto r = load(files[0]);
    CHECK(r.reason == Reason::Exit);
    REQUIRE(r.leaks.size() == 1);
    CHECK(r.leaks[0].bytes == (1u << 20));
  }
  auto dir = fresh_dir("exit_paths_vfork");
  Result res = run_sim(dir, {program("exit_paths"), "vfork"}, {"--error-exitcode", "23"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "vfork child exited 7\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);  // the parent's, at its exit: the vfork child finished nothing of it
  CHECK(load(files[0]).leaks.empty());
}

TEST_CASE("a process killed before its report: named by the launcher, and the gate is not green", "[e2e][lifecycle]") {
  auto dir = fresh_dir("exit_paths_killed");
  Result gated = run_sim(dir, {program("exit_paths"), "killed-child"},
                         {"--error-exitcode", "23", "--junit", dir + "/../exit_paths_killed.xml"});
  CHECK(gated.out == "child killed by signal 9\n");
  CHECK(gated.exit_code == 125);  // gate_error_exitcode: what it leaked is unknown
  CHECK(gated.err.find("used CUDA and ended without its report") != std::string::npos);
  CHECK(gated.err.find("exit_paths killed-child") != std::string::npos);  // its command line
  CHECK(files_in(dir).empty());                                           // the child wrote no report
  const std::string xml = read_file(dir + "/../exit_paths_killed.xml");
  CHECK(xml.find("errors=\"1\"") != std::string::npos);
  CHECK(xml.find("exit_paths killed-child)\" tests=\"1\" failures=\"0\" skipped=\"0\" errors=\"1\"") !=
        std::string::npos);
  CHECK(xml.find("<error message=\"used CUDA and ended without its report") != std::string::npos);
  Result plain = run_sim(fresh_dir("exit_paths_killed_plain"), {program("exit_paths"), "killed-child"});
  CHECK(plain.exit_code == 0);  // no gate asked: the program's own status, and the same warning
  CHECK(plain.err.find("used CUDA and ended without its report") != std::string::npos);
  // The program itself: the launcher saw its death, and names the signal.
  Result own = run_sim(fresh_dir("exit_paths_usr2"), {program("exit_paths"), "usr2"}, {"--error-exitcode", "23"});
  CHECK(own.signal == SIGUSR2);  // the launcher dies of the program's signal
  CHECK(own.err.find("ended without its report: died of signal " + std::to_string(SIGUSR2)) != std::string::npos);
}

TEST_CASE("reports sent to /dev/null still fill the launcher's JUnit and SARIF files", "[e2e][lifecycle]") {
  auto dir = fresh_dir("exit_paths_devnull");
  const std::string junit = dir + "/leaks.xml", sarif = dir + "/leaks.sarif";
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", "/dev/null", "--junit", junit, "--sarif", sarif,
                    "--leak-kinds", "all", "--", program("exit_paths"), "_exit"});
  CHECK(res.exit_code == 0);
  const std::string xml = read_file(junit);
  CHECK(xml.find("failures=\"1\"") != std::string::npos);
  CHECK(xml.find("<failure") != std::string::npos);
  CHECK(read_file(sarif).find("\"ruleId\"") != std::string::npos);
}
