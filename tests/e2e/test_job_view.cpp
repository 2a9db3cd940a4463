// A job of 64 ranks on 8 hosts, cloned from real GPU reports by
// scripts/make-job.py (odd ranks ran out of memory, even ones ended with
// their tensors alive; rank 4 grew, host node001's GPUs held another
// process), read as a user reads it: one screen, what the ranks share told
// once, the ranks unlike the others first.
#include <catch2/catch.hpp>

#include <algorithm>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {

std::string make_job(const std::string& name, const std::vector<std::string>& plants) {
  const std::string dir = fresh_dir(name);
  std::vector<std::string> argv = {"/usr/bin/python3",
                                   std::string(CUDALEAK_SOURCE_DIR) + "/scripts/make-job.py",
                                   dir,
                                   "--ranks",
                                   "64",
                                   "--hosts",
                                   "8"};
  argv.insert(argv.end(), plants.begin(), plants.end());
  Result made = run(argv);
  REQUIRE(made.exit_code == 0);
  REQUIRE(files_in(dir).size() == 64);
  return dir;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

size_t lines(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

// The longest run of "rank N" names on one line: a list of ranks is ranges, never every name.
size_t most_ranks_on_a_line(const std::string& text) {
  size_t most = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    most = std::max(most, count(text.substr(start, end - start), "rank "));
    start = end + 1;
  }
  return most;
}

}  // namespace

TEST_CASE("job view: 64 ranks fold into one screen, the odd ranks first", "[e2e][ranks][job]") {
  const std::string dir = make_job("job_view_64", {"--grow", "4", "--busy-host", "1"});
  Result text = run({cudaleak_tool(), "report", dir});
  REQUIRE(text.exit_code == 0);
  const std::string& t = text.out;
  CAPTURE(t);
  CHECK(lines(t) < 200);
  CHECK(most_ranks_on_a_line(t) <= 6);
  CHECK(t.find("  job: ranks 0-63 of 64 (torchrun) on 8 hosts (node[000-007])\n") != std::string::npos);
  // The odd ones first, each with its evidence against the median rank.
  const size_t odd = t.find("ranks unlike the others:\n");
  REQUIRE(odd != std::string::npos);
  CHECK(odd < t.find("ran out of memory in"));
  CHECK(t.find("  rank 4 (pid 4004 on node000) grew to 2.5 GiB on device 4 (from ") != std::string::npos);
  CHECK(t.find("while the median rank peaked at 320.0 MiB (8.0x)") != std::string::npos);
  CHECK(t.find("  host node001: another process (pid 90001, /usr/bin/python3 eval.py) held 40.0 GiB of device 7 when "
               "ranks 9,11,13,15 ran out of memory there; the failing ranks of 7 other hosts saw none") !=
        std::string::npos);
  CHECK(t.find("  rank 4 (pid 4004 on node000) alone leaked 5.0 GiB (10 device resources) in keep_activations "
               "(scenario_exceptions.py:109): no other rank has this leak group") != std::string::npos);
  // One story per failing line and causes: 28 odd ranks, and the 4 beside the other process.
  CHECK(
      t.find("28 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 1-63 odd but 9,11,13,15; rank ") !=
      std::string::npos);
  CHECK(t.find("4 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 9,11,13,15; rank 15 (pid 4007 on "
               "node001) the first of them") != std::string::npos);
  CHECK(count(t, "Likely causes, most likely first:") == 2);
  CHECK(t.find("  Across the 28 ranks: between ") != std::string::npos);
  CHECK(t.find("on 7 hosts (node[000,002-007]); the same numbers on every rank\n") != std::string::npos);
  // The other ranks as a distribution, not 63 names.
  CHECK(t.find("  The other 63 ranks at that moment, each on its own device: 31 held 64.0 MiB and ran out of memory "
               "themselves (ranks 1-63 odd but ") != std::string::npos);
  CHECK(t.find("The other ranks at that moment: rank 0") == std::string::npos);
  // The frameworks' views folded: the 32 even ranks' PyTorch at exit is one.
  CHECK(count(t, "PyTorch at exit") == 1);
  CHECK(
      t.find("PyTorch at exit on 32 ranks (0-62 even), each on its own device: 320.0 MiB reserved, 320.0 MiB allocated "
             "(not leaks, not gated); rank 0 (pid 4000 on node000)'s tensors:\n"
             "    320.0 MiB in 10 tensors in segments reserved by work (scenario_exceptions.py:9)\n") !=
      std::string::npos);
  CHECK(t.find("SUMMARY: cudaleak: 5.0 GiB leaked in 10 resources") != std::string::npos);

  SECTION("--ranks all and --rank N tell the ranks apart") {
    Result all = run({cudaleak_tool(), "report", dir, "--ranks", "all"});
    REQUIRE(all.exit_code == 0);
    CHECK(count(all.out, "Likely causes, most likely first:") == 32);
    CHECK(all.out.find("PyTorch at exit on device 0 in python3.12 (pid 4000, rank 0): 320.0 MiB reserved") !=
          std::string::npos);
    Result nine = run({cudaleak_tool(), "report", dir, "--rank", "9"});
    REQUIRE(nine.exit_code == 0);
    CHECK(nine.out.find("rank 9 (pid 4001) ran out of memory first, at ") != std::string::npos);
    CHECK(count(nine.out, "Likely causes, most likely first:") == 1);
    CHECK(nine.out.find("rank 11 (pid") == std::string::npos);
  }
  SECTION("the merged file reads as the folder; equal pids on other hosts are other processes") {
    const std::string merged = dir + "/../job_view_64.merged.json";
    REQUIRE(run({cudaleak_tool(), "merge", dir, "-o", merged}).exit_code == 0);
    auto m = load(merged);
    CHECK(m.processes.size() == 64);
    size_t pid_4000 = 0;
    for (const auto& p : m.processes) pid_4000 += p.process.pid == 4000;
    CHECK(pid_4000 == 8);  // one per host
    CHECK(m.history.empty());
    Result again = run({cudaleak_tool(), "report", merged});
    CHECK(again.out == t);
  }
  SECTION("the HTML page stays small: the job's modules once each") {
    const std::string page = dir + "/../job_view_64.html";
    REQUIRE(run({cudaleak_tool(), "report", dir, "--format", "html", "-o", page}).exit_code == 0);
    CHECK(std::filesystem::file_size(page) < 2u << 20);  // 2.4 MiB with every rank's modules and stacks
  }
}

TEST_CASE("job view: a job with no odd rank says none, and a story of every rank names no exception",
          "[e2e][ranks][job]") {
  const std::string dir = make_job("job_view_even", {"--failing-ranks", "all"});
  Result text = run({cudaleak_tool(), "report", dir});
  REQUIRE(text.exit_code == 0);
  CAPTURE(text.out);
  CHECK(text.out.find("unlike the others") == std::string::npos);
  CHECK(text.out.find("64 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 0-63; rank ") !=
        std::string::npos);
  CHECK(text.out.find("  The other 63 ranks at that moment, each on its own device: 63 held 64.0 MiB and ran out of "
                      "memory themselves (ranks ") != std::string::npos);
  CHECK(lines(text.out) < 40);
}

TEST_CASE("job view: -o %h.%p.%n.json names each report by its host, and per-host folders read as one job",
          "[e2e][ranks][job]") {
  const std::string dir = fresh_dir("job_view_hosts");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/%h.%p.%n.json", "--", "/usr/bin/python3",
                    std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/fake_torchrun.py", "--nproc-per-node", "2",
                    "--", program("rank_worker"), "--leak-on", "0,1"},
                   {"CUDALEAK_SIM_DEVICES=2"});
  CHECK(res.exit_code == 0);
  char host[256] = "";
  REQUIRE(gethostname(host, sizeof host - 1) == 0);
  const auto written = files_in(dir);
  REQUIRE(written.size() == 2);
  for (const auto& f : written)
    CHECK(std::filesystem::path(f).filename().string().rfind(std::string(host) + ".", 0) == 0);

  // Each host's folder gathered apart (equal pids on every host): passed together, one job.
  const std::string job = make_job("job_view_hosts_all", {"--grow", "4"});
  const std::string apart = fresh_dir("job_view_hosts_apart");
  for (const auto& f : files_in(job)) {
    const std::string name = std::filesystem::path(f).filename();
    const std::string node = apart + "/" + name.substr(0, name.find('.'));
    std::filesystem::create_directories(node);
    std::filesystem::copy_file(f, node + "/" + name.substr(name.find('.') + 1));  // the pid alone: names repeat
  }
  std::vector<std::string> argv = {cudaleak_tool(), "report"};
  for (int h = 0; h < 8; ++h) argv.push_back(apart + "/node00" + std::to_string(h));
  Result together = run(argv);
  Result one = run({cudaleak_tool(), "report", job});
  CHECK(together.exit_code == 0);
  CHECK(together.out.find("job: ranks 0-63 of 64 (torchrun) on 8 hosts (node[000-007])") != std::string::npos);
  CHECK(together.out == one.out);
}

namespace {

// A JAX rank's report as cudaleak writes it: tests/e2e/programs/fake_jax
// stands in for JAX under the simulated GPU; the program keeps every step's
// 16 MiB array until XLA's pool is full, and the failure ends it.
std::string jax_rank_report(const std::string& name) {
  const std::string dir = fresh_dir(name);
  const std::string programs = std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs";
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "256MiB", "-o",
                    dir + "/report.%p.%n.json", "--", "/usr/bin/python3", programs + "/jax_list_oom.py", "uncaught"},
                   {"PYTHONPATH=" + programs + "/fake_jax"});
  REQUIRE(res.exit_code == 1);  // Python's own status for the uncaught failure
  for (const std::string& f : files_in(dir))
    if (load(f).reason == Reason::Exit) return f;
  FAIL("no report at exit in " << dir);
  return "";
}

int line_in(const std::string& script, const std::string& marker) {
  std::ifstream in(std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/" + script);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (text.find("# LINE:" + marker) != std::string::npos) return n;
  FAIL("no marker " << marker << " in " << script);
  return 0;
}

}  // namespace

TEST_CASE("job view: 64 JAX ranks fold as PyTorch's: one story, each user line once with its ranks, the odd rank first",
          "[e2e][ranks][job][jax]") {
  const std::string failing = jax_rank_report("job_jax_rank");
  // Odd ranks ran out of memory; even ones were ended by the launcher with
  // the same arrays alive; rank 4's arrays and pool are 8x the others' (its
  // timeline as theirs: only JAX's view tells it).
  const std::string dir = make_job("job_view_jax", {"--failing", failing, "--surviving", "same", "--grow-arrays", "4"});
  Result text = run({cudaleak_tool(), "report", dir});
  REQUIRE(text.exit_code == 0);
  const std::string& t = text.out;
  CAPTURE(t);
  CHECK(lines(t) < 200);
  CHECK(most_ranks_on_a_line(t) <= 6);
  const std::string keep = "fill (jax_list_oom.py:" + std::to_string(line_in("jax_list_oom.py", "keep")) + ")";
  const std::string params = "main (jax_list_oom.py:" + std::to_string(line_in("jax_list_oom.py", "params")) + ")";
  // The odd rank first, by its arrays: its timeline is the others'.
  const size_t odd = t.find("a rank unlike the others:\n");
  REQUIRE(odd != std::string::npos);
  CHECK(t.find("  rank 4 (pid 4004 on node000) held 1.4 GiB in JAX's live arrays on device 4 at exit, the most 1.4 GiB "
               "in 88 arrays from " +
               keep +
               ", the largest float32[4096,1024] (16.0 MiB), while the median rank held "
               "176.0 MiB (8.0x)\n") != std::string::npos);
  // XLA's failure of 32 ranks: one story with the ranks, told once.
  CHECK(count(t, "ran out of memory in") == 1);
  CHECK(t.find("32 ranks ran out of memory in " + keep + ": ranks 1-63 odd; rank ") != std::string::npos);
  CHECK(count(t, "out of memory on rank") == 1);
  CHECK(t.find("JAX (XLA) could not allocate 16.0 MiB on device") != std::string::npos);
  CHECK(t.find("  Across the 32 ranks: between ") != std::string::npos);
  CHECK(odd < t.find("ran out of memory in"));
  // JAX at exit: one view of the 64 ranks, each line once with the bytes across them.
  CHECK(count(t, "JAX at exit") == 1);
  CHECK(
      t.find(
          "JAX at exit on 64 ranks (0-63), each on its own device: XLA's pool median 176.0 MiB (176.0 MiB-1.4 GiB) in "
          "use of its median 192.0 MiB (192.0 MiB-1.5 GiB) limit; live arrays median 176.0 MiB (176.0 MiB-1.4 GiB) in "
          "12-96 (not leaks, not "
          "gated), by the user's line:\n") != std::string::npos);
  CHECK(t.find("    median 176.0 MiB (176.0 MiB-1.4 GiB) in 11-88 arrays from " + keep +
               ", the largest float32[4096,1024] (16.0 MiB)\n") != std::string::npos);
  CHECK(t.find("    median 4.0 KiB (4.0 KiB-32.0 KiB) in 1-8 arrays from " + params +
               ", the largest float32[1024] (4.0 KiB)\n") != std::string::npos);
  CHECK(t.find("JAX at exit on device") == std::string::npos);

  SECTION("--ranks all tells each rank's JAX view apart") {
    Result all = run({cudaleak_tool(), "report", dir, "--ranks", "all"});
    REQUIRE(all.exit_code == 0);
    CHECK(count(all.out, "JAX at exit on device") == 64);
  }
}
