// Memory that is kept without being leaked bytes (issue 50): what live memory
// pools keep reserved, said under the pool and beside the summary's leaked
// bytes, never in them.
#include <catch2/catch.hpp>

#include "tests/e2e/harness.h"

using namespace e2e;
using cudaleak::report::LeakGroup;
using cudaleak::report::Report;

namespace {

using Run = ReportedRun;
const auto run_program = run_with_report;

const LeakGroup& only_pool(const Report& r) {
  const LeakGroup* pool = nullptr;
  for (const LeakGroup& g : r.leaks)
    if (g.kind == Kind::Pool) {
      REQUIRE(!pool);
      pool = &g;
    }
  REQUIRE(pool);
  return *pool;
}

constexpr uint64_t MiB = uint64_t(1) << 20;

}  // namespace

TEST_CASE("pools: a pool with an unlimited release threshold says the 64 MiB it keeps") {
  Run run = run_program("pool_kept", {program("pool_keeps"), "kept"});
  INFO(run.result.err);
  const LeakGroup& g = only_pool(run.report);
  REQUIRE(g.has_pool);
  CHECK(g.pool.reserved == 64 * MiB);
  CHECK(g.pool.used == 0);
  CHECK(g.pool.high_water == 64 * MiB);
  CHECK(g.pool.threshold_set);
  CHECK(g.pool.release_threshold == UINT64_MAX);
  CHECK(g.pool.threshold_api == "cuMemPoolSetAttribute");
  CHECK(run.report.summary.leaked_bytes == 0);  // kept, not leaked
  CHECK(run.report.summary.pool_reserved_bytes == 64 * MiB);
  CHECK(run.report.summary.pool_reserved_count == 1);
  CHECK(run.result.err.find("1 memory pool never destroyed, keeping up to 64.0 MiB reserved (release threshold "
                            "unlimited, set at ") != std::string::npos);
  CHECK(run.result.err.find("(pool_keeps.cpp:") != std::string::npos);  // the line that set it
  CHECK(run.result.err.find("; 0 B in use), created by cuMemPoolCreate") != std::string::npos);
  CHECK(run.result.err.find("0 B leaked in ") != std::string::npos);
  CHECK(run.result.err.find(". Kept reserved by 1 memory pool: 64.0 MiB (not in the leaked bytes).") !=
        std::string::npos);
}

TEST_CASE("pools: a trim lowers what a pool keeps to what it was trimmed to") {
  Run run = run_program("pool_trimmed", {program("pool_keeps"), "trimmed"});
  const LeakGroup& g = only_pool(run.report);
  REQUIRE(g.has_pool);
  CHECK(g.pool.reserved == 16 * MiB);
  CHECK(g.pool.high_water == 16 * MiB);
  CHECK(run.result.err.find("keeping up to 16.0 MiB reserved") != std::string::npos);
}

TEST_CASE("pools: a pool without a threshold keeps what is in use, and its allocation stays a leak") {
  Run run = run_program("pool_in_use", {program("pool_keeps"), "in_use"});
  INFO(run.result.err);
  uint64_t pools = 0, reserved = 0;
  for (const LeakGroup& g : run.report.leaks) {
    if (g.kind != Kind::Pool) continue;
    ++pools;
    REQUIRE(g.has_pool);
    reserved += g.pool.reserved;
    if (!g.pool.threshold_set) CHECK(g.pool.used == 8 * MiB);
  }
  CHECK(pools == 2);
  CHECK(reserved == 72 * MiB);                        // 64 kept by the first, 8 in use in the second
  CHECK(run.report.summary.leaked_bytes == 8 * MiB);  // the allocation, once
  CHECK(run.result.err.find("1 memory pool never destroyed (8.0 MiB in use)") != std::string::npos);
  CHECK(run.result.err.find("8.0 MiB of async memory in 1 allocation never freed") != std::string::npos);
}

TEST_CASE("pools: the JSON keeps format version 2, so readers that predate the pool field still read it") {
  std::string dir = fresh_dir("pool_json");
  Result res = run_sim(dir, {program("pool_keeps"), "kept"});
  REQUIRE(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  std::string text = read_file(files[0]);
  CHECK(text.find("\"format_version\": 2") != std::string::npos);
  CHECK(text.find("\"pool_reserved_bytes\": 67108864") != std::string::npos);
  CHECK(text.find("\"pool\": {") != std::string::npos);
  const LeakGroup& g = only_pool(load(files[0]));
  CHECK(g.pool.reserved == 64 * MiB);
  CHECK(!g.pool.threshold_stack.empty());
}

// What a library makes later on a handle's behalf (HookRole::Use): cuRAND
// allocates a generator's state in curandGenerate*, and it is the generator's.
TEST_CASE("library handles: memory made inside a call on a generator is said under the generator") {
  Run run = run_program("curand_state", {program("curand_state"), "leak"});
  INFO(run.result.err);
  const LeakGroup* generators = nullptr;
  for (const LeakGroup& g : run.report.leaks)
    if (g.kind == Kind::LibraryHandle && g.api == "curandCreateGenerator") generators = &g;
  REQUIRE(generators);
  CHECK(generators->count == 2);
  auto held = generators->holds.find(Kind::Device);
  REQUIRE(held != generators->holds.end());
  CHECK(held->second.bytes == 384 * 1024);
  CHECK(held->second.count == 2);
  for (const LeakGroup& g : run.report.leaks)
    if (g.kind == Kind::Device) CHECK(g.owner == "curandCreateGenerator");  // no leak of its own
  CHECK(run.result.err.find("2 cuRAND generators never destroyed (curandDestroyGenerator), created by "
                            "curandCreateGenerator on device 0, holding 384.0 KiB of device memory") !=
        std::string::npos);
  CHECK(run.result.err.find("never freed, created by curandGenerateUniform") == std::string::npos);
}

// What a library makes for a live handle outside any call cudaleak
// interposes: NCCL's proxy thread and its collectives map a communicator's
// buffers after ncclCommInitRank returned. A rank that dies with its
// communicator alive has one story (the communicator, holding them), not a
// leak per buffer; what ncclMemAlloc handed to the program stays the program's.
TEST_CASE("library handles: memory a library maps later for a live communicator is said under it") {
  auto dir = fresh_dir("nccl_dying_rank");
  Result res = run_sim(dir, {program("nccl_dying_rank"), "dying"}, {"--error-exitcode", "7"});
  INFO(res.err);
  CHECK(res.exit_code == 7);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  struct {
    Result result;
    Report report;
  } run{res, load(files[0])};
  const LeakGroup* comms = nullptr;
  const LeakGroup* handed_out = nullptr;
  for (const LeakGroup& g : run.report.leaks) {
    if (g.kind == Kind::LibraryHandle && g.api == "ncclCommInitRank") comms = &g;
    if (g.kind == Kind::Device && g.owner.empty()) handed_out = &g;
  }
  REQUIRE(comms);
  auto held = comms->holds.find(Kind::Device);
  REQUIRE(held != comms->holds.end());
  CHECK(held->second.bytes == 3 * ((4 << 20) + (1 << 20)));  // 3 proxy buffers, 3 channel buffers
  CHECK(held->second.count == 6);
  REQUIRE(handed_out);
  CHECK(handed_out->bytes == 2 << 20);
  CHECK(handed_out->api == "ncclMemAlloc");
  CHECK(run.report.gate.failing_groups == 2);  // the communicator and the program's buffer
  CHECK(run.result.err.find("1 NCCL communicator never destroyed (ncclCommDestroy), created by ncclCommInitRank "
                            "on device 0, holding 15.0 MiB of device memory") != std::string::npos);
  CHECK(run.result.err.find("proxy_service") == std::string::npos);
  CHECK(run.result.err.find("enqueue_check") == std::string::npos);
}

TEST_CASE("library handles: a destroyed communicator takes what its library mapped with it") {
  Run run = run_program("nccl_clean", {program("nccl_dying_rank"), "clean"});
  INFO(run.result.err);
  CHECK(run.report.summary.leaked_count == 0);
}

TEST_CASE("library handles: a destroyed generator takes the state made on its behalf with it") {
  Run run = run_program("curand_clean", {program("curand_state"), "clean"});
  INFO(run.result.err);
  CHECK(run.report.summary.leaked_count == 0);
}
