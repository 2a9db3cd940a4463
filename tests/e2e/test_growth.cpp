// Growth by site, live (issue 56): a process that leaks a little at one site
// while churning elsewhere. The exit report names the growing site with its
// rate, `cudaleak top --once` names it while it runs, the growth gate fails
// the run past its threshold (the interactive view: top_tmux.sh).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <csignal>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "report/model/site_growth.h"
#include "tests/e2e/harness.h"

using namespace e2e;
using cudaleak::report::Report;
using cudaleak::report::SiteGrowth;

namespace {

bool stack_has(const SiteGrowth& g, const std::string& function) {
  for (const auto& f : g.stack)
    if (f.function.find(function) != std::string::npos) return true;
  return false;
}

const SiteGrowth* growth_of(const Report& r, const std::string& function) {
  for (const auto& d : r.timeline.devices)
    for (const auto& g : d.growth)
      if (stack_has(g, function)) return &g;
  return nullptr;
}

bool exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

bool wait_for(const std::string& path, int seconds) {
  for (int i = 0; i < seconds * 20 && !exists(path); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return exists(path);
}

// slow_leak runs 6 s, 20 ms a step, sampled every 100 ms.
const std::vector<std::string> kFlags = {"--growth-interval-ms", "100"};

}  // namespace

TEST_CASE("growth: the exit report names the site that grew with its rate and not the churn or the weights") {
  std::string dir = fresh_dir("growth_exit");
  Result res = run_sim(dir, {program("slow_leak"), "6"}, kFlags);
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  Report r = load(files[0]);
  const SiteGrowth* leak = growth_of(r, "leak_a_little");
  const SiteGrowth* churn = growth_of(r, "churn_step");
  const SiteGrowth* weights = growth_of(r, "load_weights");
  REQUIRE(leak);
  CHECK(leak->steady);
  CHECK(leak->history.size() >= 20);
  CHECK(cudaleak::report::rise_bytes(*leak) >= (30u << 20));  // about 1 MiB per 100 ms for 6 s
  CHECK(cudaleak::report::rise_per_minute(*leak) > 200.0 * (1 << 20));
  if (churn) CHECK_FALSE(churn->steady);
  if (weights) CHECK_FALSE(weights->steady);
  // The words a user reads, with the stack.
  CHECK(res.err.find("1 site grew steadily") != std::string::npos);
  CHECK(res.err.find("by cuMemAlloc_v2 at (anonymous namespace)::leak_a_little (slow_leak.cpp:") != std::string::npos);
  CHECK(res.err.find("per minute), never fell") != std::string::npos);
  // Read back: `cudaleak report` prints the same.
  Result read = run({cudaleak_tool(), "report", files[0]});
  CHECK(read.out.find("grew steadily for ") != std::string::npos);
  CHECK(read.out.find("leak_a_little") != std::string::npos);
}

TEST_CASE("growth: fail_on_growth fails the run past the rate and a suppression hides the site") {
  std::string dir = fresh_dir("growth_gate");
  std::vector<std::string> flags = kFlags;
  flags.insert(flags.end(), {"--fail-on-growth", "10MiB/min", "--error-exitcode", "3", "--fail-on", "pinned"});
  Result res = run_sim(dir, {program("slow_leak"), "4"}, flags);
  INFO(res.err);
  CHECK(res.exit_code == 3);  // the leak itself (device) is not counted: fail_on pinned
  CHECK(res.err.find("grew steadily past fail_on_growth") != std::string::npos);

  std::string supp = dir + "/growth.supp";
  FILE* f = std::fopen(supp.c_str(), "w");
  REQUIRE(f);
  std::fputs("leak:leak_a_little\n", f);
  std::fclose(f);
  std::vector<std::string> hidden = flags;
  hidden.insert(hidden.end(), {"--suppressions", supp});
  Result quiet = run_sim(fresh_dir("growth_gate_supp"), {program("slow_leak"), "4"}, hidden);
  INFO(quiet.err);
  CHECK(quiet.exit_code == 0);

  Result bad = run_sim(fresh_dir("growth_gate_bad"), {program("slow_leak"), "1"}, {"--fail-on-growth", "lots"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--fail-on-growth") != std::string::npos);
}

TEST_CASE("growth: cudaleak top --once names the growing site while the program runs and a snapshot prints it") {
  std::string dir = fresh_dir("growth_top");
  const std::string ready = dir + "/ready";
  // cudaleak's own text goes to a file: the harness runs one command at a time.
  std::vector<std::string> flags = kFlags;
  flags.insert(flags.end(), {"--log-path", dir + "/log"});
  std::thread runner([&] { run_sim(dir, {program("slow_leak"), "8", "20", ready}, flags); });
  REQUIRE(wait_for(ready, 20));
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const std::string pid = read_file(ready).substr(0, read_file(ready).find('\n'));
  Result top = run({cudaleak_tool(), "top", "--once", pid});
  kill(std::stoi(pid), SIGUSR1);  // a snapshot: the growing site is printed beside its line
  runner.join();
  INFO(top.out + top.err);
  CHECK(top.exit_code == 0);
  CHECK(top.out.find("pid " + pid + " slow_leak") != std::string::npos);
  CHECK(top.out.find("leak_a_little") != std::string::npos);
  CHECK(top.out.find("/min for ") != std::string::npos);
  CHECK(top.out.find("flat") != std::string::npos);  // the weights
  const std::string log = read_file(dir + "/log." + pid);
  INFO(log);
  CHECK(log.find("cudaleak: snapshot of ") != std::string::npos);
  CHECK(log.find("==" + pid + "==cudaleak: 1 site grew steadily") != std::string::npos);
}
