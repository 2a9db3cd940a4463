// The CI leak gate end to end: exit codes, suppressions, baselines,
// checkpoints, children, and what happens with bad input.
#include <catch2/catch.hpp>

#include <csignal>
#include <fstream>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

Result gated(const std::string& dir, const std::vector<std::string>& command,
             const std::vector<std::string>& flags = {}) {
  std::vector<std::string> all = {"--error-exitcode", "23"};
  all.insert(all.end(), flags.begin(), flags.end());
  return run_sim(dir, command, all);
}

}  // namespace

TEST_CASE("gate: leaks make the run exit with error_exitcode, clean runs keep their status", "[e2e][gate]") {
  auto dir = fresh_dir("gate_exit");
  Result leaking = gated(dir, {sample("loop_leak")});
  CHECK(leaking.exit_code == 23);
  CHECK(leaking.out == "50 steps done\n");  // the program's output is flushed before the gate ends it
  CHECK(leaking.err.find("leak gate failed: 1 leak group (50 resources, 819200 bytes)") != std::string::npos);
  CHECK(gated(dir, {sample("clean")}).exit_code == 0);
  CHECK(run_sim(dir, {sample("loop_leak")}).exit_code == 0);  // no option: the program's own status
}

TEST_CASE("gate: a report carries a verdict only when a gate option asked for one", "[e2e][gate]") {
  auto verdict_of = [](const std::string& name, const std::vector<std::string>& flags) {
    auto dir = fresh_dir(name);
    run_sim(dir, {sample("loop_leak")}, flags);
    auto files = files_in(dir);
    REQUIRE(files.size() == 1);
    return load(files[0]);
  };
  auto gated_report = verdict_of("gate_asked_exitcode", {"--error-exitcode", "23"});
  CHECK(gated_report.gate.evaluated);
  CHECK(gated_report.gate.failed);
  CHECK(gated_report.gate.failing_groups == 1);
  auto fail_on = verdict_of("gate_asked_fail_on", {"--fail-on", "device"});  // what counts: a verdict, status kept
  CHECK(fail_on.gate.evaluated);
  CHECK(fail_on.gate.failed);
  // `cudaleak run` with no gate option gates nothing: the report has no verdict, only the groups it would count.
  auto plain = verdict_of("gate_not_asked", {});
  CHECK_FALSE(plain.gate.evaluated);
  CHECK_FALSE(plain.gate.failed);
  CHECK(plain.gate.failing_groups == 0);
  REQUIRE(plain.leaks.size() == 1);
  CHECK(plain.leaks[0].fails_gate);  // JUnit and SARIF still list it
  // Plain LD_PRELOAD alike; with error_exitcode it gates.
  auto dir = fresh_dir("gate_not_asked_preload");
  CHECK(run_preloaded({sample("loop_leak")}, "output=" + dir + "/p.json").exit_code == 0);
  CHECK_FALSE(load(dir + "/p.json").gate.evaluated);
  CHECK(run_preloaded({sample("loop_leak")}, "error_exitcode=23:output=" + dir + "/g.json").exit_code == 23);
  CHECK(load(dir + "/g.json").gate.evaluated);
  // A refused gate option still asks: the report says why there is no verdict.
  CHECK(run_preloaded({sample("clean")}, "fail_on=devise:output=" + dir + "/r.json").exit_code == 0);
  auto refused = load(dir + "/r.json");
  CHECK(refused.gate.evaluated);
  CHECK(refused.gate.error.find("fail_on") != std::string::npos);
}

TEST_CASE("gate: a program killed by a signal still dies of it", "[e2e][gate]") {
  auto dir = fresh_dir("gate_crash");
  CHECK(gated(dir, {program("crash_after_leak")}).signal == SIGSEGV);
}

TEST_CASE("gate: fail_on and min_bytes choose what counts", "[e2e][gate]") {
  auto dir = fresh_dir("gate_kinds");
  CHECK(gated(dir, {sample("stream_event_leak")}).exit_code == 23);
  CHECK(gated(dir, {sample("stream_event_leak")}, {"--fail-on", "device,pinned"}).exit_code == 0);
  CHECK(gated(dir, {sample("pinned_leak")}, {"--fail-on", "device,pinned"}).exit_code == 23);
  CHECK(gated(dir, {sample("loop_leak")}, {"--min-bytes", "1000000"}).exit_code == 0);  // 800 KiB < 1 MB
  CHECK(gated(dir, {sample("loop_leak")}, {"--min-bytes", "819200"}).exit_code == 23);
}

TEST_CASE("suppressions: matching rules hide leaks, stay visible in the report, and are counted", "[e2e][gate]") {
  auto dir = fresh_dir("gate_suppressions");
  auto supp = write_text(dir + "/../gate_app.supp",
                         "# known: the batch buffer of process_batch\n"
                         "leak:process_batch kind:device\n"
                         "leak:*never_called_function*\n");
  Result res = gated(dir, {sample("exception_leak")}, {"--suppressions", supp});
  CHECK(res.exit_code == 3);  // nothing counted: the program's own status
  CHECK(res.err.find("Suppressions used:") != std::string::npos);
  CHECK(res.err.find("      1    1.0 MiB  leak:process_batch kind:device (" + supp + ":2)") != std::string::npos);
  auto r = load(files_in(dir).front());
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].suppressed_by == "leak:process_batch kind:device (" + supp + ":2)");
  CHECK_FALSE(r.leaks[0].fails_gate);
  CHECK(r.summary.leaked_count == 0);
  CHECK(r.summary.suppressed_bytes == (1u << 20));
  REQUIRE(r.suppressions.size() == 1);
  CHECK(r.suppressions[0].count == 1);
  CHECK(r.suppressions[0].bytes == (1u << 20));
  // Read back, the summary says what the run's did, and no filter is blamed.
  Result read = run({cudaleak_tool(), "report", files_in(dir).front()});
  CHECK(read.out.find("SUMMARY: cudaleak: 0 B leaked in 0 resources. Suppressed: 1 / 1.0 MiB.") != std::string::npos);
  CHECK(read.err.find("no leak group matches") == std::string::npos);
  CHECK(read.out.find("no leak group matches") == std::string::npos);
}

TEST_CASE("suppressions: a rule for another kind or api does not match", "[e2e][gate]") {
  auto dir = fresh_dir("gate_suppressions_miss");
  auto supp = write_text(dir + "/../gate_miss.supp",
                         "leak:process_batch kind:pinned\nleak:process_batch api:cudaMallocHost\n");
  CHECK(gated(dir, {sample("exception_leak")}, {"--suppressions", supp}).exit_code == 23);
}

TEST_CASE("suppressions: several files, and --gen-suppressions prints rules that work", "[e2e][gate]") {
  auto dir = fresh_dir("gate_gen");
  Result first = gated(dir, {sample("driver_context_leak")}, {"--gen-suppressions", "true"});
  CHECK(first.exit_code == 23);
  auto at = first.err.find("Suppression rules for the leaks above");
  REQUIRE(at != std::string::npos);
  std::string rules = first.err.substr(first.err.find('\n', at) + 1);
  rules = rules.substr(0, rules.find("\n\n") + 1);
  CHECK(rules.find("leak:vmm_buffer kind:vmm\n") != std::string::npos);
  // Half the rules in one file, half in another: together they hide everything.
  std::string a, b;
  bool to_a = true;
  for (size_t pos = 0; pos < rules.size();) {
    size_t end = rules.find('\n', pos);
    (to_a ? a : b) += rules.substr(pos, end - pos + 1);
    to_a = !to_a;
    pos = end + 1;
  }
  auto fa = write_text(dir + "/../gen_a.supp", a), fb = write_text(dir + "/../gen_b.supp", b);
  CHECK(gated(dir, {sample("driver_context_leak")}, {"--suppressions", fa, "--suppressions", fb}).exit_code == 0);
}

TEST_CASE("suppressions: a generated rule names the user's function, not CUDA's template wrapper", "[e2e][gate]") {
  // An -O0 -g program's cudaMalloc(&float_ptr, n) goes through cudaMalloc<float> of cuda_runtime.h.
  auto dir = fresh_dir("gate_wrapper");
  Result first = gated(dir, {program("template_wrapper_leak"), "fill"}, {"--gen-suppressions", "true"});
  CHECK(first.exit_code == 23);
  auto at = first.err.find("Suppression rules for the leaks above");
  REQUIRE(at != std::string::npos);
  std::string rules = first.err.substr(first.err.find('\n', at) + 1);
  rules = rules.substr(0, rules.find("\n\n") + 1);
  CHECK(rules == "leak:fill_buffers kind:device\n");
  // The site (baselines, diff) is the user's too, never the toolkit's header.
  auto r = load(files_in(dir).front());
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].site.find("fill_buffers(unsigned long) @ template_wrapper_leak.cpp:12") != std::string::npos);
  CHECK(r.leaks[0].site.find("cuda_runtime.h") == std::string::npos);
  CHECK(r.leaks[0].api == "cudaMalloc");
  // Pasted, the rule hides this leak and not another program's through the same wrapper.
  auto supp = write_text(dir + "/../gate_wrapper.supp", rules);
  CHECK(gated(fresh_dir("gate_wrapper_same"), {program("template_wrapper_leak"), "fill"}, {"--suppressions", supp})
            .exit_code == 0);
  CHECK(gated(fresh_dir("gate_wrapper_other"), {program("template_wrapper_leak"), "load"}, {"--suppressions", supp})
            .exit_code == 23);
}

TEST_CASE("default suppressions hide by-design library handles, never the program's own leak", "[e2e][gate]") {
  auto dir = fresh_dir("gate_defaults");
  Result res = gated(dir, {program("by_design_handles")});
  CHECK(res.exit_code == 23);  // own_leak still counts
  auto r = load(files_in(dir).front());
  REQUIRE(r.leaks.size() == 2);
  for (const auto& g : r.leaks) {
    if (stack_has(g, "getCurrentCUDABlasHandle")) {
      CHECK(g.suppressed_by.find("leak:at::cuda::getCurrentCUDABlasHandle (default:") == 0);
    } else {
      CHECK(stack_has(g, "own_leak"));
      CHECK(g.suppressed_by.empty());
      CHECK(g.fails_gate);
    }
  }
  auto off = fresh_dir("gate_defaults_off");
  gated(off, {program("by_design_handles")}, {"--no-default-suppressions"});
  auto r2 = load(files_in(off).front());
  for (const auto& g : r2.leaks) CHECK(g.suppressed_by.empty());
}

TEST_CASE("bad suppression or baseline files: the launcher refuses them at start, plain preload fails closed",
          "[e2e][gate]") {
  auto dir = fresh_dir("gate_bad_input");
  auto supp = write_text(dir + "/../bad.supp", "leak:fine\n\nleak:process_batch kind:devise\n");
  // Through the launcher, as LeakSanitizer and Valgrind: one line naming file and line, the program never starts.
  Result refused = run_sim(dir, {sample("exception_leak")}, {"--suppressions", supp});
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.empty());
  CHECK(refused.err == "cudaleak: " + supp + ":3: unknown kind 'devise' in 'leak:process_batch kind:devise'\n");
  Result missing = run_sim(dir, {sample("clean")}, {"--suppressions", dir + "/../missing.supp"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find(dir + "/../missing.supp") != std::string::npos);
  auto baseline =
      write_text(dir + "/../bad.baseline",
                 "{\"format\": \"cudaleak-baseline\", \"format_version\": 1, \"sites\": [{\"site\": \"x\"}]}");
  Result bad_baseline = gated(dir, {sample("clean")}, {"--baseline", baseline});
  CHECK(bad_baseline.exit_code == 2);
  CHECK(bad_baseline.out.empty());
  CHECK(bad_baseline.err.find(baseline + ": malformed baseline") != std::string::npos);
  // Under plain LD_PRELOAD the program runs and is tracked; the gate says it cannot see, at the end.
  Result ungated = run_preloaded({sample("exception_leak")}, "output=" + dir + "/u.json:suppressions=" + supp);
  CHECK(ungated.exit_code == 3);
  CHECK(ungated.out == "error: batch 2: corrupt input\n");
  CHECK(ungated.err.find(supp + ":3: unknown kind 'devise' in 'leak:process_batch kind:devise'") != std::string::npos);
  Result res = run_preloaded({sample("clean")}, "error_exitcode=23:output=" + dir + "/c.json:suppressions=" + supp);
  CHECK(res.exit_code == 125);
  CHECK(res.err.find("the leak gate cannot be evaluated") != std::string::npos);
  CHECK(
      run_preloaded({sample("clean")}, "error_exitcode=23:output=" + dir + "/b.json:baseline=" + baseline).exit_code ==
      125);
  CHECK(run_preloaded({sample("clean")},
                      "error_exitcode=23:gate_error_exitcode=99:output=" + dir + "/g.json:suppressions=" + supp)
            .exit_code == 99);
  // The launcher creates a missing report directory; one it cannot create stops the run at once.
  Result no_dir = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", baseline + "/r.json", "--", sample("clean")});
  CHECK(no_dir.exit_code == 2);
  CHECK(no_dir.err.find("cannot create the report directory ") != std::string::npos);
  CHECK(no_dir.err.find("bad.baseline: not a directory") != std::string::npos);
  // A report the process cannot write at exit (its directory went away while
  // the program ran) fails the gate.
  const std::string gone = dir + "/gone";
  Result unwritable = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "23", "-o", gone + "/r.json",
                           "--", "/bin/sh", "-c", "rmdir '" + gone + "' && exec '" + sample("clean") + "'"});
  CHECK(unwritable.exit_code == 125);
  CHECK(unwritable.err.find("cannot write the report to " + gone +
                            "/r.json: cannot create a file in its directory (No such file or directory)") !=
        std::string::npos);
}

TEST_CASE("baselines: known sites pass, grown and new sites fail", "[e2e][gate]") {
  auto dir = fresh_dir("gate_baseline");
  run_sim(dir, {sample("loop_leak")});
  std::string baseline = dir + "/../loop.baseline";
  Result made = run({cudaleak_tool(), "baseline", files_in(dir).front(), "-o", baseline});
  CHECK(made.exit_code == 0);
  CHECK(made.err.find("baseline of 1 leak sites") != std::string::npos);

  auto runs = fresh_dir("gate_baseline_runs");
  CHECK(gated(runs, {sample("loop_leak")}, {"--baseline", baseline}).exit_code == 0);
  CHECK(gated(runs, {sample("loop_leak"), "40"}, {"--baseline", baseline}).exit_code == 0);
  Result grown = gated(runs, {sample("loop_leak"), "60"}, {"--baseline", baseline});
  CHECK(grown.exit_code == 23);
  CHECK(grown.err.find("[grown beyond the baseline]") != std::string::npos);
  CHECK(grown.err.find("not suppressed and new or grown beyond the baseline; exiting with status 23") !=
        std::string::npos);
  Result fresh = gated(runs, {sample("exception_leak")}, {"--baseline", baseline});
  CHECK(fresh.exit_code == 23);
  CHECK(fresh.err.find("[new: not in the baseline]") != std::string::npos);

  Result not_report = run({cudaleak_tool(), "baseline", baseline, "-o", dir + "/../x.baseline"});
  CHECK(not_report.exit_code == 2);
  CHECK(not_report.err.find("not a cudaleak report") != std::string::npos);
}

TEST_CASE("checkpoints: cudaleak.h works with and without cudaleak, growth is flagged", "[e2e][gate]") {
  auto dir = fresh_dir("checkpoints");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.%n.json", "--", program("checkpoints")});
  CHECK(res.exit_code == 0);
  CHECK(res.out ==
        "active: 1\n"
        "leaks since start: rc=0 count=4 bytes=16384\n"
        "unknown checkpoint: -1\n"
        "report: 0\n");
  auto checkpoint = load(dir + "/r.0.json");
  CHECK(checkpoint.reason == Reason::Checkpoint);
  CHECK(checkpoint.checkpoint == "after-loop");
  auto final_report = load(dir + "/r.1.json");
  REQUIRE(final_report.leaks.size() == 1);
  CHECK(final_report.leaks[0].growing);
  CHECK(final_report.leaks[0].count_history == std::vector<uint64_t>{0, 0, 1, 2, 3, 4});
  // Every checkpoint and the checkpoint report are marked on the timeline, in order.
  const auto& marks = final_report.timeline.marks;
  REQUIRE(marks.size() == 6);
  CHECK(marks[0].type == MarkType::Checkpoint);
  CHECK(marks[0].name == "start");
  CHECK(marks[4].name == "step");
  CHECK(marks[5].type == MarkType::Report);
  CHECK(marks[5].name == "after-loop");
  for (size_t i = 1; i < marks.size(); ++i) CHECK(marks[i].time_ns >= marks[i - 1].time_ns);
  CHECK(marks[5].time_ns <= final_report.duration_ns);
  CHECK(final_report.process.start_unix_ns > 1'600'000'000'000'000'000ull);
  CHECK(final_report.process.start_unix_ns == checkpoint.process.start_unix_ns);

  Result plain = run({program("checkpoints")}, {"LD_LIBRARY_PATH=" + build_dir() + "/lib/cudaleak/simcuda"});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out ==
        "active: 0\n"
        "leaks since start: rc=-1 count=0 bytes=0\n"
        "unknown checkpoint: -1\n"
        "report: -1\n");
}

TEST_CASE("children: the launcher gates on every process of the tree", "[e2e][gate]") {
  auto dir = fresh_dir("gate_children");
  std::string leaky = sample("loop_leak");
  // The shell masks the child's status; the launcher still sees its verdict.
  Result masked = gated(dir, {"/bin/sh", "-c", leaky + " >/dev/null 2>&1; exit 0"});
  CHECK(masked.exit_code == 23);
  // A background child that outlives the shell is waited for.
  Result orphan = gated(dir, {"/bin/sh", "-c", "(sleep 0.3; " + leaky + ") >/dev/null 2>&1 & exit 0"});
  CHECK(orphan.exit_code == 23);
  CHECK(files_in(dir).size() == 2);
  auto untraced = fresh_dir("gate_children_off");
  Result off = gated(untraced, {"/bin/sh", "-c", leaky + " >/dev/null 2>&1; exit 0"}, {"--trace-children", "false"});
  CHECK(off.exit_code == 0);
  CHECK(files_in(untraced).empty());
}

TEST_CASE("a process that uses CUDA past cudaleak fails a gated run", "[e2e][gate]") {
  auto dir = fresh_dir("gate_blind");
  Result res = gated(dir, {program("dlvsym_bypass")});
  CHECK(res.out == "cuInit: 0\n");
  CHECK(res.exit_code == 125);
  CHECK(res.err.find("none of its CUDA calls went through cudaleak") != std::string::npos);
  CHECK(run_sim(dir, {program("dlvsym_bypass")}).exit_code == 0);  // not gated: status kept
}

TEST_CASE("memory allocated past cudaleak by a process whose other calls it saw fails a gated run", "[e2e][gate]") {
  auto dir = fresh_dir("gate_unseen_memory");
  Result res = gated(dir, {program("elf_alloc_bypass"), "100"});
  CHECK(res.out == "allocated 100 MiB unseen\n");
  CHECK(res.exit_code == 125);
  CHECK(res.err.find("holds about 100.0 MiB more than the calls cudaleak saw can explain") != std::string::npos);
  REQUIRE(files_in(dir).size() == 1);
  CHECK(load(files_in(dir)[0]).gate.error.find("did not see") != std::string::npos);
  // JUnit says the same: an error, never a passing "no CUDA resources leaked".
  const std::string junit = dir + "/../gate_unseen_memory.xml";
  CHECK(run_sim(fresh_dir("gate_unseen_memory_junit"), {program("elf_alloc_bypass"), "100"},
                {"--error-exitcode", "9", "--junit", junit})
            .exit_code == 125);
  const std::string xml = read_file(junit);
  CHECK(xml.find("<error message=\"the leak gate cannot be evaluated: device 0 holds about 100.0 MiB") !=
        std::string::npos);
  CHECK(xml.find("no CUDA resources leaked") == std::string::npos);
  // Nothing past cudaleak, or less than the slack: the verdict is the gate's own.
  auto clean = fresh_dir("gate_unseen_memory_clean");
  CHECK(gated(clean, {program("elf_alloc_bypass"), "0"}).exit_code == 0);
  CHECK(gated(clean, {program("elf_alloc_bypass"), "16"}).exit_code == 0);
  CHECK(run_sim(clean, {program("elf_alloc_bypass"), "100"}).exit_code == 0);  // not gated: status kept
}

TEST_CASE("loader: the driver found through dlvsym or through a fetched real dlsym is tracked", "[e2e][gate]") {
  auto dir = fresh_dir("loader_lookups");
  Result res = gated(dir, {program("loader_lookups")});
  CHECK(res.out ==
        "RTLD_NEXT dlsym: allocated\nRTLD_DEFAULT dlsym: allocated\nlibc dlsym: allocated\n"
        "libc dlvsym: allocated\nno versioned cuMemAlloc_v2\n");
  CHECK(res.exit_code == 23);  // seen, so gated as leaks, not as blind (125)
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files.front());
  CHECK(r.summary.leaked_count == 4);
  CHECK(r.summary.leaked_bytes == (10u << 20));                     // 1 + 2 + 3 + 4 MiB, one through each way
  CHECK(run_sim(dir, {program("loader_lookups")}).out == res.out);  // the program's own behaviour
}

TEST_CASE("caching allocators: their blocks are reported as cached, a real leak next to them still fails",
          "[e2e][gate]") {
  auto dir = fresh_dir("cached");
  Result res = gated(dir, {program("framework_cache")});
  CHECK(res.exit_code == 23);  // the extension's raw cudaMalloc
  CHECK(res.err.find("80.0 MiB in 4 blocks: PyTorch caching allocator") != std::string::npos);
  auto r = load(files_in(dir).front());
  CHECK(r.summary.cached_bytes == (80u << 20));
  CHECK(r.summary.cached_by.at("PyTorch caching allocator").count == 4);
  CHECK(r.summary.leaked_bytes == (3u << 20));
  CHECK(r.gate.failing_bytes == (3u << 20));
  const auto* leak = find_group(r, "device", "extension_workspace");
  REQUIRE(leak);
  CHECK(leak->cached_by.empty());
  CHECK(leak->fails_gate);

  auto growing = fresh_dir("cached_growing");
  Result grow = gated(growing, {program("framework_cache"), "grow"});
  CHECK(grow.exit_code == 0);  // cached, not a leak...
  CHECK(grow.err.find("growing across observations: 0 -> 1 -> 2 -> 3 -> 4 blocks (80.0 MiB) cached by the PyTorch "
                      "caching allocator") != std::string::npos);  // ...but its growth is shown

  auto only_cache = fresh_dir("cached_only");
  CHECK(gated(only_cache, {program("framework_cache"), "no-extension-run"}).exit_code == 0);
  auto counted = fresh_dir("cached_counted");
  CHECK(gated(counted, {program("framework_cache"), "no-extension-run"}, {"--gate-cached", "true"}).exit_code == 23);
}

TEST_CASE("suppressions: the launcher parses the files once and every process of the run maps the result",
          "[e2e][gate]") {
  auto dir = fresh_dir("gate_compiled");
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "leak:unrelated_function_" + std::to_string(i) + " kind:device\n";
  text += "leak:main kind:pinned\n";  // the child's pinned buffer (fork_child)
  auto supp = write_text(dir + "/../many.supp", text);
  Result res = run_sim(dir, {program("fork_child")},
                       {"--suppressions", supp, "--verbose", "--no-default-suppressions"});
  CHECK(res.exit_code == 0);
  // Both processes (the child forked before either read the rules) map the
  // launcher's file, with the 20,001 rules of the file.
  size_t mapped = 0;
  for (size_t at = 0;
       (at = res.err.find("suppression rules: 20001, mapped from the run's compiled file", at)) != std::string::npos;
       ++at)
    ++mapped;
  CHECK(mapped == 2);
  CHECK(res.err.find("parsed from the files") == std::string::npos);
  int suppressed = 0;
  for (const auto& path : files_in(dir))
    for (const auto& g : load(path).leaks)
      suppressed += g.suppressed_by == "leak:main kind:pinned (" + supp + ":20001)";
  CHECK(suppressed == 1);
  // Under plain LD_PRELOAD, the process parses the files itself, with the same result.
  Result plain = run_preloaded({program("fork_child")}, "verbose=1:default_suppressions=0:output=" + dir +
                                                            "/plain.%p.json:suppressions=" + supp);
  CHECK(plain.exit_code == 0);
  CHECK(plain.err.find("suppression rules: 20001, parsed from the files") != std::string::npos);
}
