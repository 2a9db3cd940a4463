// A distributed job's ranks: the launchers' variables, merging and folding by
// rank, the job's shape, an out-of-memory read against the other ranks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include "report/analyze/job.h"
#include "report/analyze/job_fold.h"
#include "report/analyze/views.h"
#include "report/model/cuda_frames.h"
#include "report/model/json_io.h"
#include "report/model/merge.h"
#include "report/render/diff_output.h"
#include "report/render/text_report.h"
#include "report/symbols/launcher_env.h"

using namespace cudaleak::report;
using namespace cudaleak::render;
using cudaleak::symbols::job_place;
using cudaleak::symbols::job_place_of_environ;
using cudaleak::symbols::JobPlace;

namespace {

JobPlace place_of(const std::map<std::string, std::string>& env) {
  return job_place([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

// One rank's exit report: a leak at `fn` (ips differ per process, as ASLR
// makes them), on the rank's own device.
Report rank_report(int pid, int rank, const std::string& host, const std::string& fn = "leak_gradients",
                   uint64_t ip_base = 0x1000) {
  Report r;
  r.process.pid = pid;
  r.process.rank = rank;
  r.process.local_rank = rank % 4;
  r.process.world_size = 8;
  r.process.launcher = "torchrun";
  r.process.host = host;
  r.process.exe = "/app/train";
  r.process.run_id = std::to_string(pid) + "@" + host;
  r.process.start_unix_ns = 1'000'000'000;
  LeakGroup g;
  g.kind = Kind::Device;
  g.api = "cudaMalloc";
  g.bytes = 2 << 20;
  g.count = 1;
  g.device = rank % 4;
  g.stack = {{ip_base + 1, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
             {ip_base + 2, "/app/train", fn, "/src/train.cpp", 12},
             {ip_base + 3, "/app/train", "main", "/src/train.cpp", 40}};
  r.leaks = {g};
  r.modules = {{"/app/train", ip_base, ""}};
  r.summary.leaked_bytes = g.bytes;
  r.summary.leaked_count = 1;
  return r;
}

DeviceTimeline timeline(int device, std::vector<std::pair<uint64_t, uint64_t>> points) {
  DeviceTimeline d;
  d.device = device;
  for (auto [t, bytes] : points) d.points.push_back(TimelinePoint{t, {bytes}, bytes});
  return d;
}

}  // namespace

TEST_CASE("ranks: each launcher's variables, innermost first, bad values ignored", "[ranks]") {
  CHECK(place_of({{"RANK", "3"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}}) == JobPlace{3, 1, 8, "torchrun"});
  CHECK(place_of({{"OMPI_COMM_WORLD_RANK", "5"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "6"}}) ==
        JobPlace{5, 1, 6, "openmpi"});
  CHECK(place_of({{"PMI_RANK", "2"}, {"MPI_LOCALRANKID", "0"}, {"PMI_SIZE", "4"}}) == JobPlace{2, 0, 4, "pmi"});
  CHECK(place_of({{"SLURM_PROCID", "7"}, {"SLURM_LOCALID", "3"}, {"SLURM_NTASKS", "16"}}) ==
        JobPlace{7, 3, 16, "slurm"});
  // torchrun started by srun: the worker's rank is torchrun's, not the node's task id.
  CHECK(place_of({{"SLURM_PROCID", "1"},
                  {"SLURM_LOCALID", "0"},
                  {"SLURM_NTASKS", "2"},
                  {"RANK", "6"},
                  {"LOCAL_RANK", "2"},
                  {"WORLD_SIZE", "8"}}) == JobPlace{6, 2, 8, "torchrun"});
  // Not a number: passed over, the next launcher's rank counts.
  CHECK(place_of({{"RANK", "abc"}, {"SLURM_PROCID", "4"}}) == JobPlace{4, -1, 0, "slurm"});
  CHECK(place_of({{"RANK", "-1"}}) == JobPlace{});
  CHECK(place_of({{"RANK", ""}}) == JobPlace{});
  CHECK(place_of({{"RANK", "99999999"}}) == JobPlace{});
  CHECK(place_of({{"RANK", "1"}, {"WORLD_SIZE", "x"}}) == JobPlace{1, -1, 0, "torchrun"});
  // A local rank alone is kept, with no rank.
  CHECK(place_of({{"LOCAL_RANK", "2"}}) == JobPlace{-1, 2, 0, "torchrun"});
  CHECK(place_of({}) == JobPlace{});
  std::string block("PATH=/bin\0RANK=9\0LOCAL_RANK=1\0WORLD_SIZE=12\0X=a=b", 46);
  CHECK(job_place_of_environ(block) == JobPlace{9, 1, 12, "torchrun"});
  CHECK(job_place_of_environ(std::string("RANKS=1\0", 8)).rank == -1);
  // The job's name tells two jobs' ranks apart.
  const JobPlace named = job_place_of_environ(std::string("RANK=1\0TORCHELASTIC_RUN_ID=abc\0SLURM_JOB_ID=7\0", 46));
  CHECK(named.rank == 1);
  CHECK(named.job_id == "TORCHELASTIC_RUN_ID=abc");
  CHECK(cudaleak::symbols::rank_of_process(0) == -1);
}

TEST_CASE("ranks: rank lists as ranges", "[ranks]") {
  CHECK(rank_ranges({0, 1, 2, 3, 5, 6, 7}) == "0-3,5-7");
  CHECK(rank_ranges({7, 0, 1, 3, 1}) == "0,1,3,7");
  CHECK(rank_ranges({4}) == "4");
  CHECK(rank_ranges({}) == "");
  CHECK(rank_ranges({0, 1, 2, 4, 5, 9, 10, 11, 12}) == "0-2,4,5,9-12");
}

TEST_CASE("ranks: a site leaking on 7 of 8 ranks is one group, from several hosts", "[ranks]") {
  std::vector<Report> reports;
  for (int rank = 0; rank < 8; ++rank) {
    if (rank == 4) continue;
    // Two hosts, the same pids on both (containers), other load addresses.
    reports.push_back(
        rank_report(100 + rank % 4, rank, rank < 4 ? "node-a" : "node-b", "leak_gradients", 0x1000 * (rank + 1)));
  }
  reports.push_back(rank_report(100, 4, "node-b", "other_site"));
  Report m = merge_reports(reports);
  REQUIRE(m.processes.size() == 8);
  REQUIRE(m.leaks.size() == 2);
  const LeakGroup& g = m.leaks[0];
  CHECK(g.bytes == 7 * (2 << 20));
  CHECK(g.count == 7);
  REQUIRE(g.ranks.size() == 7);
  CHECK(g.pid == 0);
  CHECK(g.rank == -1);
  CHECK(g.device == -1);  // each rank its own device
  CHECK(g.ranks[4].rank == 5);
  CHECK(g.ranks[4].host == "node-b");
  CHECK(g.ranks[4].pid == 101);
  CHECK(g.ranks[4].device == 1);
  CHECK(m.leaks[1].rank == 4);  // one rank: said as before
  CHECK(m.leaks[1].ranks.empty());
  CHECK(m.summary.leaked_count == 8);
  std::string text = render_text(m, {});
  CHECK(text.find("on devices 0-3 in train on ranks 0-3,5-7 (7 of 8)") != std::string::npos);
  CHECK(text.find("job: ranks 0-7 of 8 (torchrun) on 2 hosts (node-a, node-b)") != std::string::npos);
  // Read back and merged again: still one group of seven ranks.
  std::istringstream json(to_json(m));
  Report again = read_report(json);
  CHECK(again == m);
  Report twice = merge_reports({again, rank_report(300, 4, "node-b")});
  REQUIRE(!twice.leaks.empty());
  CHECK(twice.leaks[0].ranks.size() == 8);
}

TEST_CASE("ranks: one rank's groups never fold together, gate states apart", "[ranks]") {
  Report a = rank_report(100, 0, "h"), b = rank_report(101, 1, "h");
  a.leaks.push_back(a.leaks[0]);  // a second group of rank 0 at the same lines (another stack id)
  b.leaks[0].suppressed_by = "leak:leak_gradients (s.supp:1)";
  Report m = merge_reports({a, b});
  CHECK(m.leaks.size() == 3);
  for (const LeakGroup& g : m.leaks) CHECK(g.ranks.empty());
}

TEST_CASE("ranks: ranks leaking at one site on two devices each fold into one group per device", "[ranks]") {
  // Each rank's groups in device order 0, 1: rank 1's group on device 0 must
  // join rank 0's on device 0, whatever came first.
  std::vector<Report> reports;
  for (int rank = 0; rank < 2; ++rank) {
    Report r = rank_report(100 + rank, rank, "h");
    r.leaks.push_back(r.leaks[0]);
    r.leaks[0].device = 0;
    r.leaks[1].device = 1;
    reports.push_back(r);
  }
  Report m = merge_reports(reports);
  REQUIRE(m.leaks.size() == 2);
  for (const LeakGroup& g : m.leaks) {
    REQUIRE(g.ranks.size() == 2);
    CHECK(g.ranks[0].device == g.ranks[1].device);
    CHECK(g.device == g.ranks[0].device);
    CHECK(g.count == 2);
  }
}

TEST_CASE("ranks: torchrun's agents under srun are not ranks of the job", "[ranks]") {
  // Two nodes: each agent has only SLURM_PROCID (0, 1), the workers RANK 0-3.
  std::vector<Report> reports;
  for (int rank = 0; rank < 4; ++rank) {
    reports.push_back(rank_report(200 + rank, rank, rank < 2 ? "a" : "b"));
    reports.back().process.ppid = 100 + rank / 2;  // started by its node's agent
  }
  for (int node = 0; node < 2; ++node) {
    Report agent = rank_report(100 + node, node, node ? "b" : "a", "agent_site");
    agent.process.launcher = "slurm";
    agent.process.world_size = 2;
    reports.push_back(agent);
  }
  Report m = merge_reports(reports);
  const JobShape job = job_shape(m);
  CHECK(job.ranks == std::vector<int>{0, 1, 2, 3});
  CHECK(job.repeated.empty());
  CHECK(job.launchers == std::vector<std::string>{"torchrun"});
  REQUIRE(!m.leaks.empty());
  CHECK(m.leaks[0].ranks.size() == 4);  // the workers' site, folded over the four ranks only
}

TEST_CASE("ranks: a folder holding the ranks' reports and their merge counts each rank once", "[ranks]") {
  std::vector<Report> ranks;
  for (int rank = 0; rank < 3; ++rank) ranks.push_back(rank_report(100 + rank, rank, "h"));
  Report merged = merge_reports(ranks);
  std::vector<Report> folder = ranks;
  folder.push_back(merged);
  Report m = merge_reports(folder);
  CHECK(job_shape(m).repeated.empty());
  CHECK(m.summary.leaked_count == 3);
  REQUIRE(m.leaks.size() == 1);
  CHECK(m.leaks[0].ranks.size() == 3);
}

TEST_CASE("ranks: unsymbolized frames fold when the frame names its library by another path", "[ranks]") {
  // As on an H200 host: the frame says libcudart.so.13.0.96 (the real file),
  // the module list libcudart.so.13 (the link it was loaded by); each rank
  // has it at another address.
  std::vector<Report> reports;
  for (int rank = 0; rank < 2; ++rank) {
    Report r = rank_report(100 + rank, rank, "h", "leak_gradients", 0x1000 * (rank + 1));
    const uint64_t base = 0x7f0000000000ull + 0x100000000ull * uint64_t(rank);
    r.modules.push_back({"/usr/local/cuda/lib64/libcudart.so.13", base, ""});
    r.leaks[0].stack[0] = {base + 0x50cc3, "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96", "", "",
                           0};
    reports.push_back(r);
  }
  Report m = merge_reports(reports);
  REQUIRE(m.leaks.size() == 1);
  CHECK(m.leaks[0].ranks.size() == 2);
}

TEST_CASE("ranks: the job's shape names missing and repeated ranks", "[ranks]") {
  Report m = merge_reports(
      {rank_report(1, 0, "h"), rank_report(2, 1, "h"), rank_report(3, 1, "h"), rank_report(4, 3, "h")});
  JobShape job = job_shape(m);
  CHECK(job.world_size == 8);
  CHECK(job.ranks == std::vector<int>{0, 1, 3});
  CHECK(job.missing == std::vector<int>{2, 4, 5, 6, 7});
  CHECK(job.repeated == std::vector<int>{1});
  CHECK(job.hosts == std::vector<std::string>{"h"});
  std::string text = render_text(m, {});
  CHECK(text.find("no report from ranks 2,4-7") != std::string::npos);
  CHECK(text.find("rank 1 reported by more than one process") != std::string::npos);
  CHECK_FALSE(job_shape(rank_report(1, -1, "h")).any());
}

TEST_CASE("ranks: the failing rank's out-of-memory comes first, with the others at that moment", "[ranks]") {
  Report r0 = rank_report(100, 0, "h"), r1 = rank_report(101, 1, "h"), r2 = rank_report(102, 2, "h");
  r1.process.start_unix_ns += 500;  // started later: its times shift by 500 ns in the merge
  r0.timeline.kinds = r1.timeline.kinds = r2.timeline.kinds = {Kind::Device};
  r0.timeline.devices = {timeline(0, {{100, 10 << 20}, {900, 30 << 20}, {5000, 0}})};
  r1.timeline.devices = {timeline(1, {{2000, 40 << 20}})};
  r2.timeline.devices = {timeline(2, {{100, 50 << 20}})};
  OomEvent e;
  e.time_ns = 1000;
  e.api = "cuMemAlloc_v2";
  e.request_bytes = 64 << 20;
  e.device = 2;
  e.other_processes = {OtherProcessUsage{100, "train", 30 << 20, true},
                       OtherProcessUsage{4242, "viewer", 1 << 20, true}};
  r2.oom_events = {e};
  OomEvent later = e;
  later.time_ns = 3000;
  r1.oom_events = {later};
  Report m = merge_reports({r0, r1, r2});
  auto ooms = job_ooms(m);
  REQUIRE(ooms.size() == 2);
  const OomEvent& first = m.oom_events[ooms[0].event];
  CHECK(first.rank == 2);
  CHECK(first.pid == 102);
  // Rank 0 of the same host held the memory the failure saw; the viewer is no rank.
  CHECK(first.other_processes[0].rank == 0);
  CHECK(first.other_processes[1].rank == -1);
  REQUIRE(ooms[0].others.size() == 2);
  CHECK(ooms[0].others[0].rank == 0);
  CHECK(ooms[0].others[0].known);
  CHECK(ooms[0].others[0].bytes == (30u << 20));
  CHECK(ooms[0].others[1].rank == 1);
  CHECK_FALSE(ooms[0].others[1].known);  // its first point came later
  CHECK(ooms[0].others[1].failed);
  CHECK(ooms[0].others[1].failed_ns == 3500);
  std::string text = render_text(m, {});
  size_t failed = text.find("rank 2 (pid 102) ran out of memory first, at ");
  REQUIRE(failed != std::string::npos);
  CHECK(failed < text.find("never freed"));
  CHECK(text.find("out of memory on rank 2: cuMemAlloc_v2 of 64.0 MiB on device 2 failed") != std::string::npos);
  CHECK(text.find("The other ranks at that moment: rank 0 on device 0 held 30.0 MiB; rank 1 on device 1 had not "
                  "allocated yet (it ran out of memory too, at ") != std::string::npos);
  CHECK(text.find("rank 1 (pid 101) ran out of memory, at ") != std::string::npos);
  // The job's clock and, for a rank started after the first process, its own.
  CHECK(text.find("rank 2 (pid 102) ran out of memory first, at 1.0 us:\n") != std::string::npos);
  CHECK(text.find("rank 1 (pid 101) ran out of memory, at 3.5 us of the job (3.0 us into its own run):\n") !=
        std::string::npos);
  // A single rank's report says its out-of-memory first too.
  Report alone = r2;
  alone.oom_events[0].rank = 2;
  std::string own = render_text(alone, {});
  REQUIRE(own.find("out of memory on rank 2") != std::string::npos);
  CHECK(own.find("out of memory on rank 2") < own.find("never freed"));
}

// Eight JAX processes on two H200s: the ranks that kept 2 GiB and exited at
// 5.3 s were said to hold 49.5 KiB (what they had not freed at exit) when
// rank 1 failed at 15.6 s. A rank whose process had ended says so.
TEST_CASE("ranks: a rank that had ended before the failure is said to have ended", "[ranks]") {
  Report r0 = rank_report(100, 0, "h"), r1 = rank_report(101, 1, "h");
  r0.timeline.kinds = r1.timeline.kinds = {Kind::Device};
  r0.timeline.devices = {timeline(0, {{100, 2u << 30}, {4000, 50 << 10}})};
  r0.duration_ns = 5000;  // its exit report, written at 5 us
  r1.timeline.devices = {timeline(0, {{100, 31u << 30}})};
  OomEvent e;
  e.time_ns = 15000;
  e.api = "XLA (JAX)";
  e.request_bytes = 1u << 30;
  r1.oom_events = {e};
  Report m = merge_reports({r0, r1});
  auto ooms = job_ooms(m);
  REQUIRE(ooms.size() == 1);
  REQUIRE(ooms[0].others.size() == 1);
  CHECK(ooms[0].others[0].ended);
  CHECK(ooms[0].others[0].ended_ns == 5000);
  CHECK_FALSE(ooms[0].others[0].known);
  std::string text = render_text(m, {});
  CHECK(text.find("The other ranks at that moment: rank 0 on device 0 had ended at 5.0 us") != std::string::npos);
  CHECK(text.find("held 50.0 KiB") == std::string::npos);
  // Still running at the failure (its report came later): what it held then.
  m.processes[0].duration_ns = 20000;
  ooms = job_ooms(m);
  CHECK_FALSE(ooms[0].others[0].ended);
  CHECK(ooms[0].others[0].bytes == (50u << 10));
}

// Eight JAX processes on two H200s, each with CUDA_VISIBLE_DEVICES of its
// own: every rank said "device 0" and the job view said "each on its
// device". Ranks are on the same GPU where their reports read the same UUID.
TEST_CASE("ranks: the GPUs of a job's ranks are told by UUID, not by ordinal", "[ranks]") {
  std::vector<Report> reports;
  for (int rank = 0; rank < 4; ++rank) {
    Report r = rank_report(100 + rank, rank, "h");
    r.timeline.kinds = {Kind::Device};
    r.timeline.devices = {timeline(0, {{100, 1u << 20}})};
    r.timeline.devices[0].uuid = rank % 2 ? "GPU-bbbb" : "GPU-aaaa";
    reports.push_back(r);
  }
  Report m = merge_reports(reports);
  std::vector<RankDevice> all;
  for (int rank = 0; rank < 4; ++rank) all.push_back({100 + rank, rank, 0});
  CHECK(devices_among(m, all) == std::optional<size_t>(2));
  // The same ranks read back from JSON keep the UUIDs.
  Report back = from_json(to_json(m));
  CHECK(devices_among(back, all) == std::optional<size_t>(2));
  // Without UUIDs (older reports, crash captures) four processes saying
  // device 0 on one host cannot be told apart.
  for (DeviceTimeline& d : m.timeline.devices) d.uuid.clear();
  CHECK_FALSE(devices_among(m, all).has_value());
  // Ordinals that differ on a host are different GPUs; on two hosts, the same ordinal is two.
  for (int rank = 0; rank < 4; ++rank) m.timeline.devices[size_t(rank)].device = rank;
  std::vector<RankDevice> own;
  for (int rank = 0; rank < 4; ++rank) own.push_back({100 + rank, rank, rank});
  CHECK(devices_among(m, own) == std::optional<size_t>(4));
}

TEST_CASE("ranks: the diff says which ranks leak at a site", "[ranks]") {
  std::vector<Report> before = {rank_report(100, 0, "h"), rank_report(101, 1, "h", "elsewhere")};
  std::vector<Report> after = {rank_report(200, 0, "h"), rank_report(201, 1, "h"), rank_report(202, 2, "h")};
  // A snapshot of rank 2 before its exit report: counted once.
  Report snapshot = after[2];
  snapshot.reason = Reason::Signal;
  after[2].duration_ns = 10;
  after.push_back(snapshot);
  auto changes = diff_reports(before, after);
  auto grown = std::find_if(changes.begin(), changes.end(),
                            [](const SiteChange& c) { return c.change == Change::Grown; });
  REQUIRE(grown != changes.end());
  CHECK(grown->old_ranks == std::vector<int>{0});
  CHECK(grown->new_ranks == std::vector<int>{0, 1, 2});
  CHECK(grown->new_count == 3);
  std::string text = cudaleak::render::diff_text(changes);
  CHECK(text.find("[ranks 0-2]") != std::string::npos);
  CHECK(text.find("[rank 1]") != std::string::npos);  // the gone site, on rank 1 before
  CHECK(cudaleak::render::diff_json(changes).find("\"new_ranks\": [") != std::string::npos);
}

TEST_CASE("ranks: a function in an anonymous namespace keeps its name in one-line places", "[ranks]") {
  // The out-of-memory line of a rank names it ("in grow_until_oom (...)"), not an empty name.
  CHECK(plain_name("(anonymous namespace)::grow_until_oom()") == "(anonymous namespace)::grow_until_oom");
  CHECK(plain_name("ns::(anonymous namespace)::f<int>(int)") == "ns::(anonymous namespace)::f");
  CHECK(plain_name("cudaMalloc") == "cudaMalloc");
  CHECK(plain_name("train_step(unsigned long)") == "train_step");
}

TEST_CASE("ranks: report --rank keeps a rank's shares, --by rank adds up each rank", "[ranks]") {
  std::vector<Report> reports;
  for (int rank = 0; rank < 4; ++rank) reports.push_back(rank_report(100 + rank, rank, "h"));
  reports.push_back(rank_report(200, 3, "h", "only_on_3"));
  reports.back().process.run_id = "other";  // a second process claiming rank 3: its own group
  Report m = merge_reports(reports);
  REQUIRE(m.leaks.size() == 2);
  Filter f;
  f.ranks = {1, 2};
  Report two = filter_report(m, f);
  REQUIRE(two.leaks.size() == 1);
  CHECK(two.leaks[0].ranks.size() == 2);
  CHECK(two.leaks[0].bytes == 2u * (2u << 20));
  f.ranks = {3};
  Report three = filter_report(m, f);
  REQUIRE(three.leaks.size() == 2);
  for (const LeakGroup& g : three.leaks) {
    CHECK(g.ranks.empty());
    CHECK(g.rank == 3);
  }
  CHECK(three.summary.leaked_count == 2);
  auto rows = aggregate(m, "rank");
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].key == "rank 3");  // two groups: the most bytes
  CHECK(rows[0].bytes == 2u * (2u << 20));
  CHECK(rows[0].groups == 2);
  Report solo = rank_report(7, -1, "h");
  CHECK(aggregate(solo, "rank").at(0).key == "pid 7");
  CHECK_THROWS_AS(aggregate(m, "host"), std::invalid_argument);
}

TEST_CASE("ranks: a merge keeps every rank's PyTorch devices, each named by its process", "[ranks]") {
  Report r0 = rank_report(100, 0, "h"), r1 = rank_report(101, 1, "h");
  for (Report* r : {&r0, &r1}) {
    r->has_pytorch = true;
    AllocatorDevice d;  // each rank's allocator calls its GPU device 0 (CUDA_VISIBLE_DEVICES)
    d.device = 0;
    d.reserved = uint64_t(r->process.rank + 1) << 20;
    d.allocated = d.reserved;
    r->pytorch.devices = {d};
  }
  Report m = merge_reports({r0, r1});
  REQUIRE(m.pytorch.devices.size() == 2);
  CHECK(m.pytorch.devices[0].pid == 100);
  CHECK(m.pytorch.devices[0].rank == 0);
  CHECK(m.pytorch.devices[1].pid == 101);
  CHECK(m.pytorch.devices[1].rank == 1);
  CHECK(from_json(to_json(m)).pytorch == m.pytorch);  // pid and rank written and read back
  std::string text = render_text(m, {});
  CHECK(text.find("PyTorch at exit on device 0 in train (pid 100, rank 0): 1.0 MiB reserved") != std::string::npos);
  CHECK(text.find("PyTorch at exit on device 0 in train (pid 101, rank 1): 2.0 MiB reserved") != std::string::npos);
  // A single process's report says nothing of a process.
  CHECK(render_text(r0, {}).find("PyTorch at exit on device 0: 1.0 MiB reserved") != std::string::npos);
}

TEST_CASE("ranks: a merge keeps every process's CuPy pool, each named by its process", "[ranks]") {
  Report r0 = rank_report(100, 0, "h"), r1 = rank_report(101, 1, "h"), plain = rank_report(102, 2, "h");
  for (Report* r : {&r0, &r1}) {
    r->has_cupy = true;
    r->cupy.device = 0;
    r->cupy.total_bytes = uint64_t(r->process.rank + 1) << 20;
    r->cupy.used_bytes = r->cupy.total_bytes;
  }
  Report m = merge_reports({r0, plain, r1});
  REQUIRE(m.cupy_processes.size() == 2);
  CHECK(m.has_cupy);
  CHECK(m.cupy_processes[0].pid == 100);
  CHECK(m.cupy_processes[1].pid == 101);
  CHECK(m.cupy_processes[1].rank == 1);
  CHECK(m.cupy == m.cupy_processes[0]);
  Report back = from_json(to_json(m));
  CHECK(back.cupy_processes == m.cupy_processes);  // pid and rank written and read back
  std::string text = render_text(m, {});
  CHECK(text.find("CuPy's memory pool at exit on device 0 in train (pid 100, rank 0): 1.0 MiB held") !=
        std::string::npos);
  CHECK(text.find("CuPy's memory pool at exit on device 0 in train (pid 101, rank 1): 2.0 MiB held") !=
        std::string::npos);
  // Merging merged reports keeps them all, once each.
  Report again = merge_reports({m, rank_report(103, 3, "h")});
  CHECK(again.cupy_processes == m.cupy_processes);
  // A single process's report says nothing of a process.
  CHECK(render_text(r0, {}).find("CuPy's memory pool at exit on device 0: 1.0 MiB held") != std::string::npos);
}
