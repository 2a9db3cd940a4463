// Python frames end to end: CUDA from Python through ctypes, under every
// CPython found at configure time (the system python3 at least), with the
// simulated GPU. Lines are looked up from "# LINE:name" markers in the script.
#include <catch2/catch.hpp>

#include <csignal>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/e2e/harness.h"

using namespace e2e;
using cudaleak::report::Frame;
using cudaleak::report::LeakGroup;

namespace {

const std::string kScript = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/python_ctypes.py";

std::vector<std::string> interpreters() {
  std::vector<std::string> out;
  std::stringstream list(CUDALEAK_PYTHONS);
  for (std::string p; std::getline(list, p, ':');)
    if (!p.empty()) out.push_back(p);
  return out;
}

int line_of(const std::string& marker) {
  std::ifstream in(kScript);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (text.find("# LINE:" + marker) != std::string::npos) return n;
  FAIL("no marker " << marker);
  return 0;
}

std::vector<const Frame*> python_frames(const LeakGroup& g) {
  std::vector<const Frame*> out;
  for (const auto& f : g.stack)
    if (f.python) out.push_back(&f);
  return out;
}

// The Python frames of `g`, innermost first, as "function:line".
std::string python_trace(const LeakGroup& g) {
  std::string s;
  for (const Frame* f : python_frames(g)) s += (s.empty() ? "" : " ") + f->function + ":" + std::to_string(f->line);
  return s;
}

cudaleak::report::Report only_report(const std::string& dir) {
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  return load(files[0]);
}

// 3.11 and later name methods by qualified name, older versions by plain name.
std::string method(const cudaleak::report::Report& r, const std::string& cls, const std::string& name) {
  return std::stoi(r.python.version.substr(2)) >= 11 ? cls + "." + name : name;
}

}  // namespace

TEST_CASE("python: leaks name the Python function and line under every interpreter found", "[e2e][python]") {
  auto pythons = interpreters();
  REQUIRE(!pythons.empty());  // configure found none: the test would prove nothing
  for (const auto& python : pythons) {
    INFO(python);
    auto dir = fresh_dir("python_leak");
    Result res = run_sim(dir, {python, kScript, "leak"});
    REQUIRE(res.exit_code == 0);
    auto r = only_report(dir);
    CHECK(r.python.frames);
    CHECK(r.python.version.rfind("3.", 0) == 0);
    REQUIRE(r.leaks.size() == 1);  // three allocations from one stack
    CHECK(r.leaks[0].count == 3);
    for (const auto& g : r.leaks) {
      std::string step = method(r, "Trainer", "step");
      std::string expected = "allocate:" + std::to_string(line_of("allocate")) + " " + step + ":" +
                             std::to_string(line_of("step")) + " leak_in_loop:" + std::to_string(line_of("loop")) +
                             " <module>:" + std::to_string(line_of("module"));
      CHECK(python_trace(g) == expected);
      for (const Frame* f : python_frames(g)) CHECK(f->file == kScript);
      // The site is the Python code, up to the module level.
      CHECK(g.site == "device | allocate @ python_ctypes.py:" + std::to_string(line_of("allocate")) + " | " + step +
                          " @ python_ctypes.py:" + std::to_string(line_of("step")) +
                          " | leak_in_loop @ python_ctypes.py:" + std::to_string(line_of("loop")) +
                          " | <module> @ python_ctypes.py:" + std::to_string(line_of("module")));
    }
    // The text shows the Python frames in place of the interpreter's.
    CHECK(res.err.find("[python] in allocate " + kScript + ":" + std::to_string(line_of("allocate"))) !=
          std::string::npos);
  }
}

TEST_CASE("python: the JSON marks Python frames with their language and no module", "[e2e][python]") {
  auto dir = fresh_dir("python_json");
  REQUIRE(run_sim(dir, {interpreters().front(), kScript, "leak"}).exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  std::string text = read_file(files[0]);
  auto j = nlohmann::json::parse(text);
  size_t python = 0;
  for (const auto& f : j["leaks"][0]["stack"]) {
    if (f.value("language", "") != "python") continue;
    ++python;
    CHECK(!f.contains("module"));
    CHECK(f["file"] == kScript);
  }
  CHECK(python == 4);
  CHECK(j["python"]["frames"] == true);
}

TEST_CASE("python: suppressions match Python function names and file names", "[e2e][python]") {
  auto dir = fresh_dir("python_supp");
  std::ofstream(dir + "/by_function.supp") << "leak:Trainer.step\n";
  std::ofstream(dir + "/by_file.supp") << "leak:python_ctypes.py kind:device\n";
  for (const char* rules : {"by_function.supp", "by_file.supp"}) {
    INFO(rules);
    auto out = fresh_dir(std::string("python_supp_") + rules);
    Result res = run_sim(out, {interpreters().front(), kScript, "leak"},
                         {"--suppressions", dir + "/" + rules, "--error-exitcode", "3"});
    CHECK(res.exit_code == 0);  // every leak suppressed: the gate passes
    auto r = only_report(out);
    CHECK(r.summary.leaked_count == 0);
    CHECK(r.summary.suppressed_count == 3);
  }
  // A rule suggested for a Python leak names the Python function.
  auto out = fresh_dir("python_gen_supp");
  Result res = run_sim(out, {interpreters().front(), kScript, "leak"}, {"--gen-suppressions", "true"});
  CHECK(res.err.find("leak:allocate kind:device") != std::string::npos);
}

TEST_CASE("python: an out-of-memory names the Python function that filled the device", "[e2e][python]") {
  auto dir = fresh_dir("python_oom");
  Result res = run_sim(dir, {interpreters().front(), kScript, "oom"}, {"--simulated-gpu-memory", "256M"});
  REQUIRE(res.exit_code == 0);
  std::string where = "allocate (python_ctypes.py:" + std::to_string(line_of("allocate")) + ")";
  CHECK(res.err.find(where) != std::string::npos);
  // Printed once, when it happened; the exit summary only counts it.
  size_t printed = 0;
  for (size_t at = res.err.find("out of memory: cudaMalloc"); at != std::string::npos;
       at = res.err.find("out of memory: cudaMalloc", at + 1))
    ++printed;
  CHECK(printed == 1);
  CHECK(res.err.find("1 out-of-memory event shown above") != std::string::npos);
  bool found = false;
  for (const auto& f : files_in(dir)) {
    auto r = load(f);
    for (const auto& e : r.oom_events) {
      REQUIRE(!e.top_sites.empty());
      CHECK(e.top_sites[0].where == where);
      bool fill = false;
      for (const auto& fr : e.stack) fill |= fr.python && fr.function == "fill_until_oom" && fr.line == line_of("fill");
      CHECK(fill);
      found = true;
    }
  }
  CHECK(found);
}

TEST_CASE("python: a thread's own Python frames, and frames in crash reports", "[e2e][python]") {
  auto dir = fresh_dir("python_thread");
  REQUIRE(run_sim(dir, {interpreters().front(), kScript, "thread"}).exit_code == 0);
  auto r = only_report(dir);
  REQUIRE(r.leaks.size() == 1);
  CHECK(python_trace(r.leaks[0])
            .find("allocate:" + std::to_string(line_of("allocate")) +
                  " in_thread.<locals>.<lambda>:" + std::to_string(line_of("thread")) + " Thread.run:") == 0);

  auto crash = fresh_dir("python_crash");
  Result res = run_sim(crash, {interpreters().front(), kScript, "crash"});
  CHECK(res.signal == SIGSEGV);
  auto c = only_report(crash);
  CHECK(c.reason == Reason::Crash);
  REQUIRE(c.leaks.size() == 1);
  CHECK(python_trace(c.leaks[0]).find("leak_in_loop:" + std::to_string(line_of("loop"))) != std::string::npos);
}

TEST_CASE("python: frames off, and an interpreter of an unknown version, leave native stacks", "[e2e][python]") {
  auto dir = fresh_dir("python_off");
  REQUIRE(run_sim(dir, {interpreters().front(), kScript, "leak"}, {"--python-frames", "false"}).exit_code == 0);
  auto r = only_report(dir);
  REQUIRE(r.leaks.size() == 1);
  CHECK(python_frames(r.leaks[0]).empty());
  CHECK(!r.python.frames);

  auto fake = fresh_dir("python_unknown");
  Result res = run_sim(fake, {program("fake_python")});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "allocated\n");
  auto f = only_report(fake);
  CHECK(f.python.version == "3.99.0");
  CHECK(!f.python.frames);
  CHECK(f.python.note.find("no frame layout") != std::string::npos);
  REQUIRE(f.leaks.size() == 1);
  CHECK(stack_has(f.leaks[0], "main"));
}

TEST_CASE("python: the PyTorch view comes through sitecustomize and a backend that refuses it leaves the program alone",
          "[e2e][python]") {
  // tests/e2e/programs/fake_torch stands in for PyTorch: its snapshot holds
  // one 2 MiB segment with one live 1 MiB block from train.py:7.
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto run_torch = [&](const std::string& dir, const std::string& backend) {
    return run({cudaleak_tool(), "run", "--simulated-gpu", "--pytorch-stacks", "true", "-o", dir + "/report.%p.%n.json",
                "--", interpreters().front(), programs + "/python_torch.py"},
               {"FAKE_TORCH_BACKEND=" + backend, "PYTHONPATH=" + programs + "/fake_torch"});
  };
  auto native = fresh_dir("python_torch_native");
  Result n = run_torch(native, "native");
  CHECK(n.exit_code == 0);
  CHECK(n.out.find("trained") != std::string::npos);
  auto r = only_report(native);
  REQUIRE(r.has_pytorch);
  CHECK(r.pytorch.when == cudaleak::report::ViewMoment::Exit);
  REQUIRE(r.pytorch.devices.size() == 1);
  CHECK(r.pytorch.devices[0].reserved == 2u << 20);
  REQUIRE(r.pytorch.devices[0].live_tensors.size() == 1);
  CHECK(r.pytorch.devices[0].live_tensors[0].stack.at(0).function == "train_step");
  CHECK(n.err.find("1.0 MiB in 1 tensor from train_step (train.py:7)") != std::string::npos);
  CHECK(n.err.find("(not leaks, not gated)") != std::string::npos);

  // backend:cudaMallocAsync refuses history recording and snapshots: the
  // program runs as without cudaleak, and no view is claimed.
  auto async = fresh_dir("python_torch_async");
  Result a = run_torch(async, "cudaMallocAsync");
  CHECK(a.exit_code == 0);
  CHECK(a.out.find("trained") != std::string::npos);
  CHECK(a.err.find("Traceback") == std::string::npos);
  CHECK(a.err.find("PyTorch view") == std::string::npos);
  CHECK_FALSE(only_report(async).has_pytorch);
}

TEST_CASE("python: gate_live_tensors fails the gate on the tensors PyTorch holds at exit", "[e2e][python][gate]") {
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto run_gated = [&](const std::string& dir, std::vector<std::string> flags, const std::string& how = "") {
    std::vector<std::string> argv = {cudaleak_tool(),           "run", "--simulated-gpu", "--error-exitcode", "7", "-o",
                                     dir + "/report.%p.%n.json"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", interpreters().front(), programs + "/python_torch.py"});
    if (!how.empty()) argv.push_back(how);
    return run(argv, {"PYTHONPATH=" + programs + "/fake_torch"});
  };
  // Not counted by default: the program's status.
  auto plain = fresh_dir("python_gate_plain");
  CHECK(run_gated(plain, {}).exit_code == 0);
  CHECK_FALSE(only_report(plain).gate.failed);

  auto gated = fresh_dir("python_gate_tensors");
  Result g = run_gated(gated, {"--gate-live-tensors", "true"});
  CHECK(g.exit_code == 7);
  CHECK(g.err.find("1 of them PyTorch's live tensors") != std::string::npos);
  CHECK(g.err.find("(counted by the gate: gate_live_tensors)") != std::string::npos);
  auto r = only_report(gated);
  CHECK(r.gate.failed);
  CHECK(r.gate.failing_tensor_groups == 1);
  CHECK(r.gate.failing_bytes == 1u << 20);

  // os._exit skips atexit: the view is sent all the same, and the exit report gates on it.
  auto left = fresh_dir("python_gate_os_exit");
  Result e = run_gated(left, {"--gate-live-tensors", "true"}, "os_exit");
  CHECK(e.out == "trained\n");
  CHECK(e.exit_code == 7);
  auto at_os_exit = only_report(left);
  CHECK(at_os_exit.reason == Reason::Exit);
  CHECK(at_os_exit.gate.failing_tensor_groups == 1);

  // Tensors are device memory: a gate on other kinds only leaves them out.
  auto pinned_only = fresh_dir("python_gate_pinned");
  CHECK(run_gated(pinned_only, {"--gate-live-tensors", "true", "--fail-on", "pinned"}).exit_code == 0);
}

TEST_CASE(
    "python: snapshots and reports the program asks for carry a fresh PyTorch view and growing tensors fail "
    "gate_growing_tensors",
    "[e2e][python][gate]") {
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto run_growth = [&](const std::string& dir, std::vector<std::string> flags, const std::string& mode = "") {
    std::vector<std::string> argv = {cudaleak_tool(),        "run", "--simulated-gpu", "--error-exitcode", "7", "-o",
                                     dir + "/report.%n.json"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"--", interpreters().front(), programs + "/python_torch_growth.py"});
    if (!mode.empty()) argv.push_back(mode);
    return run(argv, {"PYTHONPATH=" + programs + "/fake_torch"});
  };
  // MiB held by keep_loss (train.py:12) in a report's view, and whether it was seen growing.
  auto keep_loss = [](const cudaleak::report::Report& r) -> std::pair<uint64_t, bool> {
    for (const auto& d : r.pytorch.devices)
      for (const auto& t : d.live_tensors)
        if (!t.stack.empty() && t.stack[0].function == "keep_loss") return {t.bytes >> 20, t.growing};
    return {0, false};
  };
  auto dir = fresh_dir("python_growth");
  Result res = run_growth(dir, {"--gate-growing-tensors", "true"});
  CHECK(res.exit_code == 7);
  CHECK(res.err.find(
            "keep_loss (train.py:12) [growing: 1.0 MiB -> 2.0 MiB -> 3.0 MiB -> 4.0 MiB -> 5.0 MiB -> 5.0 MiB]") !=
        std::string::npos);
  CHECK(res.err.find("(the growing ones counted by the gate: gate_growing_tensors)") != std::string::npos);
  // Reports 0-3: the program's, one per step; 4: the signal's; 5: exit.
  for (int n = 0; n < 4; ++n) {
    auto r = load(dir + "/report." + std::to_string(n) + ".json");
    CAPTURE(n);
    CHECK(r.checkpoint == "step" + std::to_string(n));
    CHECK(r.pytorch.when == cudaleak::report::ViewMoment::Snapshot);
    CHECK(keep_loss(r) == std::pair<uint64_t, bool>{uint64_t(n + 1), n >= 2});
  }
  auto snapshot = load(dir + "/report.4.json");
  CHECK(snapshot.reason == Reason::Signal);
  CHECK(keep_loss(snapshot) == std::pair<uint64_t, bool>{5, true});
  auto at_exit = load(dir + "/report.5.json");
  CHECK(at_exit.gate.failing_tensor_groups == 1);  // keep_loss only: the model and train_step stayed the same
  CHECK(at_exit.gate.failing_bytes == 5u << 20);

  // Not gated without the option: the program's status.
  auto plain = fresh_dir("python_growth_plain");
  CHECK(run_growth(plain, {}).exit_code == 0);

  // A program that holds the GIL when the signal comes still gets its
  // snapshot, with the view of its last report, and goes on.
  auto held = fresh_dir("python_growth_gil");
  Result h = run_growth(held, {}, "hold_gil");
  CHECK(h.exit_code == 0);
  CHECK(h.out.find("trained") != std::string::npos);
  auto late = load(held + "/report.4.json");
  CHECK(late.reason == Reason::Signal);
  CHECK(keep_loss(late).first == 4);
  CHECK(keep_loss(load(held + "/report.5.json")).first == 5);
}

TEST_CASE("python: CuPy's pool numbers at exit and its segments as cached memory with the Python line",
          "[e2e][python]") {
  // tests/e2e/programs/fake_cupy stands in for CuPy: one 1 MiB array alive at
  // exit, one 2 MiB array freed into the pool's cache.
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto dir = fresh_dir("python_cupy");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "9", "-o", dir + "/report.%p.json",
                    "--", interpreters().front(), programs + "/python_cupy.py"},
                   {"PYTHONPATH=" + programs + "/fake_cupy"});
  CHECK(res.exit_code == 0);  // a pool's cache is not a leak
  CHECK(res.out == "arrays made\n");
  auto r = only_report(dir);
  REQUIRE(r.has_cupy);
  CHECK(r.cupy.when == cudaleak::report::ViewMoment::Exit);
  CHECK(r.cupy.device == 0);
  CHECK(r.cupy.used_bytes == 1u << 20);
  CHECK(r.cupy.total_bytes == 3u << 20);
  CHECK(r.cupy.free_blocks == 1);
  CHECK(res.err.find("CuPy's memory pool at exit on device 0: 3.0 MiB held, 1.0 MiB by live arrays, 2.0 MiB cached in "
                     "1 free block") != std::string::npos);
  REQUIRE(r.leaks.size() == 2);
  for (const auto& g : r.leaks) {
    CHECK(g.cached_by == "CuPy memory pool");
    CHECK(stack_has(g, "<module>"));  // the segment's Python line in the program
  }
  // Under the same run with the views turned off, no numbers are claimed.
  auto off = fresh_dir("python_cupy_off");
  Result quiet = run({cudaleak_tool(), "run", "--simulated-gpu", "--pytorch-view", "false", "-o",
                      off + "/report.%p.json", "--", interpreters().front(), programs + "/python_cupy.py"},
                     {"PYTHONPATH=" + programs + "/fake_cupy"});
  CHECK(quiet.exit_code == 0);
  CHECK_FALSE(only_report(off).has_cupy);
}

TEST_CASE("python: two processes' CuPy pools, merged, each named by its process", "[e2e][python]") {
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto dir = fresh_dir("python_cupy_two");
  const std::string python = interpreters().front(), script = programs + "/python_cupy.py";
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/report.%p.json", "--", "/bin/sh", "-c",
                    "'" + python + "' '" + script + "' & '" + python + "' '" + script + "'; wait"},
                   {"PYTHONPATH=" + programs + "/fake_cupy"});
  REQUIRE(res.exit_code == 0);
  std::vector<std::string> reports = files_in(dir);
  REQUIRE(reports.size() == 2);
  std::vector<std::string> merge{cudaleak_tool(), "merge"};
  merge.insert(merge.end(), reports.begin(), reports.end());
  merge.insert(merge.end(), {"-o", dir + "/merged.json"});
  REQUIRE(run(merge).exit_code == 0);
  auto m = load(dir + "/merged.json");
  REQUIRE(m.cupy_processes.size() == 2);
  CHECK(m.cupy_processes[0].pid != m.cupy_processes[1].pid);
  Result text = run({cudaleak_tool(), "report", dir + "/merged.json"});
  CHECK(text.out.find("CuPy's memory pool at exit on device 0 in python") != std::string::npos);
  for (const auto& pool : m.cupy_processes)
    CHECK(text.out.find("(pid " + std::to_string(pool.pid) + "): 3.0 MiB held, 1.0 MiB by live arrays") !=
          std::string::npos);
}

TEST_CASE("python: PyTorch's out-of-memory is one story that names the user's line, with and without per-tensor stacks",
          "[e2e][python][oom]") {
  // fake_torch's caching allocator reserves 20 MiB segments with cudaMalloc,
  // retries once after freeing its cache, then calls the observers and raises.
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  const std::string script = programs + "/python_torch_oom.py";
  int keep = 0;
  {
    std::ifstream in(script);
    std::string text;
    for (int n = 1; std::getline(in, text); ++n)
      if (text.find("# LINE:keep") != std::string::npos) keep = n;
  }
  REQUIRE(keep > 0);
  const std::string line = "train_step (python_torch_oom.py:" + std::to_string(keep) + ")";
  for (bool stacks : {false, true}) {
    INFO("pytorch_stacks " << stacks);
    auto dir = fresh_dir(stacks ? "python_torch_oom_stacks" : "python_torch_oom");
    // --pytorch-stacks-at 0: no stacks at all without --pytorch-stacks (the watch has its own test).
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "256MiB", "--pytorch-stacks",
                      stacks ? "true" : "false", "--pytorch-stacks-at", "0", "-o", dir + "/report.%p.%n.json", "--",
                      interpreters().front(), script},
                     {"PYTHONPATH=" + programs + "/fake_torch",
                      "FAKE_C10=" + std::string(CUDALEAK_BUILD_DIR) + "/tests/e2e/libfake_c10.so"});
    CHECK(res.exit_code == 0);
    CHECK(res.out == "out of memory after 24 steps\n");
    // Told once, when PyTorch raised, naming the line that filled the device.
    size_t told = 0;
    for (size_t at = res.err.find("out of memory:"); at != std::string::npos;
         at = res.err.find("out of memory:", at + 1))
      ++told;
    CHECK(told == 1);
    CHECK(res.err.find("out of memory: PyTorch could not allocate 20.0 MiB on device 0 in " + line) !=
          std::string::npos);
    const std::string origin = stacks ? "from " + line : "in segments reserved by " + line;
    CHECK(res.err.find("1. 241.0 MiB is held by live tensors: 240.0 MiB in 24 tensors " + origin) != std::string::npos);
    CHECK(res.err.find("lines PyTorch did not record") == std::string::npos);
    // The exit text names the same line for the tensors still alive.
    CHECK(res.err.find("240.0 MiB in 24 tensors " + origin) != std::string::npos);
    auto files = files_in(dir);
    REQUIRE(files.size() == 2);  // at the failure, at exit
    auto r = load(files[1]);
    REQUIRE(r.oom_events.size() == 1);
    const auto& e = r.oom_events[0];
    CHECK(e.has_pytorch);
    REQUIRE(e.attempts.size() == 2);  // the cudaMalloc before and after PyTorch freed its cache
    CHECK(e.attempts[0].api == "cudaMalloc");
    CHECK(e.attempts[1].request_bytes == (20u << 20));
    CHECK(e.attempts[0].time_ns <= e.attempts[1].time_ns);
    CHECK(e.attempts[1].time_ns <= e.time_ns);  // the failure is when the observer ran, after its attempts
    REQUIRE_FALSE(e.diagnosis.empty());
    CHECK(e.diagnosis[0].cause == Cause::LiveTensors);
    REQUIRE_FALSE(e.pytorch.live_tensors.empty());
    CHECK(e.pytorch.live_tensors[0].by_segment == !stacks);
  }
}

TEST_CASE("python: per-tensor stacks start once PyTorch's reservation reaches pytorch_stacks_at of the device",
          "[e2e][python][oom]") {
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto dir = fresh_dir("python_torch_stacks_at");
  std::remove((dir + ".snapshots.log").c_str());
  // 24 steps of 10 MiB, 0.1 s apart, on 256 MiB: half the device is reserved
  // after about 13 steps; the watch looks every 0.05 s here.
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "256MiB",
                    "--pytorch-stacks-at", "50", "-o", dir + "/report.%p.%n.json", "--", interpreters().front(),
                    programs + "/python_torch_oom.py"},
                   {"PYTHONPATH=" + programs + "/fake_torch", "STEP_SECONDS=0.1", "CUDALEAK_PYTORCH_STACKS_POLL=0.05",
                    "FAKE_C10=" + std::string(CUDALEAK_BUILD_DIR) + "/tests/e2e/libfake_c10.so",
                    "FAKE_TORCH_SNAPSHOT_LOG=" + dir + ".snapshots.log"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "out of memory after 24 steps\n");
  // PyTorch's first snapshot with stacks imports half of torch (seconds): it
  // is taken on cudaleak's own thread once recording starts, not at the
  // out-of-memory a user waits on.
  std::string snapshots = read_file(dir + ".snapshots.log");
  CHECK(snapshots.starts_with("cudaleak-pytorch-warm recording=True\n"));
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  auto r = load(files[1]);
  REQUIRE(r.has_pytorch);
  const auto* d = r.pytorch.device(0);
  REQUIRE(d);
  uint64_t own = 0, by_segment = 0;
  for (const auto& g : d->live_tensors) {
    if (g.by_segment) by_segment += g.count;
    else if (!g.stack.empty() && g.stack[0].file.find("python_torch_oom.py") != std::string::npos) own += g.count;
  }
  CHECK(own >= 1);                // made after the watch started: their own stacks
  CHECK(own <= 12);               // not before half the device was reserved
  CHECK(own + by_segment == 24);  // the rest named by their segments
}

TEST_CASE("text: control characters in names and paths reach the terminal escaped, and never forge a rule",
          "[e2e][python]") {
  const std::string script = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/python_hostile_names.py";
  auto dir = fresh_dir("hostile_names");
  const std::string report = dir + "/r\x1b]0;title\x07.json";
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--gen-suppressions", "-o", report, "--",
                    interpreters().front(), script});
  REQUIRE(res.exit_code == 0);
  auto raw_controls = [](const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
      if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
          static_cast<unsigned char>(text[i + 1]) <= 0x9f)
        return true;
    }
    return false;
  };
  CHECK_FALSE(raw_controls(res.err));
  CHECK(res.err.find("evil\\x1b]0;pwned\\x07\\x1b[2J.py") != std::string::npos);
  CHECK(res.err.find("hostile\\x0aleak:* kind:device\\x1b[8m\\xc2\\x9b") != std::string::npos);
  CHECK(res.err.find("r\\x1b]0;title\\x07.json") != std::string::npos);
  // The generated rule stays one line that names the function, never "leak:*" alone.
  CHECK(res.err.find("\nleak:* kind:device") == std::string::npos);
  CHECK(res.err.find("\nleak:hostile*leak:*kind:device*[8m* kind:device\n") != std::string::npos);
  // The JSON keeps the names as they are.
  auto r = load(report);
  REQUIRE(find_group(r, "device", "hostile\nleak:* kind:device"));
  for (const std::vector<std::string>& how :
       {std::vector<std::string>{}, {"--by", "function"}, {"--by", "file"}, {"--gen-suppressions"}}) {
    std::vector<std::string> argv = {cudaleak_tool(), "report", report};
    argv.insert(argv.end(), how.begin(), how.end());
    Result shown = run(argv);
    INFO(shown.out);
    CHECK(shown.out.find(how == std::vector<std::string>{"--by", "file"} ? "evil\\x1b]0;pwned" : "hostile") !=
          std::string::npos);
    CHECK_FALSE(raw_controls(shown.out));
    CHECK_FALSE(raw_controls(shown.err));
    CHECK(shown.out.find("\nleak:* kind:") == std::string::npos);  // no row forged by the name's newline
  }
}

TEST_CASE("python: a live tensor made 24 frames deep in an installed package is the program's line's",
          "[e2e][python]") {
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  auto dir = fresh_dir("python_torch_deep");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--pytorch-stacks", "true", "-o",
                    dir + "/report.%p.%n.json", "--", interpreters().front(), programs + "/python_torch_deep.py"},
                   {"FAKE_TORCH_BACKEND=native", "PYTHONPATH=" + programs + "/fake_torch"});
  REQUIRE(res.exit_code == 0);
  INFO(res.err);
  CHECK(res.err.find("4.0 MiB in 1 tensor from serve_request (server.py:31)") != std::string::npos);
  CHECK(res.err.find("cache_utils.py") == std::string::npos);
}

// A third-party package on disk (a site-packages directory) allocates for
// the program: every place that names a leak's line names the program's own
// serve_request, never the package's code, and a generated rule never
// matches on the package's frames alone.
TEST_CASE("python: a third-party package's frames are never taken for the program's line", "[e2e][python]") {
  const std::string script = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/python_third_party.py";
  int serve = 0;
  {
    std::ifstream in(script);
    std::string text;
    for (int n = 1; std::getline(in, text); ++n)
      if (text.find("# LINE:serve") != std::string::npos) serve = n;
  }
  REQUIRE(serve > 0);
  auto dir = fresh_dir("python_third_party");
  Result res = run_sim(dir, {interpreters().front(), script}, {"--gen-suppressions", "--sarif", dir + ".sarif"});
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  auto r = only_report(dir);
  // reachability=auto leaves a Python process unscanned: a stale word could
  // otherwise split the line's three allocations between two classes.
  CHECK_FALSE(r.has_reachability);
  CHECK(res.err.find("definitely lost") == std::string::npos);
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].count == 3);
  // The rule names the program's function, never only kvstore's.
  CHECK(res.err.find("leak:serve_request") != std::string::npos);
  CHECK(res.err.find("\nleak:update") == std::string::npos);
  CHECK(res.err.find("\nleak:_device_buffer") == std::string::npos);
  std::string sarif = read_file(dir + ".sarif");
  CHECK(sarif.find("python_third_party.py") != std::string::npos);
  CHECK(sarif.find("kvstore/__init__.py\"") == std::string::npos);
  Result by_function = run({cudaleak_tool(), "report", files_in(dir)[0], "--by", "function"});
  INFO(by_function.out);
  CHECK(by_function.out.find("serve_request") != std::string::npos);
  CHECK(by_function.out.find("Cache.update") == std::string::npos);
}
