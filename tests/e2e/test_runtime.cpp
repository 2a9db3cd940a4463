// The runtime under stress: fork while threads allocate, crashes with a
// corrupted heap, address reuse races, where reports may be written, gates
// that cannot see, and the signals that end a program or the launcher.
#include <array>
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// A shell line, for the tests that signal a running program.
Result shell(const std::string& script) { return run({"/bin/sh", "-c", script}); }

std::string quote(const std::string& s) { return "'" + s + "'"; }

}  // namespace

TEST_CASE("runtime: 200 forks while 4 threads allocate never hang a child", "[e2e][runtime]") {
  auto dir = fresh_dir("fork_storm");
  Result res = run_sim(dir, {program("fork_storm"), "200"});
  CHECK(res.out == "forks 200 hung 0 failed 0\n");
  CHECK(res.exit_code == 0);
  // The parent's one leak, and every child clean: the 10 that leave by exit() and the 190 by _exit().
  size_t leaking = 0, clean = 0;
  for (const auto& f : files_in(dir)) {
    auto r = load(f);
    (r.summary.leaked_count ? leaking : clean) += 1;
  }
  CHECK(leaking == 1);
  CHECK(clean == 200);
}

TEST_CASE("runtime: 2^17 stacks made and freed at once grow memory by under 20 MB, leaks keep their stacks",
          "[e2e][runtime]") {
  // Before the stack depot forgot stacks, the growth was 33 MB (256 B a stack).
  auto dir = fresh_dir("stack_churn");
  Result res = run_sim(dir, {program("stack_churn"), "17"});
  REQUIRE(res.exit_code == 0);
  auto at = res.out.find("rss_growth_kb=");
  REQUIRE(at != std::string::npos);
  const long growth_kb = std::atol(res.out.c_str() + at + 14);
  INFO(res.out);
  CHECK(growth_kb > 0);
  CHECK(growth_kb < 20 * 1024);
  // Collections later the leaks made before the churn still name their
  // own stacks, the event's held by its record alone.
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  CHECK(r.summary.leaked_count == 3);
  auto* before = find_group(r, "device", "leak_before_churn");
  auto* event = find_group(r, "event", "leak_before_churn");
  auto* after = find_group(r, "device", "leak_after_churn");
  REQUIRE(before);
  REQUIRE(event);
  REQUIRE(after);
  CHECK(before->bytes == (1u << 20));
  CHECK(after->bytes == (2u << 20));
  CHECK(stack_has(*event, "main"));
}

TEST_CASE("runtime: heap corruption under load gives a crash report and death by SIGABRT, 10 runs", "[e2e][runtime]") {
  for (int i = 0; i < 10; ++i) {
    auto dir = fresh_dir("heap_corruption_" + std::to_string(i));
    Result res = run_sim(dir, {program("heap_corruption")});
    REQUIRE(res.signal == SIGABRT);  // as without cudaleak: never a hang
    auto files = files_in(dir);
    REQUIRE(files.size() == 1);
    auto r = load(files[0]);
    CHECK(r.reason == Reason::Crash);
    CHECK(r.symbolized);
    auto* g = find_group(r, "device", "main");
    REQUIRE(g);
    CHECK(g->bytes == (1u << 20));
    CHECK(res.err.find("SUMMARY: cudaleak:") != std::string::npos);  // printed by the launcher
  }
}

TEST_CASE("runtime: a crash capture read without the launcher is built on read", "[e2e][runtime]") {
  auto dir = fresh_dir("crash_plain");
  Result res = run_preloaded({program("crash_after_leak")}, "output=" + dir + "/r.json");
  CHECK(res.signal == SIGSEGV);
  Result read = run({cudaleak_tool(), "report", dir + "/r.json"});
  CHECK(read.exit_code == 0);
  CHECK(read.out.find("1.0 MiB of device memory in 1 allocation never freed") != std::string::npos);
  CHECK(read.out.find("main") != std::string::npos);
  // Pretty-printed since (jq .): still a capture, read alone and in its folder.
  std::ifstream in(dir + "/r.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::string compact = "{\"format\":\"cudaleak-raw-capture\"";
  REQUIRE(text.rfind(compact, 0) == 0);
  write_text(dir + "/r.json", "{\n  \"format\" : \"cudaleak-raw-capture\"" + text.substr(compact.size()));
  for (const std::string& path : {dir + "/r.json", dir}) {
    Result pretty = run({cudaleak_tool(), "report", path});
    CHECK(pretty.exit_code == 0);
    CHECK(pretty.out.find("1.0 MiB of device memory in 1 allocation never freed") != std::string::npos);
  }
}

TEST_CASE("runtime: address reuse across 32 threads loses no record and makes no note, 3 runs", "[e2e][runtime]") {
  for (int i = 0; i < 3; ++i) {
    auto dir = fresh_dir("address_race_" + std::to_string(i));
    Result res = run_sim(dir, {program("address_race"), "32", "20000"});
    REQUIRE(res.exit_code == 0);
    auto r = load(files_in(dir).at(0));
    CHECK(r.summary.leaked_count == 6400);
    CHECK(r.summary.leaked_bytes == 6400ull * 4096);
    CHECK(r.notes.empty());
    CHECK(r.notes_total == 0);
  }
}

TEST_CASE("output: devices are written into, links and directories refused, no temporary left", "[e2e][runtime]") {
  auto dir = fresh_dir("output_cases");
  // A character device: written into, never replaced.
  Result dev = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", "/dev/null", "--", sample("pinned_leak")});
  CHECK(dev.exit_code == 0);
  struct stat st;
  REQUIRE(stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  // A link to a regular file: refused, the file and the link untouched; the gate says it cannot see.
  write_text(dir + "/victim", "precious\n");
  std::filesystem::create_symlink(dir + "/victim", dir + "/link.json");
  Result link = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "23", "-o", dir + "/link.json",
                     "--", sample("pinned_leak")});
  CHECK(link.exit_code == 125);
  CHECK(link.err.find("is a symbolic link") != std::string::npos);
  CHECK(std::filesystem::is_symlink(dir + "/link.json"));
  std::ifstream victim(dir + "/victim");
  std::string content((std::istreambuf_iterator<char>(victim)), {});
  CHECK(content == "precious\n");
  // A FIFO with no reader: refused at once, never blocking the program.
  REQUIRE(mkfifo((dir + "/fifo").c_str(), 0600) == 0);
  Result fifo = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/fifo", "--", sample("clean")});
  CHECK(fifo.exit_code == 0);
  CHECK(fifo.err.find("cannot write the report to " + dir + "/fifo") != std::string::npos);
  // A name close to the length limit works: the temporary name is short.
  std::string long_name = dir + "/" + std::string(250, 'r') + ".json";
  Result lng = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", long_name, "--", sample("pinned_leak")});
  CHECK(lng.exit_code == 0);
  CHECK(std::filesystem::exists(long_name));
  // ':' in a report name survives the trip to the library.
  Result colon = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/a:b.json", "--", sample("pinned_leak")});
  CHECK(colon.exit_code == 0);
  CHECK(std::filesystem::exists(dir + "/a:b.json"));
  for (const auto& f : files_in(dir)) CHECK(f.find(".cudaleak-") == std::string::npos);
}

TEST_CASE("output: processes sharing a report name each keep their report", "[e2e][runtime]") {
  auto dir = fresh_dir("shared_name");
  Result res = run(
      {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/shared.json", "--", program("fork_child")});
  CHECK(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  CHECK(res.err.find("was written by another process of this run; this report goes to " + dir + "/shared.") !=
        std::string::npos);
  auto a = load(files[0]), b = load(files[1]);
  CHECK(a.process.pid != b.process.pid);
}

TEST_CASE("blind gate: unreadable or malformed inputs stop the launcher, and give 125 under plain preload",
          "[e2e][runtime]") {
  auto dir = fresh_dir("blind_gate");
  auto refused = [&](const std::string& key, const std::string& path, const std::string& problem) {
    INFO(key << " " << path);
    Result launched = run(
        {cudaleak_tool(), "run", "--simulated-gpu", "--" + key, path, "-o", dir + "/r.%p.json", "--", sample("clean")});
    CHECK(launched.exit_code == 2);
    CHECK(launched.out.empty());
    CHECK(launched.err.find(path + problem) != std::string::npos);
    Result plain = run_preloaded({sample("clean")},
                                 "error_exitcode=23:output=" + dir + "/p.%p.json:" + key + "=" + path);
    CHECK(plain.exit_code == 125);
    CHECK(plain.out == "clean run finished\n");
    CHECK(plain.err.find(path + problem) != std::string::npos);
  };
  refused("baseline", write_text(dir + "/../bad-format.baseline", "{\"format\":1}"), ": not a cudaleak baseline");
  refused("suppressions", "/dev/zero", ": the suppressions file is not a regular file");
  refused("suppressions", dir, ": the suppressions file is a directory");
  std::filesystem::remove(dir + "/../supp.fifo");
  REQUIRE(mkfifo((dir + "/../supp.fifo").c_str(), 0600) == 0);
  refused("suppressions", dir + "/../supp.fifo", ": the suppressions file is not a regular file");
  // A gate option written without a value still asks for the gate, which cannot pass: never fails open.
  Result bare = run_preloaded({sample("loop_leak")}, "error_exitcode:output=" + dir + "/bare.%p.json");
  CHECK(bare.exit_code == 125);
  CHECK(bare.err.find("'error_exitcode' is not key=value") != std::string::npos);
  Result wrap = run({cudaleak_tool(), "run", "--error-exitcode", "4294967296", "--", sample("clean")});
  CHECK(wrap.exit_code == 2);
  CHECK(wrap.err.find("'4294967296' is out of range") != std::string::npos);
  // A suppressions file whose name holds a comma is one file.
  auto supp = write_text(dir + "/../a,b.supp", "leak:main\n");
  Result comma = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "23", "--suppressions", supp, "-o",
                      dir + "/comma.json", "--", sample("pinned_leak")});
  CHECK(comma.exit_code == 0);
}

TEST_CASE("signals: SIGTERM to the program writes the final report, then it dies of SIGTERM", "[e2e][runtime]") {
  auto dir = fresh_dir("sigterm");
  std::string pid_file = dir + "/../sigterm.pid";
  std::filesystem::remove(pid_file);
  Result res = shell(quote(cudaleak_tool()) + " run --simulated-gpu -o " + quote(dir + "/r.%p.json") + " -- " +
                     quote(program("wait_for_signal")) + " " + quote(pid_file) + " & L=$!; while [ ! -s " +
                     quote(pid_file) + " ]; do sleep 0.05; done; kill -TERM $(cat " + quote(pid_file) +
                     "); wait $L; echo status=$?");
  CHECK(res.out == "status=143\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  CHECK(r.reason == Reason::Termination);
  CHECK(r.summary.reachable_bytes == (1u << 20));  // the waiting program still holds it
}

TEST_CASE("signals: any catchable signal to the launcher reaches the program, which never outlives it",
          "[e2e][runtime]") {
  auto dir = fresh_dir("launcher_signals");
  std::string tmp = dir + "/../launcher_signals_tmp";
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp);
  std::string pid_file = dir + "/../launcher_signals.pid";
  // Starts the launcher with wait_for_signal, sends the launcher `signals` (a shell list, 0.3 s apart), waits
  // at most 5 s for the program to be gone, and prints the launcher's status.
  auto signal_launcher = [&](const std::string& signals) {
    std::filesystem::remove(pid_file);
    return shell("TMPDIR=" + quote(tmp) + " " + quote(cudaleak_tool()) + " run --simulated-gpu -o " +
                 quote(dir + "/r.%p.json") + " -- " + quote(program("wait_for_signal")) + " " + quote(pid_file) +
                 " & L=$!; while [ ! -s " + quote(pid_file) + " ]; do sleep 0.05; done; P=$(cat " + quote(pid_file) +
                 "); for s in " + signals +
                 "; do kill -$s $L; sleep 0.3; done; wait $L; echo status=$?; "
                 "i=0; while kill -0 $P 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; "
                 "kill -0 $P 2>/dev/null && echo orphan; true");
  };
  // The program dies of each, with its final report where cudaleak writes one (TERM, HUP), then the launcher
  // dies of it too, its temporary directory removed.
  for (const auto& [name, number] : std::vector<std::pair<std::string, int>>{
           {"TERM", SIGTERM}, {"HUP", SIGHUP}, {"USR2", SIGUSR2}, {"ALRM", SIGALRM}, {"PIPE", SIGPIPE}}) {
    INFO(name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    Result res = signal_launcher(name);
    CHECK(res.out == "status=" + std::to_string(128 + number) + "\n");
    CHECK(files_in(dir).size() == (number == SIGTERM || number == SIGHUP ? 1u : 0u));
    CHECK(std::filesystem::is_empty(tmp));
  }
  // The snapshot signal: the program writes a snapshot and goes on, until SIGTERM ends it with its final report.
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Result snapshot = signal_launcher("USR1 TERM");
  CHECK(snapshot.out == "status=143\n");
  std::multiset<Reason> reasons;
  for (const auto& f : files_in(dir)) reasons.insert(load(f).reason);
  CHECK(reasons == std::multiset<Reason>{Reason::Signal, Reason::Termination});
  // SIGKILL cannot be passed on: the program is told to end with SIGTERM, and writes its report.
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Result killed = signal_launcher("KILL");
  CHECK(killed.out == "status=137\n");
  REQUIRE(files_in(dir).size() == 1);
  CHECK(load(files_in(dir)[0]).reason == Reason::Termination);
  std::filesystem::remove_all(tmp);  // the launcher killed left its directory: nothing can remove it
}

TEST_CASE("signals: a signal the program dies of reaches the rest of its tree, so the run ends at once",
          "[e2e][runtime]") {
  // A CI timeout's SIGTERM to `cudaleak run -- sh -c '...'`: the shell dies of it, and its CUDA child and a
  // 20 s sleep after it get it too (as without cudaleak, where the whole job ends), instead of the launcher
  // waiting for them as orphans.
  auto dir = fresh_dir("launcher_signal_tree");
  const std::string pid_file = dir + "/../launcher_signal_tree.pid";
  std::filesystem::remove(pid_file);
  Result res = shell(quote(cudaleak_tool()) + " run --simulated-gpu -o " + quote(dir + "/r.%p.json") + " -- sh -c " +
                     quote(quote(program("wait_for_signal")) + " " + quote(pid_file) + "; sleep 20") +
                     " & L=$!; while [ ! -s " + quote(pid_file) +
                     " ]; do sleep 0.05; done; S=$(date +%s); "
                     "kill -TERM $L; wait $L; echo status=$? seconds=$(( $(date +%s) - S ))");
  CHECK(res.out.rfind("status=143 seconds=", 0) == 0);
  CHECK(std::atoi(res.out.c_str() + res.out.find("seconds=") + 8) < 10);
  REQUIRE(files_in(dir).size() == 1);  // the CUDA child's final report, written on its way out
  CHECK(load(files_in(dir)[0]).reason == Reason::Termination);
}

TEST_CASE("cudaleak's text goes to the stderr the process started with, not to a file that took fd 2",
          "[e2e][runtime]") {
  auto dir = fresh_dir("reuse_stderr");
  std::string data = dir + "/../reuse_stderr.data";
  Result res = run_sim(dir, {program("reuse_stderr"), data});
  CHECK(res.exit_code == 0);
  CHECK(read_file(data) == "data\n");
  CHECK(res.err.find("SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource") != std::string::npos);
  Result plain = run_preloaded({program("reuse_stderr"), data}, "output=" + dir + "/p.json");
  CHECK(read_file(data) == "data\n");
  CHECK(plain.err.find("SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource") != std::string::npos);
}

TEST_CASE("signals: report_signal refuses signals that end, crash or cannot be delivered", "[e2e][runtime]") {
  for (const char* bad : {"11", "15", "9", "SIGTERM", "SIGSEGV", "RTMIN+-30", "RTMIN+999", "32", "65"}) {
    Result res = run({cudaleak_tool(), "run", "--report-signal", bad, "--", sample("clean")});
    CHECK(res.exit_code == 2);
    CHECK(res.err.find("--report-signal") != std::string::npos);
  }
  Result ok = run({cudaleak_tool(), "run", "--simulated-gpu", "--report-signal", "SIGUSR2", "-o", "/dev/null", "--",
                   sample("clean")});
  CHECK(ok.exit_code == 0);
}

TEST_CASE("stacks: twin call paths at the same stack pointer are never mixed up by the stack cache", "[e2e][runtime]") {
  auto dir = fresh_dir("stack_paths");
  Result res = run_sim(dir, {program("stack_paths"), "4", "200"}, {"--verbose", "true", "--max-allocations", "0"});
  REQUIRE(res.exit_code == 0);
  // The cache was in use: the main thread's captures mostly hit it.
  CHECK(res.err.find("stack cache of the reporting thread: ") != std::string::npos);
  unsigned long long hits = 0, misses = 0, learned = 0, refused = 0;
  auto at = res.err.find("stack cache of the reporting thread: ");
  REQUIRE(at != std::string::npos);
  REQUIRE(std::sscanf(res.err.c_str() + at,
                      "stack cache of the reporting thread: %llu hits, %llu misses, %llu learned, %llu refused", &hits,
                      &misses, &learned, &refused) == 4);
  CHECK(hits > 700);  // of 800 main-thread allocations, all but the first sightings
  CHECK(learned >= 4);
  auto r = load(files_in(dir).at(0));
  // Each site allocates its own size: a group with another site's stack
  // would have bytes that are not count times that size.
  const std::vector<std::pair<std::string, uint64_t>> sites = {{"site_a", 256},
                                                               {"site_b", 512},
                                                               {"via_left", 768},
                                                               {"via_right", 1024}};
  for (const auto& [function, size] : sites) {
    uint64_t count = 0;
    for (const auto& g : r.leaks) {
      if (!stack_has(g, function)) continue;
      INFO(function << " group of " << g.count);
      CHECK(g.bytes == g.count * size);
      for (const auto& a : g.allocations) CHECK(a.record.bytes == size);
      count += g.count;
    }
    CHECK(count == 5 * 200);  // four threads and the main thread
  }
}

TEST_CASE("symbols: a later report of the same process looks up nothing it already resolved", "[e2e][runtime]") {
  auto dir = fresh_dir("symbols_reused");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--verbose", "true", "-o", dir + "/r.%n.json", "--",
                    program("checkpoints")});
  REQUIRE(res.exit_code == 0);
  std::vector<std::array<unsigned long long, 3>> counts;
  const std::string prefix = "symbols of this process so far: ";
  for (size_t at = res.err.find(prefix); at != std::string::npos; at = res.err.find(prefix, at + 1)) {
    std::array<unsigned long long, 3> c{};
    REQUIRE(std::sscanf(res.err.c_str() + at + prefix.size(), "%llu looked up, %llu remembered, %llu restarts", &c[0],
                        &c[1], &c[2]) == 3);
    counts.push_back(c);
  }
  REQUIRE(counts.size() == 2);  // the checkpoint report, then the exit report
  CHECK(counts[0][0] > 0);
  CHECK(counts[1][0] == counts[0][0]);  // the exit report's frames were all known
  CHECK(counts[1][1] > counts[0][1]);
  CHECK(counts[1][2] == 0);
}

namespace {

// context_calls under cudaleak (reports in `dir`) or plain, with two simulated
// devices and the given extra environment.
Result run_context_calls(const std::string& dir, const std::vector<std::string>& env, bool traced,
                         const std::vector<std::string>& flags = {}, const std::string& mode = "") {
  std::vector<std::string> all_env = {"CUDALEAK_SIM_DEVICES=2"};
  all_env.insert(all_env.end(), env.begin(), env.end());
  std::vector<std::string> command = {program("context_calls")};
  if (!mode.empty()) command.push_back(mode);
  if (!traced) return run(command, all_env);
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/report.json"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return run(argv, all_env);
}

}  // namespace

TEST_CASE("runtime: faults injected on cuCtxGetCurrent or cuCtxGetDevice reach the program as without cudaleak",
          "[e2e][runtime]") {
  // The program itself makes 9 calls to each; a count that cudaleak's own
  // calls advanced would move the fault to another line.
  for (const char* api : {"cuCtxGetCurrent", "cuCtxGetDevice"}) {
    for (int n = 1; n <= 9; ++n) {
      std::string fail = std::string("CUDALEAK_SIM_FAIL=") + api + ":" + std::to_string(n) + ":999";
      CAPTURE(fail);
      Result plain = run_context_calls("", {fail}, false);
      REQUIRE(plain.exit_code == 0);
      REQUIRE(plain.out.find(" 999 ") != std::string::npos);  // the fault reached the program
      auto dir = fresh_dir("context_calls_fault");
      Result traced = run_context_calls(dir, {fail}, true);
      CHECK(traced.exit_code == 0);
      CHECK(traced.out == plain.out);
    }
  }
}

TEST_CASE("runtime: resources are placed on the context set by create push pop set and destroy on each thread",
          "[e2e][runtime]") {
  auto dir = fresh_dir("context_calls_placement");
  Result res = run_context_calls(dir, {}, true, {"--check-context"});
  REQUIRE(res.exit_code == 0);
  CHECK(res.out.find("after create b: current 0 b, device 0 1") != std::string::npos);
  CHECK(res.out.find("after set none: current 0 none") != std::string::npos);
  CHECK(res.out.find("end: current 0 none") != std::string::npos);
  auto r = load(dir + "/report.json");
  std::map<uint64_t, int> device_by_mib;
  for (const auto& g : r.leaks)
    if (g.kind == Kind::Device) device_by_mib[g.bytes >> 20] = g.device;
  CHECK(device_by_mib == std::map<uint64_t, int>{{1, 0}, {2, 1}, {3, 1}, {4, 1}, {5, 0}, {6, 1}});
  // check_context asked the driver at every creation: it never disagreed.
  for (const auto& n : r.notes) {
    CAPTURE(cudaleak::report::text_of(n.type), n.api);
    CHECK(n.type != NoteType::ContextMismatch);
    CHECK(n.type != NoteType::ContextUnseen);
    CHECK(n.type != NoteType::DeviceMismatch);
  }
}

TEST_CASE("runtime: check_context notes a context bound where cudaleak cannot see", "[e2e][runtime]") {
  auto dir = fresh_dir("context_calls_unseen");
  Result res = run_context_calls(dir, {}, true, {"--check-context"}, "unseen");
  REQUIRE(res.exit_code == 0);
  REQUIRE(res.out.find("unseen set a 0") != std::string::npos);
  CHECK(res.err.find("check_context: 8 creations placed, 1 differ from the driver, 1 on a context bound unseen") !=
        std::string::npos);
  auto r = load(dir + "/report.json");
  std::map<std::string, uint64_t> notes;
  for (const auto& n : r.notes) notes[cudaleak::report::text_of(n.type) + " " + n.api] += n.count;
  CHECK(notes ==
        std::map<std::string, uint64_t>{{"context_mismatch cuMemAlloc_v2", 1}, {"context_unseen cuMemAlloc_v2", 1}});
  std::map<uint64_t, int> device_by_mib;
  for (const auto& g : r.leaks)
    if (g.kind == Kind::Device) device_by_mib[g.bytes >> 20] = g.device;
  CHECK(device_by_mib[7] == 1);  // learned b (device 1): the documented limit
  CHECK(device_by_mib[8] == 0);  // asked: right
}

TEST_CASE("runtime: back-to-back runs with one report path each replace the last run's report", "[e2e][runtime]") {
  // A run that starts right after the last is never taken for "another
  // process of this run": each run claims its names in its own directory.
  auto dir = fresh_dir("back_to_back");
  const std::string path = dir + "/report.json";
  for (int i = 0; i < 8; ++i) {
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", path, "--", sample("loop_leak")});
    size_t start = res.err.find("==");
    REQUIRE(start != std::string::npos);
    int pid = std::stoi(res.err.substr(start + 2));
    CHECK(load(path).process.pid == pid);
    CHECK(res.err.find("written by another process of this run") == std::string::npos);
  }
  CHECK(files_in(dir).size() == 1);
}

TEST_CASE("runtime: a process that replaces its image keeps each image's report under one -o", "[e2e][runtime]") {
  // Same pid, two images: the second is another writer of the run, never
  // the first one rewriting its own report.
  auto dir = fresh_dir("exec_images");
  Result res = run(
      {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/report.json", "--", program("exec_after_report")});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "second image\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  std::set<uint64_t> leaked;
  // What each image had alive, lost or still held (the first reports while its frame holds it).
  for (const auto& f : files) leaked.insert(load(f).summary.leaked_bytes + load(f).summary.reachable_bytes);
  CHECK(leaked == std::set<uint64_t>{1u << 20, 2u << 20});
  // The first image used CUDA and wrote no exit report: it was replaced, not lost.
  CHECK(res.err.find("ended without its report") == std::string::npos);
  Result gated = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "9", "-o",
                      fresh_dir("exec_images_gated") + "/report.json", "--", program("exec_after_report")});
  CHECK(gated.exit_code == 9);  // the second image's leak, never 125
  CHECK(gated.err.find("ended without its report") == std::string::npos);
}

TEST_CASE("runtime: three images of one process each write a report of their own, with -o NAME and with -o NAME.%p",
          "[e2e][runtime]") {
  // Each later image takes the next free name: NAME.PID, NAME.PID-2; where
  // the pattern already says the pid, NAME.PID-2, NAME.PID-3 (never the pid twice).
  for (const std::string pattern : {"report.json", "report.%p.json"}) {
    INFO(pattern);
    auto dir = fresh_dir("exec_three_images");
    Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/" + pattern, "--",
                      program("exec_after_report"), "1", "3"});
    REQUIRE(res.exit_code == 0);
    CHECK(res.out == "image 3\n");
    auto files = files_in(dir);
    REQUIRE(files.size() == 3);
    std::map<uint64_t, std::string> by_leak;
    for (const auto& f : files) {  // what each image had alive, lost or still held in a frame
      const auto summary = load(f).summary;
      by_leak[summary.leaked_bytes + summary.reachable_bytes] = std::filesystem::path(f).filename().string();
    }
    REQUIRE(by_leak.size() == 3);
    const std::string first = by_leak[1u << 20];
    const std::string stem = pattern == "report.json" ? "report." : first.substr(0, first.size() - 5) + "-";
    if (pattern == "report.json") {
      CHECK(first == "report.json");
      const std::string second = by_leak[2u << 20];
      CHECK(second.starts_with("report."));
      CHECK(second.find('-') == std::string::npos);
      CHECK(by_leak[3u << 20] == second.substr(0, second.size() - 5) + "-2.json");
    } else {
      CHECK(by_leak[2u << 20] == stem + "2.json");
      CHECK(by_leak[3u << 20] == stem + "3.json");
    }
  }
}

TEST_CASE("signals: SIGTERM landing inside a hook ends the process with its report at once, 30 runs",
          "[e2e][runtime]") {
  // The only thread makes CUDA calls back to back, so the signal mostly lands
  // inside a hook, often while it holds a lock of the registry the report
  // needs: the report must not wait for the handler's 10 s bound.
  int slow = 0, unreported = 0;
  for (int i = 0; i < 30; ++i) {
    auto dir = fresh_dir("sigterm_busy_" + std::to_string(i));
    std::string pid_file = dir + "/../sigterm_busy.pid";
    std::filesystem::remove(pid_file);
    Result res = shell("P=" + quote(program("wait_for_signal")) + "; " + quote(cudaleak_tool()) +
                       " run --simulated-gpu -o " + quote(dir + "/r.%p.json") + " -- $P " + quote(pid_file) +
                       " busy & L=$!; while [ ! -s " + quote(pid_file) + " ]; do sleep 0.01; done; sleep 0.0$((" +
                       std::to_string(i) + " % 7)); S=$(date +%s%N); kill -TERM $(cat " + quote(pid_file) +
                       "); wait $L; echo status=$? ms=$((($(date +%s%N) - S) / 1000000))");
    INFO(res.out << res.err);
    CHECK(res.out.rfind("status=143 ", 0) == 0);
    const size_t ms = res.out.find("ms=");
    if (ms == std::string::npos || std::stol(res.out.substr(ms + 3)) > 5000) ++slow;
    if (files_in(dir).size() != 1) ++unreported;
  }
  CHECK(slow == 0);
  CHECK(unreported == 0);
}
