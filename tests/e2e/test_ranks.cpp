// A distributed job under the simulated GPU: programs/fake_torchrun.py starts
// rank_worker processes with a launcher's variables, as torchrun, mpirun and
// srun do, under `cudaleak run`; the simulated GPU has one device per rank.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <csignal>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/e2e/harness.h"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

std::string fake_torchrun() { return std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/fake_torchrun.py"; }

// `cudaleak run [flags] -- fake_torchrun.py [launcher_args] -- rank_worker [worker_args]`, reports in dir.
Result run_job(const std::string& dir, const std::vector<std::string>& launcher_args,
               const std::vector<std::string>& worker_args, const std::vector<std::string>& flags = {},
               const std::vector<std::string>& env = {"CUDALEAK_SIM_DEVICES=4"}) {
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/rank.%p.%n.json"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"--", "/usr/bin/python3", fake_torchrun()});
  argv.insert(argv.end(), launcher_args.begin(), launcher_args.end());
  argv.insert(argv.end(), {"--", program("rank_worker")});
  argv.insert(argv.end(), worker_args.begin(), worker_args.end());
  return run(argv, env);
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string host_name() {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return host;
}

// The reports of a job's directory by rank (the latest of each process's).
std::map<int, cudaleak::report::Report> by_rank(const std::string& dir) {
  std::map<int, cudaleak::report::Report> out;
  for (const auto& f : files_in(dir)) {
    auto r = load(f);
    auto& slot = out[r.process.rank];
    if (slot.duration_ns <= r.duration_ns) slot = r;
  }
  return out;
}

}  // namespace

TEST_CASE("ranks: each report records its rank, local rank, world size, launcher and host", "[e2e][ranks]") {
  for (const char* launcher : {"torchrun", "openmpi", "pmi", "slurm"}) {
    CAPTURE(launcher);
    auto dir = fresh_dir(std::string("ranks_fields_") + launcher);
    Result res = run_job(dir, {"--nproc-per-node", "2", "--nnodes", "2", "--node-rank", "1", "--launcher", launcher},
                         {"--leak-on", "2,3"});
    CHECK(res.exit_code == 0);
    auto ranks = by_rank(dir);
    REQUIRE(ranks.size() == 2);
    for (int rank : {2, 3}) {
      REQUIRE(ranks.count(rank));
      const auto& r = ranks[rank];
      CHECK(r.process.local_rank == rank - 2);
      CHECK(r.process.world_size == 4);
      CHECK(r.process.launcher == launcher);
      CHECK(r.process.host == host_name());
      // Every resource on the rank's own device (local rank N: device N).
      REQUIRE(!r.leaks.empty());
      for (const auto& g : r.leaks) CHECK(g.device == rank - 2);
    }
  }
}

TEST_CASE("ranks: a leak on 7 of 8 ranks is one line in report and merge, a folder reads as one job", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_fold");
  Result res = run_job(dir, {"--nproc-per-node", "8"}, {"--leak-on", "0,1,2,3,5,6,7"}, {}, {"CUDALEAK_SIM_DEVICES=8"});
  CHECK(res.exit_code == 0);
  REQUIRE(files_in(dir).size() == 8);
  Result text = run({cudaleak_tool(), "report", dir});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("cudaleak (8 processes merged): detected CUDA resource leaks") != std::string::npos);
  CHECK(text.out.find("job: ranks 0-7 of 8 (torchrun) on host " + host_name()) != std::string::npos);
  CHECK(
      text.out.find("14.0 MiB of device memory in 7 allocations never freed, created by cudaMalloc on devices 0-3,5-7 "
                    "in rank_worker on ranks 0-3,5-7 (7 of 8):") != std::string::npos);
  CHECK(text.out.find("rank0_only_event") != std::string::npos);
  CHECK(text.out.find("rank_worker (pid ") != std::string::npos);  // the event of rank 0 alone
  // One line per site: leak_gradients is named in exactly one group.
  Result merged = run({cudaleak_tool(), "merge", dir, "-o", dir + "/../ranks_fold.merged.json"});
  CHECK(merged.exit_code == 0);
  auto m = load(dir + "/../ranks_fold.merged.json");
  CHECK(m.processes.size() == 8);
  int gradient_groups = 0;
  for (const auto& g : m.leaks) {
    if (!stack_has(g, "leak_gradients")) continue;
    ++gradient_groups;
    REQUIRE(g.ranks.size() == 7);
    CHECK(g.bytes == 7u * (2u << 20));
    CHECK(std::none_of(g.ranks.begin(), g.ranks.end(), [](const auto& s) { return s.rank == 4; }));
    for (const auto& s : g.ranks) CHECK(s.device == s.rank);
    // Each rank's allocation is listed, marked with its rank.
    std::vector<int> listed;
    for (const auto& a : g.allocations) listed.push_back(a.rank);
    std::sort(listed.begin(), listed.end());
    CHECK(listed == std::vector<int>{0, 1, 2, 3, 5, 6, 7});
  }
  CHECK(gradient_groups == 1);
  CHECK(m.summary.leaked_count == 8);  // 7 buffers and rank 0's event
  // One rank's view, each rank's totals, and a rank that is no number.
  Result five = run({cudaleak_tool(), "report", dir, "--rank", "5"});
  CHECK(five.out.find("2.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 5 in "
                      "rank_worker (pid ") != std::string::npos);
  CHECK(five.out.find("SUMMARY: cudaleak: 2.0 MiB leaked in 1 resource") != std::string::npos);
  // Its JSON lists rank 5's allocation only, on device 5.
  Result five_json = run(
      {cudaleak_tool(), "report", dir, "--rank", "5", "--format", "json", "-o", dir + "/../ranks_fold.5.json"});
  REQUIRE(five_json.exit_code == 0);
  auto only5 = load(dir + "/../ranks_fold.5.json");
  uint64_t own_address = 0;  // in rank 5's own report
  auto own = by_rank(dir);
  for (const auto& g : own[5].leaks)
    if (stack_has(g, "leak_gradients") && !g.allocations.empty()) own_address = g.allocations[0].record.handle;
  CHECK(own_address != 0);
  int gradients5 = 0;
  for (const auto& g : only5.leaks) {
    if (!stack_has(g, "leak_gradients")) continue;
    ++gradients5;
    CHECK(g.rank == 5);
    CHECK(g.device == 5);
    REQUIRE(g.allocations.size() == 1);
    CHECK(g.allocations[0].rank == -1);  // the group's own rank says it
    CHECK(g.allocations[0].record.bytes == 2u << 20);
    CHECK(g.allocations[0].record.handle == own_address);
  }
  CHECK(gradients5 == 1);
  Result by_rank_text = run({cudaleak_tool(), "report", dir, "--by", "rank"});
  CHECK(by_rank_text.out.find("2.0 MiB          2       2  device,event     rank 0\n") != std::string::npos);
  CHECK(by_rank_text.out.find("rank 4") == std::string::npos);
  Result bad = run({cudaleak_tool(), "report", dir, "--rank", "-1"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--rank: expected a rank (a number from 0), got '-1'") != std::string::npos);
  // A folder with other files in it: those are passed over; an empty one is refused in one line.
  write_file(dir + "/notes.txt", "not a report\n");
  CHECK(run({cudaleak_tool(), "report", dir}).exit_code == 0);
  auto empty = fresh_dir("ranks_fold_empty");
  Result none = run({cudaleak_tool(), "report", empty});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("no cudaleak reports in this directory") != std::string::npos);
  // The page carries the ranks of the group for its table.
  Result html = run({cudaleak_tool(), "report", dir, "--format", "html", "-o", dir + "/../ranks_fold.html"});
  CHECK(html.exit_code == 0);
  CHECK(read_file(dir + "/../ranks_fold.html").find("\"ranks\":[{") != std::string::npos);
}

TEST_CASE("ranks: the rank that ran out of memory says so first, merged every rank at that moment", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_oom");
  auto sync = fresh_dir("ranks_oom_sync");
  Result res = run_job(dir, {"--nproc-per-node", "4"}, {"--oom-on", "2", "--sync", sync},
                       {"--simulated-gpu-memory", "256MiB"});
  CHECK(res.exit_code == 1);  // the launcher's status: a rank failed
  // Rank 2's own summary at exit: its out-of-memory first, naming the rank.
  size_t said = res.err.find("out of memory on rank 2: cudaMalloc of 64.0 MiB on device 2 failed");
  CHECK(said != std::string::npos);
  // Its out-of-memory report and its exit report: counted once.
  auto files = files_in(dir);
  CHECK(files.size() == 5);
  Result text = run({cudaleak_tool(), "report", dir});
  CHECK(text.exit_code == 0);
  size_t first = text.out.find("rank 2 (pid ");
  REQUIRE(first != std::string::npos);
  CHECK(text.out.find(") ran out of memory first, at ", first) != std::string::npos);
  CHECK(text.out.find("The other ranks at that moment: rank 0 on device 0 held 32.0 MiB; rank 1 on device 1 held "
                      "32.0 MiB; rank 3 on device 3 held 32.0 MiB") != std::string::npos);
  CHECK(text.out.find("1 earlier report of the same processes") != std::string::npos);
  CHECK(text.out.find("failed in (anonymous namespace)::grow_until_oom (rank_worker.cpp:") != std::string::npos);
  Result merged = run({cudaleak_tool(), "merge", dir, "-o", dir + "/../ranks_oom.merged.json"});
  auto m = load(dir + "/../ranks_oom.merged.json");
  CHECK(m.processes.size() == 4);
  CHECK(m.history.size() == 1);
  REQUIRE(m.oom_events.size() == 1);
  CHECK(m.oom_events[0].rank == 2);
  CHECK(m.oom_events[0].device == 2);
  int rank2_lanes = 0;
  for (const auto& d : m.timeline.devices) rank2_lanes += d.rank == 2 && d.device == 2;
  CHECK(rank2_lanes == 1);
}

TEST_CASE("ranks: out of memory on a shared device names the other rank that holds it", "[e2e][ranks]") {
  // Two ranks on one device: rank 1's simulated GPU shows rank 0 holding 100 MiB.
  auto dir = fresh_dir("ranks_shared");
  auto sync = fresh_dir("ranks_shared_sync");
  Result res = run_job(dir, {"--nproc-per-node", "2", "--others-hold", "100MiB"}, {"--oom-on", "1", "--sync", sync},
                       {"--simulated-gpu-memory", "256MiB"}, {"CUDALEAK_SIM_DEVICES=1"});
  CHECK(res.exit_code == 1);
  auto ranks = by_rank(dir);
  REQUIRE(ranks.count(0));
  REQUIRE(ranks.count(1));
  REQUIRE(ranks[1].oom_events.size() == 1);
  const auto& e = ranks[1].oom_events[0];
  CHECK(e.rank == 1);
  REQUIRE(e.other_processes.size() == 1);
  CHECK(e.other_processes[0].pid == ranks[0].process.pid);
  CHECK(e.other_processes[0].rank == 0);
  bool named = false;
  for (const auto& d : e.diagnosis)
    named |= d.message.find("pid " + std::to_string(ranks[0].process.pid) + " (rank 0, rank_worker) holds 100.0 MiB") !=
             std::string::npos;
  CHECK(named);
}

TEST_CASE("ranks: several devices in one process, each resource and timeline on its own device", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_devices");
  // One process, three devices; another process holds 100 MiB of device 2 only.
  Result res = run_job(dir, {"--nproc-per-node", "1"}, {"--all-devices", "--oom-on", "0", "--oom-device", "2"},
                       {"--simulated-gpu-memory", "256MiB"},
                       {"CUDALEAK_SIM_DEVICES=3", "CUDALEAK_SIM_OTHER_PROCESS=4242:viewer:100MiB:2"});
  CHECK(res.exit_code == 1);
  auto ranks = by_rank(dir);
  REQUIRE(ranks.count(0));
  const auto& r = ranks[0];
  for (int d = 0; d < 3; ++d) {
    CAPTURE(d);
    const cudaleak::report::LeakGroup* buffer = nullptr;
    for (const auto& g : r.leaks)
      if (g.device == d && stack_has(g, "per_device_buffer")) buffer = &g;
    REQUIRE(buffer);
    CHECK(buffer->bytes == uint64_t(d + 1) << 20);
    CHECK(std::count_if(r.timeline.devices.begin(), r.timeline.devices.end(),
                        [&](const auto& t) { return t.device == d; }) == 1);
  }
  REQUIRE(r.oom_events.size() == 1);
  const auto& e = r.oom_events[0];
  CHECK(e.device == 2);
  REQUIRE(e.other_processes.size() == 1);
  CHECK(e.other_processes[0].pid == 4242);
  CHECK(e.other_processes[0].rank == -1);  // no such process here: its rank is not known
  CHECK(e.other_processes[0].bytes == 100u << 20);
  // The growth happened on device 2 only: its timeline peaks above the others'.
  std::map<int, uint64_t> peaks;
  for (const auto& t : r.timeline.devices) peaks[t.device] = t.peak.bytes;
  CHECK(peaks[2] >= (128u << 20));
  CHECK(peaks[1] == (2u << 20));
  CHECK(peaks[0] == (33u << 20));  // the model and the 1 MiB buffer (or a step's activations)
}

TEST_CASE("ranks: cudaleak run gates the whole job, per rank, and names ranks in JUnit and SARIF", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_gate");
  Result res = run_job(dir, {"--nproc-per-node", "4"}, {"--leak-on", "1"},
                       {"--error-exitcode", "9", "--junit", dir + "/../ranks_gate.xml", "--sarif",
                        dir + "/../ranks_gate.sarif", "--fail-on", "device"});
  CHECK(res.exit_code == 9);
  CHECK(res.err.find("leak gate over the job's 4 ranks: rank 1 failed, ranks 0,2,3 passed; exiting with status 9") !=
        std::string::npos);
  std::string junit = read_file(dir + "/../ranks_gate.xml");
  size_t suite = junit.find("<testsuite name=\"cudaleak: rank_worker (rank 1)\" tests=\"1\" failures=\"1\"");
  CHECK(suite != std::string::npos);
  CHECK(junit.find("hostname=\"" + host_name() + "\"", suite) != std::string::npos);
  CHECK(junit.find("<property name=\"rank\" value=\"1\"/>", suite) != std::string::npos);
  CHECK(junit.find("<testsuite name=\"cudaleak: rank_worker (rank 0)\"") != std::string::npos);
  auto sarif = nlohmann::json::parse(read_file(dir + "/../ranks_gate.sarif"));
  auto& results = sarif["runs"][0]["results"];
  REQUIRE(results.size() == 1);
  CHECK(results[0]["properties"]["rank"] == 1);
  CHECK(results[0]["properties"]["worldSize"] == 4);
  CHECK(results[0]["message"]["text"].get<std::string>().find("in rank_worker (rank 1, pid ") != std::string::npos);

  // A suppression applies on every rank: the job passes.
  auto quiet = fresh_dir("ranks_gate_suppressed");
  write_file(quiet + "/../ranks.supp", "leak:leak_gradients\nleak:rank0_only_event\n");
  Result suppressed = run_job(quiet, {"--nproc-per-node", "4"}, {"--leak-on", "1,2"},
                              {"--error-exitcode", "9", "--suppressions", quiet + "/../ranks.supp"});
  CHECK(suppressed.exit_code == 0);
  CHECK(suppressed.err.find("leak gate over the job's 4 ranks: ranks 0-3 passed") != std::string::npos);

  // A baseline of the job's sites, judged per rank: the same leak on another
  // rank is known there too; a new site on one rank fails that rank alone.
  auto base = fresh_dir("ranks_gate_baseline");
  run_job(base, {"--nproc-per-node", "4"}, {"--leak-on", "1"});
  REQUIRE(run({cudaleak_tool(), "baseline", base, "-o", base + "/../ranks.baseline"}).exit_code == 0);
  auto again = fresh_dir("ranks_gate_baseline_again");
  Result known = run_job(again, {"--nproc-per-node", "4"}, {"--leak-on", "1,3"},
                         {"--error-exitcode", "9", "--baseline", base + "/../ranks.baseline"});
  CHECK(known.exit_code == 0);
  auto fresh = fresh_dir("ranks_gate_baseline_new");
  Result grown = run_job(fresh, {"--nproc-per-node", "4"}, {"--leak-on", "1", "--all-devices"},
                         {"--error-exitcode", "9", "--baseline", base + "/../ranks.baseline"});
  CHECK(grown.exit_code == 9);
  CHECK(grown.err.find("leak gate over the job's 4 ranks: ranks 0-3 failed") != std::string::npos);
  // The job's count of failing groups is of the groups it shows: each
  // device's buffer, folded over the 4 ranks, counts once.
  REQUIRE(run({cudaleak_tool(), "merge", fresh, "-o", fresh + "/../ranks_grown.merged.json"}).exit_code == 0);
  auto job = load(fresh + "/../ranks_grown.merged.json");
  const auto shown = std::count_if(job.leaks.begin(), job.leaks.end(), [](const auto& g) { return g.fails_gate; });
  CHECK(shown == 4);
  CHECK(job.gate.failing_groups == uint64_t(shown));
}

TEST_CASE("ranks: diff of two jobs' folders names the ranks of each changed site", "[e2e][ranks]") {
  auto before = fresh_dir("ranks_diff_before"), after = fresh_dir("ranks_diff_after");
  run_job(before, {"--nproc-per-node", "4"}, {"--leak-on", "1"});
  run_job(after, {"--nproc-per-node", "4"}, {"--leak-on", "1,2"});
  Result diff = run({cudaleak_tool(), "diff", before, after});
  CHECK(diff.exit_code == 1);
  CHECK(diff.out.find("grown") != std::string::npos);
  CHECK(diff.out.find("leak_gradients") != std::string::npos);
  CHECK(diff.out.find("[ranks 1,2]") != std::string::npos);
}

TEST_CASE("ranks: a rank that crashed is named by its crash report", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_crash");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/rank.%p.json", "--",
                    program("crash_after_leak")},
                   {"OMPI_COMM_WORLD_RANK=5", "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_SIZE=6"});
  CHECK(res.signal == SIGSEGV);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  CHECK(r.reason == Reason::Crash);
  CHECK(r.process.rank == 5);
  CHECK(r.process.local_rank == 1);
  CHECK(r.process.world_size == 6);
  CHECK(r.process.launcher == "openmpi");
  CHECK(r.process.host == host_name());
}

TEST_CASE("ranks: the job's gate names a rank that crashed", "[e2e][ranks]") {
  auto dir = fresh_dir("ranks_crash_gate");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--error-exitcode", "9", "-o", dir + "/rank.%p.json",
                    "--", "/usr/bin/python3", fake_torchrun(), "--nproc-per-node", "2", "--",
                    program("crash_after_leak")});
  CHECK(res.exit_code == 9);  // the launcher exited 1 (its ranks died); the gate's status wins
  CHECK(res.err.find("leak gate over the job's 2 ranks: ranks 0,1 failed; exiting with status 9") != std::string::npos);
  CHECK(files_in(dir).size() == 2);
}

TEST_CASE("ranks: a process a rank forked is not the rank, a shell between launcher and rank changes nothing",
          "[e2e][ranks]") {
  // fork_child: the rank leaks 1 MiB, then forks a child that leaks its own
  // pinned buffer; the child inherits RANK but its parent, the rank, has the
  // driver loaded.
  auto dir = fresh_dir("ranks_fork");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/r.%p.json", "--", "/bin/sh", "-c",
                    program("fork_child") + "; true"},
                   {"RANK=2", "LOCAL_RANK=2", "WORLD_SIZE=4"});
  CHECK(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);
  auto a = load(files[0]), b = load(files[1]);
  auto& rank = a.process.pid == b.process.ppid ? a : b;
  auto& child = a.process.pid == b.process.ppid ? b : a;
  CHECK(rank.process.rank == 2);  // its parent, the shell, has no driver: still the rank
  CHECK(rank.process.world_size == 4);
  CHECK(child.process.rank == -1);
  CHECK(child.process.launcher.empty());
}

TEST_CASE("ranks: peer access and managed memory prefetched across devices keep each resource on its device",
          "[e2e][ranks]") {
  auto dir = fresh_dir("peer_devices");
  Result res = run_sim(dir, {program("peer_devices")}, {}, {"CUDALEAK_SIM_DEVICES=2"});
  INFO(res.out << res.err);
  REQUIRE(res.exit_code == 0);
  CHECK(res.out.find("2 devices, peer device 1, peer access on") != std::string::npos);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  const auto r = load(files[0]);
  // Freed while another device was current: neither a leak nor a release cudaleak did not know.
  CHECK(find_group(r, "device", "free_from_other_device") == nullptr);
  for (const auto& n : r.notes) CHECK(n.type != cudaleak::report::NoteType::UnknownRelease);
  // A group's device and bytes; device -2 when there is no such group.
  auto placed = [&](const std::string& kind, const std::string& function) {
    const auto* g = find_group(r, kind, function);
    return g ? std::pair<int, uint64_t>{g->device, g->bytes} : std::pair<int, uint64_t>{-2, 0};
  };
  CHECK(placed("device", "leak_on_peer") == std::pair<int, uint64_t>{1, 5u << 20});
  CHECK(placed("stream", "leak_on_peer") == std::pair<int, uint64_t>{1, 0});
  // Managed memory lives where it was prefetched whole: device 1, or the host (no device).
  CHECK(placed("managed", "managed_to_peer") == std::pair<int, uint64_t>{1, 6u << 20});
  CHECK(placed("managed", "managed_to_host") == std::pair<int, uint64_t>{-1, 7u << 20});
  CHECK(placed("managed", "managed_round_trip").first == -2);
  // One batch, two destinations: the first allocation to device 1, the second to the host.
  int batched = 0;
  for (const auto& g : r.leaks) {
    if (g.kind != cudaleak::Kind::Managed || !stack_has(g, "managed_batch")) continue;
    ++batched;
    CHECK(g.device == (g.bytes == 1u << 20 ? 1 : -1));
  }
  CHECK(batched == 2);
  CHECK(r.summary.leaked_bytes == (5u + 6u + 7u + 1u + 4u) << 20);
  // The timelines moved with it: at the end device 1 holds the 5 MiB leak and
  // the 6 and 1 MiB prefetched there, device 0 nothing.
  std::map<int, uint64_t> last;
  for (const auto& t : r.timeline.devices)
    if (!t.points.empty()) {
      uint64_t total = 0;
      for (uint64_t b : t.points.back().bytes) total += b;
      last[t.device] = total;
    }
  CHECK(last[1] == 12u << 20);
  CHECK(last[0] == 0);
  CHECK(
      res.err.find("6.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged on device 1") !=
      std::string::npos);
  CHECK(res.err.find("7.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged, prefetched "
                     "to the host:") != std::string::npos);
}
