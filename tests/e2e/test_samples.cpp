// Every sample under the simulated GPU, its report checked field by field.
#include <catch2/catch.hpp>

#include "report/model/cuda_frames.h"
#include "tests/e2e/harness.h"

using namespace e2e;
using cudaleak::report::Report;

namespace {

Report single_report(const std::string& dir) {
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  Report r = load(files[0]);
  CHECK(r.format == "cudaleak-report");
  CHECK(r.format_version == cudaleak::report::kFormatVersion);
  CHECK(r.reason == Reason::Exit);
  CHECK(r.symbolized);
  CHECK_FALSE(r.modules.empty());
  return r;
}

}  // namespace

TEST_CASE("exception_leak: the buffer of the failing batch, exit status 3 kept", "[e2e][samples]") {
  auto dir = fresh_dir("exception_leak");
  Result res = run_sim(dir, {sample("exception_leak")});
  CHECK(res.exit_code == 3);
  CHECK(res.out == "error: batch 2: corrupt input\n");
  CHECK(res.err.find("SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource") != std::string::npos);
  Report r = single_report(dir);
  REQUIRE(r.leaks.size() == 1);
  const auto& g = r.leaks[0];
  CHECK(g.kind == Kind::Device);
  CHECK(g.api == "cudaMalloc");
  CHECK(g.bytes == (1u << 20));
  CHECK(g.count == 1);
  CHECK(g.device == 0);
  CHECK(stack_has(g, "process_batch"));  // inlined into main: expanded from DWARF
  CHECK(stack_has(g, "main"));
  bool line_of_malloc = false;
  for (const auto& f : g.stack)
    line_of_malloc |= f.function == "process_batch" && f.file.find("exception_leak.cu") != std::string::npos &&
                      f.line == 10;
  CHECK(line_of_malloc);
  CHECK(r.summary.leaked_bytes == (1u << 20));
  CHECK(r.process.pid > 0);
  CHECK(r.process.argv.at(0) == sample("exception_leak"));
}

TEST_CASE("simulated GPU: its own libraries read as NVIDIA's in a stack, never with their source", "[e2e][samples]") {
  auto dir = fresh_dir("simulated_frames");
  Result res = run_sim(dir, {sample("exception_leak")});
  CHECK(res.exit_code == 3);
  // The summary's first frame is the runtime's entry point, as on a real GPU.
  CHECK(res.err.find("in cudaMalloc (libcudart.so.13)") != std::string::npos);
  CHECK(res.err.find("simcuda/runtime") == std::string::npos);
  CHECK(res.err.find("tests/simcuda") == std::string::npos);
  Report r = single_report(dir);
  REQUIRE(r.leaks.size() == 1);
  const auto& stack = r.leaks[0].stack;
  REQUIRE_FALSE(stack.empty());
  CHECK(stack.front().module.find("/simcuda/libcudart.so.13") != std::string::npos);
  CHECK(stack.front().function == "cudaMalloc");
  for (const auto& f : stack) {
    INFO(f.function << " " << f.file);
    CHECK(f.file.find("tests/simcuda") == std::string::npos);
    if (cudaleak::report::is_simulated_cuda_library(f.module)) CHECK(f.file.empty());
  }
  CHECK(r.leaks[0].site == "device | process_batch @ exception_leak.cu:10 | main @ exception_leak.cu:19");
}

TEST_CASE("library_leak: the stack names the library function", "[e2e][samples]") {
  auto dir = fresh_dir("library_leak");
  Result res = run_sim(dir, {sample("library_leak")});
  CHECK(res.exit_code == 0);
  Report r = single_report(dir);
  const auto* g = find_group(r, "device", "leaky_library_workspace");
  REQUIRE(g);
  CHECK(g->bytes == (4u << 20));
  bool in_library = false;
  for (const auto& f : g->stack)
    in_library |= f.function == "leaky_library_workspace" && f.module.find("libleaky_library.so") != std::string::npos;
  CHECK(in_library);
}

TEST_CASE("pinned_leak: two pinned buffers, the freed one absent", "[e2e][samples]") {
  auto dir = fresh_dir("pinned_leak");
  CHECK(run_sim(dir, {sample("pinned_leak")}).exit_code == 0);
  Report r = single_report(dir);
  REQUIRE(r.leaks.size() == 2);
  CHECK(r.leaks[0].kind == Kind::Pinned);
  CHECK(r.leaks[0].bytes == (2u << 20));
  CHECK(r.leaks[1].bytes == (64u << 10));
  CHECK(r.summary.by_kind.at(Kind::Pinned).count == 2);
  CHECK(r.summary.by_kind.count(Kind::Device) == 0);
}

TEST_CASE("stream_event_leak: half the streams and events", "[e2e][samples]") {
  auto dir = fresh_dir("stream_event_leak");
  CHECK(run_sim(dir, {sample("stream_event_leak")}).exit_code == 0);
  Report r = single_report(dir);
  const auto* streams = find_group(r, "stream");
  const auto* events = find_group(r, "event");
  REQUIRE(streams);
  REQUIRE(events);
  CHECK(streams->count == 2);
  CHECK(streams->api == "cudaStreamCreateWithFlags");
  CHECK(events->count == 2);
  CHECK(events->api == "cudaEventCreateWithFlags");
  CHECK(r.summary.leaked_bytes == 0);
  CHECK(r.summary.leaked_count == 4);
}

TEST_CASE("driver_context_leak: context, memory, teardown and vmm kinds", "[e2e][samples]") {
  auto dir = fresh_dir("driver_context_leak");
  CHECK(run_sim(dir, {sample("driver_context_leak")}).exit_code == 0);
  Report r = single_report(dir);
  int contexts = 0, torn = 0;
  for (const auto& g : r.leaks) {
    if (g.kind == Kind::Context) contexts += int(g.count);
    if (!g.released_by.empty()) {
      ++torn;
      CHECK(g.released_by == "context_destroy");
      CHECK(g.bytes == (256u << 10));
      CHECK(g.api == "cuMemAlloc_v2");
    }
  }
  CHECK(contexts == 1);
  CHECK(torn == 1);
  const auto* kept = find_group(r, "device");
  REQUIRE(kept);
  CHECK(r.summary.by_kind.at(Kind::Device).bytes == (3u << 20) + (256u << 10));
  CHECK(r.summary.by_kind.at(Kind::Vmm).bytes == (4u << 20));
  CHECK(r.summary.by_kind.at(Kind::Vmm).count == 1);
  CHECK(r.summary.by_kind.at(Kind::VaReservation).count == 1);
  CHECK(r.summary.by_kind.at(Kind::Mapping).count == 1);
  CHECK(find_group(r, "vmm", "vmm_buffer"));
}

TEST_CASE("async_pool_leak: stream-ordered buffers and the pool", "[e2e][samples]") {
  auto dir = fresh_dir("async_pool_leak");
  CHECK(run_sim(dir, {sample("async_pool_leak")}).exit_code == 0);
  Report r = single_report(dir);
  CHECK(r.summary.by_kind.at(Kind::Async).count == 2);
  CHECK(r.summary.by_kind.at(Kind::Async).bytes == (512u << 10) + (1u << 20));
  CHECK(r.summary.by_kind.at(Kind::Pool).count == 1);
  CHECK(r.summary.by_kind.count(Kind::Stream) == 0);  // destroyed by the sample
  bool from_pool = false;
  for (const auto& g : r.leaks) from_pool |= g.api == "cudaMallocFromPoolAsync";
  CHECK(from_pool);
}

TEST_CASE("loop_leak: one group of 50 allocations in creation order", "[e2e][samples]") {
  auto dir = fresh_dir("loop_leak");
  CHECK(run_sim(dir, {sample("loop_leak")}).exit_code == 0);
  Report r = single_report(dir);
  REQUIRE(r.leaks.size() == 1);
  CHECK(r.leaks[0].count == 50);
  CHECK(stack_has(r.leaks[0], "step"));
  CHECK(r.leaks[0].bytes == 50u * (16u << 10));
  REQUIRE(r.leaks[0].allocations.size() == 16);  // max_allocations default
  for (size_t i = 1; i < r.leaks[0].allocations.size(); ++i)
    CHECK(r.leaks[0].allocations[i].record.sequence > r.leaks[0].allocations[i - 1].record.sequence);
}

TEST_CASE("clean: nothing leaked", "[e2e][samples]") {
  auto dir = fresh_dir("clean");
  Result res = run_sim(dir, {sample("clean")});
  CHECK(res.exit_code == 0);
  CHECK(res.err.find("no CUDA resources leaked") != std::string::npos);
  Report r = single_report(dir);
  CHECK(r.leaks.empty());
  CHECK(r.summary.leaked_count == 0);
  CHECK(r.notes_total == 0);
}

TEST_CASE("oom_leak: the out-of-memory is blamed on the activations kept from earlier steps", "[e2e][samples]") {
  auto dir = fresh_dir("oom_leak");
  Result res = run_sim(dir, {sample("oom_leak")}, {"--simulated-gpu-memory", "400MiB"});
  CHECK(res.exit_code == 1);  // the program's own status when its allocation fails
  CHECK(res.err.find("step 40: cudaMalloc of 10 MiB failed") != std::string::npos);
  CHECK(res.err.find("1. 400.0 MiB of device memory allocated in forward (oom_leak.cu:11) is still held from earlier: "
                     "40 allocations") != std::string::npos);
  auto files = files_in(dir);
  REQUIRE(files.size() == 2);  // the out-of-memory report and the exit report
  bool diagnosed = false;
  for (const auto& f : files) {
    Report r = load(f);
    for (const auto& e : r.oom_events)
      diagnosed |= !e.diagnosis.empty() && e.diagnosis[0].cause == Cause::AccumulatingLeak;
  }
  CHECK(diagnosed);
}

TEST_CASE("cudaleak changes neither output nor exit status of any sample", "[e2e][samples]") {
  for (std::string name : {"exception_leak", "library_leak", "pinned_leak", "stream_event_leak", "driver_context_leak",
                           "async_pool_leak", "loop_leak", "clean", "oom_leak"}) {
    INFO(name);
    auto dir = fresh_dir("passthrough_" + name);
    Result plain = run({sample(name)}, {"LD_LIBRARY_PATH=" + build_dir() + "/lib/cudaleak/simcuda"});
    Result traced = run_sim(dir, {sample(name)});
    CHECK(plain.exit_code == traced.exit_code);
    CHECK(plain.out == traced.out);
  }
}
