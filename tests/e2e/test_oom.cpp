// Out-of-memory forensics under the simulated GPU: the three common causes,
// each diagnosed at the failing allocation with the numbers behind it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/e2e/harness.h"

using namespace e2e;

namespace {
cudaleak::report::Report oom_report(const std::string& dir) {
  auto files = files_in(dir);
  REQUIRE(files.size() >= 2);
  auto r = load(files[0]);  // report.<pid>.0.json: written at the failure
  CHECK(r.reason == Reason::Oom);
  REQUIRE(r.oom_events.size() == 1);
  return r;
}
}  // namespace

TEST_CASE("oom: a leak that grows each step until memory runs out is named with its growth", "[e2e][oom]") {
  auto dir = fresh_dir("oom_growing_leak");  // not the sample oom_leak's folder: CTest runs them side by side
  Result res = run_sim(dir, {program("oom_scenarios"), "leak", "32"}, {"--simulated-gpu-memory", "512MiB"});
  CHECK(res.exit_code == 1);
  CHECK(res.out == "step 16 failed: out of memory\n");
  auto e = oom_report(dir).oom_events[0];
  CHECK(e.api == "cudaMalloc");
  CHECK(e.request_bytes == (32u << 20));
  CHECK(e.device_info);
  CHECK(e.free_bytes == 0);
  CHECK(e.total_bytes == (512u << 20));
  CHECK(e.tracked_bytes == (512u << 20));
  CHECK(e.tracked_by_kind.at(Kind::Device) == (512u << 20));
  REQUIRE_FALSE(e.top_sites.empty());
  CHECK(e.top_sites[0].where.find("train_step (oom_scenarios.cu:") == 0);
  CHECK(e.top_sites[0].count == 16);
  CHECK(e.recent_bytes + e.old_bytes == e.tracked_bytes);
  CHECK(e.old_bytes > 0);
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::AccumulatingLeak);
  CHECK(e.diagnosis[0].message.find("512.0 MiB of device memory allocated in train_step") == 0);
  CHECK(e.diagnosis[0].message.find("16 allocations") != std::string::npos);
  CHECK(e.diagnosis[0].message.find("about 32.0 MiB each") != std::string::npos);
  CHECK(res.err.find("Likely causes, most likely first:\n  1. 512.0 MiB of device memory allocated in train_step") !=
        std::string::npos);
  // Peak: the whole leak, and the group to shrink.
  auto exit_report = load(files_in(dir)[1]);
  const auto& peak = exit_report.timeline.devices.at(0).peak;
  CHECK(peak.bytes == (512u << 20));
  REQUIRE_FALSE(peak.groups.empty());
  CHECK(peak.groups[0].where.find("train_step") == 0);
  CHECK(peak.groups[0].count == 16);
}

TEST_CASE("oom: read back merged with other processes, an out-of-memory names its process", "[e2e][oom]") {
  auto dir = fresh_dir("oom_merged");
  run_sim(dir, {program("oom_scenarios"), "leak", "32"}, {"--simulated-gpu-memory", "512MiB"});
  run_sim(dir, {sample("loop_leak")});
  Result merged = run({cudaleak_tool(), "report", dir});
  CHECK(merged.exit_code == 0);
  CHECK(merged.out.find("processes merged): in oom_scenarios (pid ") != std::string::npos);
  CHECK(merged.out.find("): out of memory: cudaMalloc of ") != std::string::npos);
}

TEST_CASE("oom: another process holding the device is named, from NVML", "[e2e][oom]") {
  auto dir = fresh_dir("oom_other");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "512MiB", "-o",
                    dir + "/report.%p.%n.json", "--", program("oom_scenarios"), "single", "300"},
                   {"CUDALEAK_SIM_OTHER_PROCESS=4242:python:400MiB"});
  CHECK(res.exit_code == 1);
  auto e = oom_report(dir).oom_events[0];
  CHECK(e.nvml == "ok");
  REQUIRE(e.other_processes.size() == 1);
  CHECK(e.other_processes[0].pid == 4242);
  CHECK(e.other_processes[0].name == "python");
  CHECK(e.other_processes[0].bytes == (400u << 20));
  CHECK(e.free_bytes == (112u << 20));
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::OtherProcesses);
  CHECK(e.diagnosis[0].message ==
        "another process holds 400.0 MiB of the device: pid 4242 (python) holds 400.0 MiB; without them the request "
        "would fit");
}

TEST_CASE("oom: a request larger than the device says so first", "[e2e][oom]") {
  auto dir = fresh_dir("oom_too_large");
  Result res = run_sim(dir, {program("oom_scenarios"), "single", "1024"}, {"--simulated-gpu-memory", "512MiB"});
  CHECK(res.exit_code == 1);
  auto e = oom_report(dir).oom_events[0];
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::RequestTooLarge);
  CHECK(e.diagnosis[0].message ==
        "the request (1.0 GiB) is larger than the device's total memory (512.0 MiB): it can never succeed on this "
        "device");
}

TEST_CASE("oom: memory cached in pools and free-but-fragmented memory are diagnosed", "[e2e][oom]") {
  // Pools: 300 MiB reserved but unused, the request does not fit in what is free.
  auto dir = fresh_dir("oom_pools");
  Result res = run({cudaleak_tool(), "run", "--simulated-gpu", "--simulated-gpu-memory", "512MiB", "-o",
                    dir + "/report.%p.%n.json", "--", program("oom_scenarios"), "single", "300"},
                   {"CUDALEAK_SIM_OTHER_PROCESS=1:pool-holder:300MiB", "CUDALEAK_SIM_POOL_CACHED=300MiB"});
  auto e = oom_report(dir).oom_events[0];
  bool pools = false;
  for (const auto& d : e.diagnosis) pools |= d.cause == Cause::CachedInPools && d.bytes == (300u << 20);
  CHECK(pools);
  REQUIRE_FALSE(e.pools.empty());
  CHECK(e.pools[0].is_default);
  // Fragmentation: an injected out-of-memory while plenty is free.
  auto frag = fresh_dir("oom_fragmented");
  run({cudaleak_tool(), "run", "--simulated-gpu", "-o", frag + "/report.%p.%n.json", "--", program("oom_scenarios"),
       "single", "64"},
      {"CUDALEAK_SIM_FAIL=cuMemAlloc_v2:1"});
  auto f = oom_report(frag).oom_events[0];
  REQUIRE_FALSE(f.diagnosis.empty());
  CHECK(f.diagnosis[0].cause == Cause::Fragmentation);
}

namespace {
// The line of "// LINE:marker" in a test program's source.
int source_line(const std::string& program_file, const std::string& marker) {
  std::string text = read_file(std::string(CUDALEAK_SOURCE_DIR) + "/tests/e2e/programs/" + program_file);
  size_t at = text.find("// LINE:" + marker);
  REQUIRE(at != std::string::npos);
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("oom: a caching allocator's retries are one failure, told once with its attempts", "[e2e][oom]") {
  auto dir = fresh_dir("oom_retries");
  Result res = run_sim(dir, {program("caching_retry")}, {"--simulated-gpu-memory", "256MiB"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "pool gave up after 16 arrays\n");
  // Printed once, at exit: the pool's last retry is the failure the program saw.
  CHECK(occurrences(res.err, "out of memory: cudaMalloc") == 1);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);  // held while the pool retried: no report of its own
  auto r = load(files[0]);
  REQUIRE(r.oom_events.size() == 1);
  const auto& e = r.oom_events[0];
  CHECK(e.request_bytes == (16u << 20));
  REQUIRE(e.attempts.size() == 2);
  CHECK(e.attempts[0].api == "cudaMalloc");
  CHECK(e.attempts[0].request_bytes == (16u << 20));
  CHECK(e.attempts[0].time_ns <= e.attempts[1].time_ns);
  CHECK(e.attempts[1].time_ns <= e.time_ns);
  CHECK_FALSE(e.recovered);
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::HeldByCache);
  std::string fill = "fill_with_arrays (caching_retry.cpp:" + std::to_string(source_line("caching_retry.cpp", "fill")) +
                     ")";
  CHECK(e.diagnosis[0].message.find("the CuPy memory pool holds 256.0 MiB") == 0);
  CHECK(e.diagnosis[0].message.find(fill) != std::string::npos);
  CHECK(res.err.find("Before it, 2 calls (cudaMalloc of 16.0 MiB") != std::string::npos);
  CHECK(res.err.find("in " + fill) != std::string::npos);  // the user's line in the first line of the story
}

TEST_CASE("oom: memory XLA preallocated is named with JAX's settings when the program's own call fails", "[e2e][oom]") {
  auto dir = fresh_dir("oom_xla");
  Result res = run_sim(dir, {program("caching_retry"), "xla"}, {"--simulated-gpu-memory", "256MiB"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "own buffer: out of memory\n");
  CHECK(occurrences(res.err, "out of memory: cudaMalloc") == 1);
  auto r = load(files_in(dir).at(0));
  REQUIRE(r.oom_events.size() == 1);
  const auto& e = r.oom_events[0];
  CHECK(e.attempts.empty());
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::HeldByCache);
  std::string where = "warm_up_jax (caching_retry.cpp:" +
                      std::to_string(source_line("caching_retry.cpp", "preallocate")) + ")";
  CHECK(e.diagnosis[0].message.find("the XLA BFC allocator holds 192.0 MiB") == 0);
  CHECK(e.diagnosis[0].message.find(where) != std::string::npos);
  CHECK(e.diagnosis[0].message.find("XLA_PYTHON_CLIENT_PREALLOCATE=false") != std::string::npos);
  CHECK(res.err.find("in own_buffer (caching_retry.cpp:" + std::to_string(source_line("caching_retry.cpp", "own")) +
                     ")") != std::string::npos);
}

TEST_CASE("oom: a failed call whose retry succeeds is kept as recovered and never told as a failure", "[e2e][oom]") {
  auto dir = fresh_dir("oom_recovered");
  Result res = run_sim(dir, {program("caching_retry"), "recover"}, {"--simulated-gpu-memory", "256MiB"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "big array: allocated\n");
  CHECK(occurrences(res.err, "out of memory:") == 0);
  CHECK(res.err.find("1 allocation failed with out-of-memory and succeeded when the allocator retried after releasing "
                     "memory it held") != std::string::npos);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);  // no out-of-memory report: nothing failed for the program
  auto r = load(files[0]);
  REQUIRE(r.oom_events.size() == 1);
  CHECK(r.oom_events[0].recovered);
  CHECK(r.oom_events[0].request_bytes == (32u << 20));
}

TEST_CASE("oom: a per-thread stack size that reserves the device is named as the cause, with its line",
          "[e2e][oom][limits]") {
  // 8 KiB for each of the simulated device's 8192 resident threads: 64 MiB
  // of 512 MiB reserved, and a 480 MiB request no longer fits.
  auto dir = fresh_dir("oom_stack_limit");
  Result res = run_sim(dir, {program("oom_scenarios"), "stack", "8", "480"}, {"--simulated-gpu-memory", "512MiB"});
  CHECK(res.exit_code == 1);
  CHECK(res.out == "stack limit: no error\nallocation: out of memory\n");
  auto e = oom_report(dir).oom_events[0];
  CHECK(e.free_bytes == (448u << 20));
  CHECK(e.untracked_bytes == 0);  // the reservation accounts for the used memory
  REQUIRE(e.reservations.size() == 1);
  CHECK(e.reservations[0].limit == "stack_size");
  CHECK(e.reservations[0].value == 8192);
  CHECK(e.reservations[0].threads == 8192);
  CHECK(e.reservations[0].bytes == (64u << 20));
  CHECK(e.reservations[0].api == "cudaDeviceSetLimit");
  REQUIRE_FALSE(e.diagnosis.empty());
  CHECK(e.diagnosis[0].cause == Cause::ContextReservation);
  CHECK(e.diagnosis[0].bytes == (64u << 20));
  CHECK(e.diagnosis[0].message.find("the thread stack size limit set in enlarge_stack (oom_scenarios.cu:") == 0);
  CHECK(e.diagnosis[0].message.find("reserves 64.0 MiB (8.0 KiB per thread for each of the 8192 threads the device can "
                                    "run at once), without it the request would fit; fix: ") != std::string::npos);
  CHECK(res.err.find("  1. the thread stack size limit set in enlarge_stack") != std::string::npos);
}

TEST_CASE("limits: a device heap the program sets is reported as reserved by the context, not as a leak",
          "[e2e][limits]") {
  auto dir = fresh_dir("limit_heap");
  Result res = run_sim(dir, {program("oom_scenarios"), "heap", "256"}, {"--simulated-gpu-memory", "512MiB"});
  CHECK(res.exit_code == 0);
  CHECK(res.out == "heap limit: no error, 256 MiB\n");
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  auto r = load(files[0]);
  CHECK(r.summary.leaked_count == 0);
  REQUIRE(r.reservations.size() == 1);  // the second setting replaced the first
  const auto& v = r.reservations[0];
  CHECK(v.limit == "malloc_heap_size");
  CHECK(v.value == (256u << 20));
  CHECK(v.bytes == (256u << 20));
  CHECK(v.device == 0);
  CHECK(v.api == "cudaDeviceSetLimit");
  bool named = false;
  for (const auto& f : v.stack) named |= f.function.find("enlarge_heap") != std::string::npos;
  CHECK(named);
  CHECK(res.err.find("Reserved by the context (not leaks: held while the context lives, set by the program):\n"
                     "  256.0 MiB for the device heap (cudaLimitMallocHeapSize = 256.0 MiB) on device 0, set by "
                     "cudaDeviceSetLimit in enlarge_heap (oom_scenarios.cu:") != std::string::npos);
  // Both settings are moments on the timeline.
  std::vector<std::string> marks;
  for (const auto& m : r.timeline.marks)
    if (m.type == MarkType::Limit) marks.push_back(m.name);
  REQUIRE(marks.size() == 2);
  CHECK(marks[0] == "cudaLimitMallocHeapSize = 128.0 MiB: 128.0 MiB reserved");
  CHECK(marks[1] == "cudaLimitMallocHeapSize = 256.0 MiB: 256.0 MiB reserved");
}
