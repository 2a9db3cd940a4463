#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "report/render/limit_words.h"
#include "report/render/oom_text.h"
#include "tests/unit/said_causes.h"
#include "report/model/json_io.h"
#include "report/render/text_report.h"
#include "tests/unit/report_frames.h"

using namespace cudaleak::report;
using namespace cudaleak::render;
using cudaleak::test::occurrences;
using cudaleak::test::python_frame;

namespace {
OomEvent base(uint64_t request, uint64_t free, uint64_t total) {
  OomEvent e;
  e.api = "cudaMalloc";
  e.request_bytes = request;
  e.device_info = true;
  e.free_bytes = free;
  e.total_bytes = total;
  e.nvml = "ok";
  return e;
}
constexpr uint64_t GiB = 1ull << 30;
}  // namespace

TEST_CASE("diagnosis ranks the causes by what they explain", "[oom]") {
  OomEvent e = base(2 * GiB, GiB, 80 * GiB);
  e.other_processes = {{4242, "python", 60 * GiB, true}, {77, "", 3 * GiB, true}};
  e.top_sites = {{Kind::Device, "cudaMalloc", "train_step (train.cu:40)", 12 * GiB, 48, 1000000000, 9000000000, {}}};
  e.pools = {{1, true, 5 * GiB, 1 * GiB}};
  e.untracked_bytes = GiB / 2;
  auto d = said_causes(e);
  REQUIRE(d.size() == 3);
  CHECK(d[0].cause == Cause::OtherProcesses);
  CHECK(d[0].message ==
        "2 other processes hold 63.0 GiB of the device: pid 4242 (python) holds 60.0 GiB, pid 77 holds 3.0 GiB; "
        "without them the request would fit");
  CHECK(d[1].cause == Cause::AccumulatingLeak);
  CHECK(d[1].message.find("48 allocations made between 1.00 s and 9.00 s (about 256.0 MiB each)") != std::string::npos);
  CHECK(d[2].cause == Cause::CachedInPools);
  CHECK(d[2].bytes == 4 * GiB);
}

TEST_CASE("decisive causes come first whatever the bytes", "[oom]") {
  OomEvent big = base(100 * GiB, 70 * GiB, 80 * GiB);
  big.untracked_bytes = 9 * GiB;
  auto d = said_causes(big);
  REQUIRE(d.size() >= 1);
  CHECK(d[0].cause == Cause::RequestTooLarge);
  OomEvent frag = base(GiB, 3 * GiB, 80 * GiB);
  frag.top_sites = {{Kind::Device, "cudaMalloc", "load (a.cu:1)", 70 * GiB, 1, 5, 5, {}}};
  auto f = said_causes(frag);
  REQUIRE(f.size() == 2);
  CHECK(f[0].cause == Cause::Fragmentation);
  CHECK(f[1].cause == Cause::HeldByProcess);
}

TEST_CASE("without device numbers or others, only what is known is claimed", "[oom]") {
  OomEvent e;
  e.request_bytes = GiB;
  e.nvml = "libnvidia-ml.so.1 not found";
  CHECK(said_causes(e).empty());
  std::string text = cudaleak::render::render_event(e);
  CHECK(text.find("No single cause stands out") != std::string::npos);
  CHECK(text.find("other processes: unknown (libnvidia-ml.so.1 not found)") != std::string::npos);
}

TEST_CASE("memory a caching allocator holds is named as its cache and never as a leak", "[oom]") {
  // A cudaMalloc failing inside CuPy's pool (no allocator view): the pool's
  // segments were made at one Python line over time.
  OomEvent e = base(256 << 20, 90 << 20, 80 * GiB);
  std::vector<Frame> cupy = {{0x1, "/x/cupy/cuda/memory.cpython-312-x86_64-linux-gnu.so",
                              "__pyx_f_4cupy_4cuda_6memory_10SingleDeviceMemoryPool__malloc", "", 0},
                             {0, "", "make_batch", "/app/train.py", 9, false, true}};
  e.top_sites = {{Kind::Device, "cudaMalloc", "make_batch (train.py:9)", 78 * GiB, 314, 1000000, 270000000, cupy}};
  auto d = said_causes(e);
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::HeldByCache);
  CHECK(d[0].message.find("the CuPy memory pool holds 78.0 GiB of device memory in 314 segments it reserved for "
                          "make_batch (train.py:9)") == 0);
  CHECK(d[0].message.find("free_all_blocks()") != std::string::npos);
  for (const auto& x : d) CHECK(x.cause != Cause::AccumulatingLeak);

  // PyTorch's expandable segments: cuMemCreate from its allocator, without its view.
  std::vector<Frame> torch = {
      {0x2, "/x/libc10_cuda.so", "c10::cuda::CUDACachingAllocator::Native::ExpandableSegment::map(...)", "", 0}};
  e.top_sites = {{Kind::Vmm, "cuMemCreate", "train_step (train.py:14)", 20 * GiB, 1071, 1000000, 500000000, torch}};
  d = said_causes(e);
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::HeldByCache);
  CHECK(d[0].message.find("the PyTorch caching allocator holds 20.0 GiB of vmm memory") == 0);
}

TEST_CASE("numba's arrays are the program's memory at an out-of-memory, not a cache", "[oom]") {
  // numba empties its deallocation queue before it lets an allocation fail:
  // what it still holds then is arrays the program keeps.
  OomEvent e = base(GiB, 654 << 20, 80 * GiB);
  std::vector<Frame> numba = {{0, "", "HostOnlyCUDAMemoryManager._attempt_allocation",
                               "/v/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py", 735, false, true},
                              {0, "", "load_shard", "/app/train.py", 23, false, true}};
  e.top_sites = {
      {Kind::Device, "cuMemAlloc_v2", "load_shard (train.py:23)", 78 * GiB, 78, 1040000000, 1050000000, numba}};
  auto d = said_causes(e);
  REQUIRE(!d.empty());
  CHECK(d[0].cause == Cause::AccumulatingLeak);
  CHECK(d[0].message.find("78.0 GiB of device memory allocated in load_shard (train.py:23) is still held") == 0);
  for (const auto& x : d) CHECK(x.cause != Cause::HeldByCache);
}

TEST_CASE("H100 Python runs: each OOM first cause is found again from the event numbers", "[oom][fixtures]") {
  auto first_causes = [](const std::string& name) {
    std::ifstream in(std::string(CUDALEAK_FIXTURES) + "/h100/python/" + name);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    Report r = from_json(ss.str());
    std::vector<std::string> causes;
    for (const auto& e : r.oom_events) {
      auto d = said_causes(e);
      causes.push_back(d.empty() ? "" : text_of(d[0].cause));
      if (d.empty()) continue;
      // Recorded before other processes got "; without them the request
      // would fit" where that holds: the same message, and the clause after
      // it exactly where the event's numbers say so.
      const std::string& recorded = e.diagnosis.at(0).message;
      const std::string clause = "; without them the request would fit";
      CHECK(d[0].message.rfind(recorded, 0) == 0);
      uint64_t others = 0;
      for (const auto& o : e.other_processes) others += o.bytes_known ? o.bytes : 0;
      const bool would_fit = d[0].cause == Cause::OtherProcesses && e.device_info && e.free_bytes < e.request_bytes &&
                             e.free_bytes + others >= e.request_bytes;
      const bool recorded_with_clause = recorded.ends_with(clause);
      CHECK(d[0].message == recorded + (would_fit && !recorded_with_clause ? clause : ""));
    }
    return causes;
  };
  // CuPy's pool (the last two failed at exit, as CuPy retried).
  CHECK(first_causes("scenario_cupy.665.1.json") ==
        std::vector<std::string>{"held_by_cache", "held_by_cache", "held_by_cache"});
  // Another process held 70% of the device: PyTorch's two cudaMalloc tries and its own event.
  CHECK(first_causes("scenario_other_process.556.1.json") ==
        std::vector<std::string>{"other_processes", "other_processes", "other_processes"});
}

TEST_CASE("a limit the program raised is named with its line where it explains the failure", "[oom][limits]") {
  OomEvent e = base(20 * GiB, 10 * GiB, 80 * GiB);
  Reservation stack;
  stack.limit = "stack_size";
  stack.value = 64 << 10;
  stack.threads = 132 * 2048;
  stack.bytes = stack.value * stack.threads;  // 16.5 GiB, as the H100 reserves it
  stack.device = 0;
  stack.api = "cudaDeviceSetLimit";
  stack.stack = {Frame{0x10, "/bin/app", "enlarge_stack", "/src/app.cu", 10}};
  Reservation small;  // a printf buffer of 1 MiB explains nothing
  small.limit = "printf_fifo_size";
  small.value = small.bytes = 1 << 20;
  e.reservations = {stack, small};
  auto d = said_causes(e);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].cause == Cause::ContextReservation);
  CHECK(d[0].bytes == stack.bytes);
  CHECK(
      d[0].message.find("the thread stack size limit set in enlarge_stack (app.cu:10) reserves 16.5 GiB (64.0 KiB per "
                        "thread for each of the 270336 threads the device can run at once), without it the request "
                        "would fit; fix: ") == 0);
  for (const auto& x : d) CHECK(x.bytes != small.bytes);
  CHECK(cudaleak::render::describe_reservation(stack) ==
        "16.5 GiB for thread stacks (cudaLimitStackSize = 64.0 KiB per thread x 270336 resident threads) on device 0, "
        "set by cudaDeviceSetLimit in enlarge_stack (app.cu:10)");
  // The heap, in the words of the issue.
  Reservation heap;
  heap.limit = "malloc_heap_size";
  heap.value = heap.bytes = 512ull << 20;
  heap.stack = {Frame{0x10, "/bin/app", "enlarge_heap", "/src/app.cu", 10}};
  OomEvent h = base(600ull << 20, 100ull << 20, 80 * GiB);
  h.reservations = {heap};
  auto dh = said_causes(h);
  REQUIRE_FALSE(dh.empty());
  CHECK(dh[0].message.find("the device heap limit set in enlarge_heap (app.cu:10) reserves 512.0 MiB") == 0);
}

TEST_CASE("a call that fails again at a line already told is counted at exit, not told twice", "[oom]") {
  Report r;
  r.reason = Reason::Exit;
  OomEvent first = base(GiB, GiB / 2, 80 * GiB);
  first.api = "cuMemAlloc_v2";
  first.stack = {python_frame("load_shard", "/work/train.py", 23), python_frame("<module>", "/work/train.py", 32)};
  first.diagnosis = said_causes(first);
  OomEvent retry = first;  // the library freed what it could and asked again
  retry.time_ns = first.time_ns + 1000;
  OomEvent elsewhere = first;
  elsewhere.stack[0].line = 40;
  r.oom_events = {first, retry, elsewhere};

  SECTION("the first told when it happened") {
    r.oom_events[0].printed = true;
    std::string text = render_text(r, {});
    CHECK(occurrences(text, "out of memory:") == 1);  // only the other line's failure is told here
    CHECK(text.find("load_shard (train.py:40)") != std::string::npos);
    CHECK(text.find("1 out-of-memory event shown above when it happened") != std::string::npos);
    CHECK(text.find("1 more out-of-memory event of a call already told above, at the same line") != std::string::npos);
  }
  SECTION("read back, none told yet: each line once") {
    std::string text = render_text(r, {});
    CHECK(occurrences(text, "out of memory:") == 2);
    CHECK(text.find("failed in load_shard (train.py:23)") != std::string::npos);
    CHECK(text.find("1 more out-of-memory event of a call already told above") != std::string::npos);
  }
  SECTION("a rank of a job: its repeats counted the same way") {
    for (auto& e : r.oom_events) e.rank = 0;
    r.oom_events[0].printed = true;
    std::string text = render_text(r, {});
    CHECK(occurrences(text, "out of memory on rank 0:") == 1);  // the other line's
    CHECK(text.find("1 more out-of-memory event of a call already told above") != std::string::npos);
  }
  SECTION("merged processes, whose pids may repeat on other hosts: each failure told") {
    r.processes.resize(2);
    r.processes[0].process.pid = 5;
    r.processes[1].process.pid = 5;
    r.oom_events[1].pid = 5;
    std::string text = render_text(r, {});
    CHECK(occurrences(text, "out of memory:") == 3);
    CHECK(text.find("more out-of-memory event") == std::string::npos);
  }
}

TEST_CASE("a retry is told as what the allocator did before it: a cache freed, or numba's deferred frees made",
          "[oom]") {
  OomEvent e = base(GiB, GiB / 2, 80 * GiB);
  e.api = "cuMemAlloc_v2";
  e.stack = {python_frame("load_shard", "/work/train.py", 23)};
  OomAttempt a;
  a.api = "cuMemAlloc_v2";
  a.request_bytes = GiB;
  a.stack = {python_frame("HostOnlyCUDAMemoryManager._attempt_allocation",
                          "/v/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py", 735),
             python_frame("load_shard", "/work/train.py", 23)};
  e.attempts = {a};
  CHECK(cudaleak::render::render_event(e).find(
            "Before it, 1 call (cuMemAlloc_v2 of 1.0 GiB, from 0 ns) failed and was retried after the numba memory "
            "manager made the frees it had deferred (attempts in the report).") != std::string::npos);
  e.attempts[0].stack = {{0x1, "/x/memory.so", "__pyx_f_4cupy_4cuda_6memory_10SingleDeviceMemoryPool__malloc", "", 0}};
  CHECK(cudaleak::render::render_event(e).find("failed and was retried after the allocator freed its cache") !=
        std::string::npos);
}

TEST_CASE("a framework's limit with the device free names no other memory, and autograd's thread is said", "[oom]") {
  // An FSDP rank under a memory fraction (H200, 2026-11-28): PyTorch refused
  // 32 MiB with 135 GiB free; NCCL's buffers, 24 made within 10 ms at start,
  // are held but are no cause, least of all a leak that grows.
  OomEvent e = base(32 << 20, 135 * GiB, 139 * GiB);
  e.device = 1;
  e.has_pytorch = true;
  e.pytorch.allocated = 3 * GiB;
  TensorGroup kept;
  kept.bytes = 3 * GiB, kept.count = 86;
  kept.stack = {{0, "", "train_step", "/app/fsdp.py", 46, false, true}};
  e.pytorch.live_tensors = {kept};
  std::vector<Frame> nccl = {{0x1, "/x/libnccl.so.2", "ncclProxyService(void*)", "", 0}};
  e.top_sites = {{Kind::Vmm, "cuMemCreate", "ncclProxyService", 240 << 20, 24, 9680000000, 9690000000, nccl}};
  const auto d = said_causes(e);
  REQUIRE(d.size() == 2);
  CHECK(d[0].cause == Cause::AllocatorLimit);
  CHECK(d[1].cause == Cause::LiveTensors);
  // The same sites on a full device are still told.
  OomEvent full = e;
  full.free_bytes = 16 << 20;
  bool told = false;
  for (const auto& x : said_causes(full)) told |= x.cause != Cause::AllocatorLimit && x.cause != Cause::LiveTensors;
  CHECK(told);

  // The failing call on autograd's thread: no line of the program, the
  // backward node instead of a template of the allocator's callback.
  e.stack = {
      {0x2, "/x/libtorch_python.so", "std::_Function_handler<void (long), THCPModule_x>::_M_invoke", "", 0},
      {0x3, "/x/libc10_cuda.so", "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc", "", 0},
      {0x4, "/x/libtorch_cpu.so", "torch::autograd::generated::details::pow_backward(at::Tensor)", "", 0},
      {0x4, "/x/libtorch_cpu.so",
       "torch::autograd::generated::PowBackward0_apply_functional(std::vector<at::Tensor>&&)", "", 0},
      {0x4, "/x/libtorch_cpu.so", "torch::autograd::generated::PowBackward0::apply(std::vector<at::Tensor>&&)", "", 0},
      {0x5, "/x/libtorch_cpu.so", "torch::autograd::Engine::thread_main(std::shared_ptr<GraphTask> const&)", "", 0}};
  const std::string text = render_event(e);
  INFO(text);
  CHECK(text.find("PyTorch could not allocate 32.0 MiB on device 1 in the backward pass (PowBackward0 on autograd's "
                  "thread) (free 135.0 GiB") != std::string::npos);
  INFO(text);
  CHECK(text.find("_Function_handler") == std::string::npos);
}
