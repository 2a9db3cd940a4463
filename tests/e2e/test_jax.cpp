// JAX's view end to end under the simulated GPU: tests/e2e/programs/fake_jax
// stands in for JAX (XLA's allocator in miniature over the simulated cudart,
// arrays with their tracebacks, a pprof device memory profile, XLA's
// RESOURCE_EXHAUSTED error), and cudaleak_jax, armed by sitecustomize when
// the program imports jax, sends its view.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

const std::string kPrograms = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";

std::vector<std::string> interpreters() {
  std::vector<std::string> out;
  std::stringstream list(CUDALEAK_PYTHONS);
  for (std::string p; std::getline(list, p, ':');)
    if (!p.empty()) out.push_back(p);
  return out;
}

// Whether `python` has sys.monitoring (3.12+): it sees failures the program catches.
bool pythons_see_caught(const std::string& python) {
  return run({python, "-c", "import sys; sys.exit(0 if hasattr(sys, 'monitoring') else 1)"}).exit_code == 0;
}

std::vector<std::string> monitoring_interpreters() {
  std::vector<std::string> out;
  for (const std::string& p : interpreters())
    if (pythons_see_caught(p)) out.push_back(p);
  return out;
}

int line_of(const std::string& script, const std::string& marker) {
  std::ifstream in(kPrograms + "/" + script);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (text.find("# LINE:" + marker) != std::string::npos) return n;
  FAIL("no marker " << marker << " in " << script);
  return 0;
}

size_t stories(const std::string& err) {
  size_t n = 0;
  for (size_t at = err.find("out of memory:"); at != std::string::npos; at = err.find("out of memory:", at + 1)) ++n;
  return n;
}

Result run_jax(const std::string& dir, const std::string& python, const std::vector<std::string>& args,
               const std::vector<std::string>& env = {}, const std::vector<std::string>& flags = {}) {
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu",         "--simulated-gpu-memory",
                                   "256MiB",        "-o",  dir + "/report.%p.%n.json"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--");
  argv.push_back(python);
  argv.insert(argv.end(), args.begin(), args.end());
  // fake_torch too: a program may use PyTorch beside JAX.
  std::vector<std::string> environment = {"PYTHONPATH=" + kPrograms + "/fake_jax:" + kPrograms + "/fake_torch"};
  environment.insert(environment.end(), env.begin(), env.end());
  return run(argv, environment);
}

cudaleak::report::Report last_report(const std::string& dir, size_t expected) {
  auto files = files_in(dir);
  REQUIRE(files.size() == expected);
  return load(files.back());
}

}  // namespace

TEST_CASE("jax: XLA's out-of-memory that the program catches is one story that names the line filling the pool",
          "[e2e][python][jax][oom]") {
  const auto pythons = monitoring_interpreters();
  if (pythons.empty()) WARN("no Python 3.12+ found: caught failures need sys.monitoring; tested uncaught only");
  const std::string line = "fill (jax_list_oom.py:" + std::to_string(line_of("jax_list_oom.py", "keep")) + ")";
  for (const std::string& python : pythons) {
    INFO(python);
    auto dir = fresh_dir("jax_list_oom");
    Result res = run_jax(dir, python, {kPrograms + "/jax_list_oom.py"});
    CHECK(res.exit_code == 0);
    // XLA's pool: 0.75 of 256 MiB; 4 KiB of params, then 11 arrays of 16 MiB.
    CHECK(res.out == "out of memory after 11 steps\n");
    CHECK(stories(res.err) == 1);
    CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in " + line) !=
          std::string::npos);
    CHECK(res.err.find("1. 176.0 MiB is held by 12 live arrays: 176.0 MiB in 11 arrays from " + line +
                       ", the largest float32[4096,1024] (16.0 MiB)") != std::string::npos);
    CHECK(res.err.find("arrays from one line that stay alive accumulate") != std::string::npos);
    // The pool's share of the device is told after, as what only delays it.
    CHECK(res.err.find(
              "XLA's pool is limited to 192.0 MiB, 75% of the device's 256.0 MiB (XLA_PYTHON_CLIENT_MEM_FRACTION "
              "0.75 by default)") != std::string::npos);
    CHECK(res.err.find("while the arrays from " + line + " keep growing, a bigger pool only delays the failure") !=
          std::string::npos);
    CHECK(res.err.find("JAX on device 0: XLA's pool 176.0 MiB in use of its 192.0 MiB limit") != std::string::npos);
    CHECK(res.err.find("raised as jax.errors.JaxRuntimeError") != std::string::npos);
    // At exit the same arrays, by the same line; JAX's own frames skipped.
    CHECK(res.err.find("JAX at exit on device 0: XLA's pool 176.0 MiB in use of its 192.0 MiB limit") !=
          std::string::npos);
    CHECK(res.err.find("    176.0 MiB in 11 arrays from " + line) != std::string::npos);
    CHECK(res.err.find("array_creation.py") == std::string::npos);
    auto r = last_report(dir, 2);  // at the failure, at exit
    REQUIRE(r.has_jax);
    CHECK(r.jax.source == "profile");
    REQUIRE(r.oom_events.size() == 1);
    const auto& e = r.oom_events[0];
    CHECK(e.has_jax);
    CHECK(e.api == "XLA (JAX)");
    CHECK(e.request_bytes == 16u << 20);
    CHECK(e.jax.raised == 1);
    CHECK(e.jax.exception == "jax.errors.JaxRuntimeError");
    CHECK(e.jax.message.rfind("RESOURCE_EXHAUSTED: Out of memory while trying to allocate", 0) == 0);
    CHECK(e.jax.device.bytes_limit == 192u << 20);
    CHECK(e.jax.device.arrays == 12);
    REQUIRE(e.diagnosis.size() >= 2);
    CHECK(e.diagnosis[0].cause == Cause::LiveTensors);
    CHECK(e.diagnosis[1].cause == Cause::PoolLimit);
    REQUIRE_FALSE(e.jax.device.groups.empty());
    CHECK(e.jax.device.groups[0].stack.at(1).function == "fill");  // after JAX's own frame
  }
}

TEST_CASE("jax: an uncaught failure is told under every interpreter and the program ends as it would",
          "[e2e][python][jax][oom]") {
  const std::string line = "fill (jax_list_oom.py:" + std::to_string(line_of("jax_list_oom.py", "keep")) + ")";
  for (const std::string& python : interpreters()) {
    for (const char* watch : {"", "excepthook"}) {
      INFO(python << " watch " << watch);
      auto dir = fresh_dir("jax_uncaught");
      Result res = run_jax(dir, python, {kPrograms + "/jax_list_oom.py", "uncaught"},
                           {std::string("CUDALEAK_JAX_WATCH=") + watch});
      CHECK(res.exit_code == 1);  // Python's own status for an uncaught exception
      CHECK(res.err.find("Traceback (most recent call last)") != std::string::npos);
      CHECK(res.err.find("JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 16.00MiB with "
                         "allocator GPU_0_bfc on device 0.") != std::string::npos);
      CHECK(stories(res.err) == 1);
      CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in " + line) !=
            std::string::npos);
      CHECK(res.err.find("176.0 MiB in 11 arrays from " + line) != std::string::npos);
      auto r = last_report(dir, 2);
      REQUIRE(r.oom_events.size() == 1);
      CHECK(r.oom_events[0].has_jax);
    }
  }
}

TEST_CASE(
    "jax: with preallocation off and with the platform allocator the failed cudaMalloc calls are attempts of XLA's "
    "failure",
    "[e2e][python][jax][oom]") {
  const auto pythons = monitoring_interpreters();
  const std::string python = pythons.empty() ? interpreters().front() : pythons.front();
  const std::vector<std::string> args = {kPrograms + "/jax_list_oom.py", "uncaught"};
  const std::string line = "fill (jax_list_oom.py:" + std::to_string(line_of("jax_list_oom.py", "keep")) + ")";
  SECTION("XLA_PYTHON_CLIENT_PREALLOCATE=false") {
    auto dir = fresh_dir("jax_on_demand");
    Result res = run_jax(dir, python, args,  // A pool limit above the device's size (the stand-in takes it): the
                                             // device fills first, and cudaMalloc fails before XLA raises.
                         {"XLA_PYTHON_CLIENT_PREALLOCATE=false", "XLA_PYTHON_CLIENT_MEM_FRACTION=1.5"});
    CHECK(res.exit_code == 1);
    CHECK(stories(res.err) == 1);  // the failed calls are not stories of their own
    CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in " + line) !=
          std::string::npos);
    // XLA's BFC allocator grows its pool in three rounds of 14 regions, from
    // 4x the request down: the latest 16 failed calls are kept.
    CHECK(res.err.find("Before it, 16 calls (cudaMalloc of ") != std::string::npos);
    CHECK(res.err.find("from " + line) != std::string::npos);
    auto r = last_report(dir, 2);
    REQUIRE(r.oom_events.size() == 1);
    const auto& e = r.oom_events[0];
    CHECK(e.has_jax);
    REQUIRE(e.attempts.size() == 16);
    CHECK(e.attempts[0].api == "cudaMalloc");
    CHECK(e.jax.device.bytes_limit == 384u << 20);
    CHECK(e.diagnosis.at(0).cause == Cause::LiveTensors);
  }
  SECTION("XLA_PYTHON_CLIENT_ALLOCATOR=platform") {
    auto dir = fresh_dir("jax_platform");
    Result res = run_jax(dir, python, args, {"XLA_PYTHON_CLIENT_ALLOCATOR=platform"});
    CHECK(res.exit_code == 1);
    CHECK(stories(res.err) == 1);
    CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in " + line) !=
          std::string::npos);
    CHECK(res.err.find("arrays from " + line) != std::string::npos);
    auto r = last_report(dir, 2);
    REQUIRE(r.oom_events.size() == 1);
    CHECK(r.oom_events[0].jax.device.bytes_limit == 0);  // the platform allocator keeps no statistics
    CHECK(r.oom_events[0].diagnosis.at(0).cause == Cause::LiveTensors);
  }
}

TEST_CASE("jax: XLA raising 10 s after its allocator's first failed call is one story with the calls as its attempts",
          "[e2e][python][jax][oom]") {
  // As on an H200 with preallocation off: the device fills, XLA's BFC
  // allocator makes 43 failed calls growing its pool while it waits 10 s for
  // frees, then raises. Its calls tell no story of their own, and XLA's
  // failure, sized from its message (16.00MiB), is the one story.
  const auto pythons = monitoring_interpreters();
  const std::string python = pythons.empty() ? interpreters().front() : pythons.front();
  const std::string line = "fill (jax_list_oom.py:" + std::to_string(line_of("jax_list_oom.py", "keep")) + ")";
  auto dir = fresh_dir("jax_bfc_wait");
  Result res = run_jax(dir, python, {kPrograms + "/jax_list_oom.py", "uncaught"},
                       {"XLA_PYTHON_CLIENT_PREALLOCATE=false", "XLA_PYTHON_CLIENT_MEM_FRACTION=1.5",
                        "FAKE_JAX_RAISE_DELAY_S=10.5"});
  CHECK(res.exit_code == 1);
  CHECK(stories(res.err) == 1);
  CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 0 in " + line) !=
        std::string::npos);
  CHECK(res.err.find("failed in Pool._cuda_malloc") == std::string::npos);
  CHECK(res.err.find("more out-of-memory events") == std::string::npos);
  auto r = last_report(dir, 2);
  REQUIRE(r.oom_events.size() == 1);
  CHECK(r.oom_events[0].has_jax);
  CHECK(r.oom_events[0].request_bytes == 16u << 20);
  CHECK(r.oom_events[0].attempts.size() == 16);
}

TEST_CASE("jax: arrays whose computation failed without raising are told apart from the pool's", "[e2e][python][jax]") {
  // JAX's asynchronous dispatch: 40 steps of 16 MiB kept, never read; 12 fit
  // XLA's 192 MiB pool, the 28 others failed and hold no memory.
  auto dir = fresh_dir("jax_async_oom");
  Result res = run_jax(dir, interpreters().front(), {kPrograms + "/jax_async_oom.py"}, {"FAKE_JAX_ASYNC=1"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "kept 40 steps\n");
  const std::string line = "<module> (jax_async_oom.py:" + std::to_string(line_of("jax_async_oom.py", "update")) + ")";
  CHECK(res.err.find("JAX at exit on device 0: XLA's pool 192.0 MiB in use of its 192.0 MiB limit (peak 192.0 MiB); "
                     "live arrays 192.0 MiB in 12 (and 28 that hold no memory)") != std::string::npos);
  CHECK(res.err.find("    192.0 MiB in 12 arrays from " + line) != std::string::npos);
  CHECK(res.err.find("    28 arrays from " + line + " hold no memory (448.0 MiB as their shapes count it") !=
        std::string::npos);
  CHECK(res.err.find("their computation failed (XLA ran out of memory) and nothing read them") != std::string::npos);
  CHECK(res.err.find("640.0 MiB") == std::string::npos);  // never more than the pool holds, as held
  auto r = last_report(dir, 1);
  REQUIRE(r.jax.devices.size() == 1);
  CHECK(r.jax.devices[0].arrays == 12);
  CHECK(r.jax.devices[0].no_memory_arrays == 28);
  CHECK(r.jax.devices[0].no_memory_bytes == 448u << 20);
}

TEST_CASE("jax: a jitted function whose own buffers do not fit is named with XLA's biggest buffer",
          "[e2e][python][jax][oom]") {
  const auto pythons = monitoring_interpreters();
  if (pythons.empty()) {
    WARN("no Python 3.12+ found: a caught failure needs sys.monitoring");
    return;
  }
  auto dir = fresh_dir("jax_jit_oom");
  Result res = run_jax(dir, pythons.front(), {kPrograms + "/jax_jit_oom.py"}, {"FAKE_JAX_JIT_TEMP=209715200"});
  CHECK(res.exit_code == 0);
  CHECK(res.out.find("step failed: RESOURCE_EXHAUSTED") == 0);
  CHECK(stories(res.err) == 1);
  const std::string step = "jax_jit_oom.py:" + std::to_string(line_of("jax_jit_oom.py", "step"));
  CHECK(res.err.find("1. the jitted function's own buffers need") != std::string::npos);
  CHECK(
      res.err.find(
          "more than XLA's whole pool (192.0 MiB); its biggest buffers: 200.0 MiB f32[4096,65536] for dot_general at " +
          step) != std::string::npos);
  CHECK(res.err.find("donate_argnums") != std::string::npos);
  auto r = last_report(dir, 2);
  // jax raised XLA's error again as a new one of the same text: one failure,
  // raised twice (told so when the report is read again).
  REQUIRE(r.oom_events.size() == 1);
  const auto& e = r.oom_events[0];
  CHECK(e.jax.raised == 2);
  CHECK(e.jax.compiled.temp_bytes == 209715200);
  REQUIRE(e.jax.compiled.peak_buffers.size() == 1);
  CHECK(e.jax.compiled.peak_buffers[0].shape == "f32[4096,65536]");
  CHECK(e.diagnosis.at(0).cause == Cause::CompiledPeak);
  Result again = run({cudaleak_tool(), "report", files_in(dir).back()});
  CHECK(again.out.find("XLA raised it 2 times within 10 s (the same failure, retried or raised again): one failure.") !=
        std::string::npos);
}

TEST_CASE("jax: the profile read gzipped or not and without it the live arrays by shape", "[e2e][python][jax]") {
  const std::string python = interpreters().front();
  const std::string line = "fill (jax_list_oom.py:" + std::to_string(line_of("jax_list_oom.py", "keep")) + ")";
  for (const char* format : {"gzip", "raw"}) {
    INFO(format);
    auto dir = fresh_dir(std::string("jax_profile_") + format);
    Result res = run_jax(dir, python, {kPrograms + "/jax_list_oom.py"}, {std::string("FAKE_JAX_PROFILE=") + format});
    CHECK(res.exit_code == 0);
    CHECK(res.err.find("    176.0 MiB in 11 arrays from " + line + ", the largest float32[4096,1024] (16.0 MiB)") !=
          std::string::npos);
    auto r = last_report(dir, pythons_see_caught(python) ? 2 : 1);
    REQUIRE(r.has_jax);
    CHECK(r.jax.when == cudaleak::report::ViewMoment::Exit);
    CHECK(r.jax.executables_bytes == 4096);
    REQUIRE(r.jax.devices.size() == 1);
    CHECK(r.jax.devices[0].arrays == 12);
  }
  auto dir = fresh_dir("jax_profile_broken");
  Result res = run_jax(dir, python, {kPrograms + "/jax_list_oom.py"}, {"FAKE_JAX_PROFILE=broken"});
  CHECK(res.exit_code == 0);
  CHECK(res.err.find("    176.0 MiB in 11 arrays of float32[4096,1024] (no line: JAX gave no stack for them)") !=
        std::string::npos);
  CHECK(res.err.find("(the device memory profile failed (heap profiles are not supported by this backend)") !=
        std::string::npos);
  auto r = last_report(dir, pythons_see_caught(python) ? 2 : 1);
  CHECK(r.jax.source == "live_arrays");
  // --pytorch-view false turns every framework's view off.
  auto off = fresh_dir("jax_view_off");
  Result quiet = run_jax(off, python, {kPrograms + "/jax_list_oom.py"}, {}, {"--pytorch-view", "false"});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.err.find("JAX at exit") == std::string::npos);
  CHECK_FALSE(last_report(off, 1).has_jax);
}

TEST_CASE("jax: two processes' devices merged and each named by its process", "[e2e][python][jax]") {
  auto dir = fresh_dir("jax_two");
  const std::string python = interpreters().front(), script = kPrograms + "/jax_list_oom.py";
  Result res = run_jax(dir, "/bin/sh",
                       {"-c", "'" + python + "' '" + script + "' & '" + python + "' '" + script + "'; wait"});
  REQUIRE(res.exit_code == 0);
  std::vector<std::string> reports;
  for (const std::string& f : files_in(dir))
    if (load(f).reason == Reason::Exit) reports.push_back(f);
  REQUIRE(reports.size() == 2);
  std::vector<std::string> merge{cudaleak_tool(), "merge"};
  merge.insert(merge.end(), reports.begin(), reports.end());
  merge.insert(merge.end(), {"-o", dir + "/merged.json"});
  REQUIRE(run(merge).exit_code == 0);
  auto m = load(dir + "/merged.json");
  REQUIRE(m.has_jax);
  REQUIRE(m.jax.devices.size() == 2);
  CHECK(m.jax.devices[0].pid != m.jax.devices[1].pid);
  Result text = run({cudaleak_tool(), "report", dir + "/merged.json"});
  CHECK(text.out.find("JAX at exit on device 0 in python") != std::string::npos);
  for (const auto& d : m.jax.devices)
    CHECK(text.out.find("(pid " + std::to_string(d.pid) + "): XLA's pool") != std::string::npos);
  // The job's folder, read as one: the same devices, each by its process.
  std::remove((dir + "/merged.json").c_str());
  Result job = run({cudaleak_tool(), "report", dir + "/"});
  for (const auto& d : m.jax.devices)
    CHECK(job.out.find(" (pid " + std::to_string(d.pid) + "): XLA's pool") != std::string::npos);
  CHECK(job.out.find("JAX at exit on device 0 in python") != std::string::npos);
}

TEST_CASE("jax: a snapshot carries JAX's view of that moment beside PyTorch's", "[e2e][python][jax]") {
  for (const char* beside : {"", "torch"}) {
    INFO("beside " << beside);
    auto dir = fresh_dir(std::string("jax_snapshot") + beside);
    std::vector<std::string> args = {kPrograms + "/jax_snapshot.py"};
    if (*beside) args.push_back(beside);
    Result res = run_jax(dir, interpreters().front(), args);
    CHECK(res.exit_code == 0);
    CHECK(res.out == "done\n");
    std::vector<cudaleak::report::Report> reports;
    for (const std::string& f : files_in(dir)) reports.push_back(load(f));
    REQUIRE(reports.size() == 2);
    if (reports[0].reason != Reason::Signal) std::swap(reports[0], reports[1]);
    const auto& snapshot = reports[0];
    CHECK(snapshot.reason == Reason::Signal);
    REQUIRE(snapshot.has_jax);
    CHECK(snapshot.jax.when == cudaleak::report::ViewMoment::Snapshot);
    REQUIRE(snapshot.jax.devices.size() == 1);
    CHECK(snapshot.jax.devices[0].arrays == 3);
    CHECK(reports[1].jax.when == cudaleak::report::ViewMoment::Exit);
    CHECK(reports[1].jax.devices.at(0).arrays == 5);
    // The three arrays of the snapshot, by their line (a comprehension's
    // frame is its own before Python 3.12).
    REQUIRE(snapshot.jax.devices[0].groups.size() == 1);
    const auto& g = snapshot.jax.devices[0].groups[0];
    CHECK(g.count == 3);
    CHECK(g.stack.at(1).line == line_of("jax_snapshot.py", "first"));
    if (*beside) {
      REQUIRE(snapshot.has_pytorch);
      CHECK(snapshot.pytorch.when == cudaleak::report::ViewMoment::Snapshot);
    }
  }
}

TEST_CASE("jax: one process with two devices: the failing device and each device's holders",
          "[e2e][python][jax][oom]") {
  const auto pythons = monitoring_interpreters();
  const std::string python = pythons.empty() ? interpreters().front() : pythons.front();
  auto dir = fresh_dir("jax_two_devices");
  Result res = run_jax(dir, python, {kPrograms + "/jax_two_devices.py"},
                       {"FAKE_JAX_DEVICES=2", "CUDALEAK_SIM_DEVICES=2"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "device 1 full after 12\n");
  const std::string keep = "<module> (jax_two_devices.py:" + std::to_string(line_of("jax_two_devices.py", "keep")) +
                           ")";
  const std::string params = "<module> (jax_two_devices.py:" + std::to_string(line_of("jax_two_devices.py", "params")) +
                             ")";
  CHECK(res.err.find("JAX at exit on device 0: XLA's pool 4.0 MiB in use") != std::string::npos);
  CHECK(res.err.find("    4.0 MiB in 1 array from " + params) != std::string::npos);
  CHECK(res.err.find("JAX at exit on device 1: XLA's pool 192.0 MiB in use") != std::string::npos);
  CHECK(res.err.find("    192.0 MiB in 12 arrays from " + keep) != std::string::npos);
  if (!pythons.empty()) {
    // The fullest device is the failing one: XLA's message names none.
    CHECK(res.err.find("out of memory: JAX (XLA) could not allocate 16.0 MiB on device 1 in " + keep) !=
          std::string::npos);
    auto r = last_report(dir, 2);
    REQUIRE(r.oom_events.size() == 1);
    CHECK(r.oom_events[0].device == 1);
    CHECK(r.oom_events[0].jax.device.arrays == 12);
  }
}
