// One story per out-of-memory failure, and live tensors named by the
// allocations that reserved their memory.
#include <catch2/catch.hpp>

#include "report/gate/caching.h"
#include "report/model/frame_owner.h"
#include "report/oom/diagnose.h"
#include "report/oom/oom_story.h"
#include "report/oom/tensor_owners.h"
#include "report/render/tensor_words.h"
#include "tests/unit/report_frames.h"
#include "tests/unit/said_causes.h"

using namespace cudaleak::report;
using cudaleak::Kind;
using cudaleak::test::native_frame;
using cudaleak::test::python_frame;

namespace {
constexpr uint64_t MiB = 1ull << 20;
constexpr uint64_t GiB = 1ull << 30;

// A view whose live tensors carry no stack: PyTorch recorded none.
AllocatorDevice unrecorded_view() {
  AllocatorDevice d;
  d.allocated = 30 * MiB;
  TensorGroup g;
  g.bytes = 30 * MiB;
  g.count = 3;
  g.pinning_segments = 1;
  d.live_tensors = {g};
  // Two segments of 20 MiB: two live blocks of 10 MiB in the first, one and
  // a free block in the second.
  d.segment_list = {{0x1000000, 20 * MiB, {{10 * MiB, 1}, {10 * MiB, 1}}},
                    {0x9000000, 20 * MiB, {{10 * MiB, 1}, {10 * MiB, 0}}}};
  return d;
}
}  // namespace

TEST_CASE("live blocks are grouped by the tracked allocation whose range holds them", "[oom][tensors]") {
  std::vector<MemoryRange> ranges = {{0x1000000, 20 * MiB, 7}, {0x9000000, 20 * MiB, 9}};
  auto owned = blocks_by_owner(unrecorded_view(), ranges);
  REQUIRE(owned.size() == 2);
  CHECK(owned[0].stack_id == 7);
  CHECK(owned[0].bytes == 20 * MiB);
  CHECK(owned[0].count == 2);
  CHECK(owned[0].pinning == 0);
  CHECK(owned[1].stack_id == 9);
  CHECK(owned[1].count == 1);
  CHECK(owned[1].pinning == 1);  // its segment also has free space
  // A block no range holds has no owner; a block PyTorch recorded is left alone.
  AllocatorDevice d = unrecorded_view();
  d.segment_list[1].blocks[0].second = 1 | 4;
  auto partly = blocks_by_owner(d, {{0x1000000, 10 * MiB, 7}});
  REQUIRE(partly.size() == 2);
  CHECK(partly[0].stack_id == 0);  // the second block of the first segment is past the range
  CHECK(partly[0].count == 1);
  CHECK(partly[1].stack_id == 7);
  CHECK(partly[1].count == 1);
}

TEST_CASE("tensors without stacks take the user's line of the segment that holds them", "[oom][tensors]") {
  AllocatorDevice d = unrecorded_view();
  std::vector<MemoryRange> ranges = {{0x1000000, 20 * MiB, 7}, {0x9000000, 20 * MiB, 9}};
  auto stack_of = [](uint32_t id) {
    // Both segments were reserved from train_step, through different paths
    // inside the allocator: one group.
    return std::vector<Frame>{native_frame(id == 7 ? "c10::cuda::CUDACachingAllocator::malloc" : "c10::cuda::retry",
                                           "libc10_cuda.so"),
                              python_frame("empty", "/usr/lib/python3/dist-packages/torch/cuda/memory.py", 3),
                              python_frame("train_step", "/src/train.py", 11),
                              python_frame("<module>", "/src/train.py", 20)};
  };
  attribute_by_segment(d, blocks_by_owner(d, ranges), stack_of);
  REQUIRE(d.live_tensors.size() == 1);
  const TensorGroup& g = d.live_tensors[0];
  CHECK(g.by_segment);
  CHECK(g.bytes == 30 * MiB);
  CHECK(g.count == 3);
  CHECK(g.pinning_segments == 1);
  CHECK(cudaleak::render::tensor_origin(g) == "in segments reserved by train_step (train.py:11)");
  // A program-level script: its frame is the module itself.
  TensorGroup top;
  top.by_segment = true;
  top.stack = {python_frame("<module>", "/src/run.py", 4)};
  CHECK(cudaleak::render::tensor_origin(top) == "in segments reserved by <module> (run.py:4)");
}

TEST_CASE("a segment PyTorch reserved for itself or on autograd's thread is said as such, not as the program's line",
          "[oom][tensors]") {
  using cudaleak::render::tensor_group_text;
  TensorGroup workspace;  // at::cuda::getCurrentCUDABlasHandle's workspace, first needed by a forward pass
  workspace.by_segment = true;
  workspace.bytes = 32 * MiB;
  workspace.count = 1;
  workspace.stack = {native_frame("cudaMalloc", "libcudart.so.13"),
                     native_frame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::alloc_block",
                                  "libc10_cuda.so"),
                     native_frame("at::cuda::setWorkspaceForHandle(cublasContext*, c10::cuda::CUDAStream)",
                                  "libtorch_cuda.so"),
                     native_frame("at::cuda::getCurrentCUDABlasHandle()", "libtorch_cuda.so"),
                     python_frame("forward", "/usr/lib/python3/dist-packages/torch/nn/modules/linear.py", 134),
                     python_frame("<module>", "/src/train.py", 22)};
  CHECK(tensor_group_text(workspace) ==
        "32.0 MiB in PyTorch's cuBLAS workspace (one per handle and stream, kept while they live; "
        "CUBLAS_WORKSPACE_CONFIG "
        "sets its size), first needed by <module> (train.py:22)");
  // The backward pass: the same workspace on autograd's thread, where no line is.
  TensorGroup backward = workspace;
  backward.stack = {
      workspace.stack[0], workspace.stack[1], native_frame("at::cuda::getCUDABlasLtWorkspace()", "libtorch_cuda.so"),
      native_frame("torch::autograd::Engine::thread_main(std::shared_ptr<torch::autograd::GraphTask> const&)",
                   "libtorch_cpu.so")};
  CHECK(tensor_group_text(backward) ==
        "32.0 MiB in PyTorch's cuBLAS workspace (one per handle and stream, kept while they live; "
        "CUBLAS_WORKSPACE_CONFIG "
        "sets its size), first needed by the backward pass");
  TensorGroup nowhere = backward;  // neither a line nor autograd's thread: said without an origin
  nowhere.stack.pop_back();
  CHECK(tensor_group_text(nowhere) ==
        "32.0 MiB in PyTorch's cuBLAS workspace (one per handle and stream, kept while they live; "
        "CUBLAS_WORKSPACE_CONFIG "
        "sets its size)");
  TensorGroup grads = backward;  // a gradient made on autograd's thread
  grads.count = 2;
  grads.stack = {workspace.stack[0], workspace.stack[1],
                 native_frame("at::native::empty_strided_cuda", "libtorch_cuda.so"), backward.stack[3]};
  CHECK(tensor_group_text(grads) ==
        "32.0 MiB in 2 tensors in segments reserved by the backward pass (on autograd's own "
        "thread, which has no line of the program)");
  // The program's own line stays the answer, on autograd's thread or not.
  grads.stack.push_back(python_frame("train_step", "/src/train.py", 9));
  CHECK(tensor_group_text(grads) == "32.0 MiB in 2 tensors in segments reserved by train_step (train.py:9)");
}

TEST_CASE("what PyTorch has allocated is said apart: live tensors, and its cuBLAS workspaces", "[oom][tensors]") {
  using cudaleak::render::held_by_live_tensors;
  TensorGroup workspace;
  workspace.by_segment = true;
  workspace.bytes = 32 * MiB;
  workspace.count = 1;
  workspace.stack = {
      native_frame("at::cuda::setWorkspaceForHandle(cublasContext*, c10::cuda::CUDAStream)", "libtorch_cuda.so")};
  TensorGroup lt = workspace;
  lt.stack = {native_frame("at::cuda::getCUDABlasLtWorkspace()", "libtorch_cuda.so")};
  TensorGroup tensors;
  tensors.bytes = 45 * MiB;
  tensors.count = 3;
  tensors.stack = {python_frame("train_step", "/src/train.py", 9)};
  CHECK(cudaleak::oom::cublas_workspace_bytes({workspace, lt, tensors}) == 64 * MiB);
  CHECK(held_by_live_tensors(109 * MiB, {tensors, workspace, lt}) ==
        "45.0 MiB held by live tensors and 64.0 MiB by PyTorch's cuBLAS workspaces");
  CHECK(held_by_live_tensors(45 * MiB, {tensors}) == "45.0 MiB held by live tensors");
  // A workspace with a stack of its own (PyTorch recorded one) is no segment's: counted as a tensor group.
  TensorGroup recorded = workspace;
  recorded.by_segment = false;
  CHECK(held_by_live_tensors(77 * MiB, {tensors, recorded}) == "77.0 MiB held by live tensors");
}

TEST_CASE("tensors with their own stacks keep them and what no range holds stays unnamed", "[oom][tensors]") {
  AllocatorDevice recorded = unrecorded_view();
  recorded.live_tensors[0].stack = {python_frame("train_step", "/src/train.py", 12)};
  AllocatorDevice before = recorded;
  attribute_by_segment(recorded, blocks_by_owner(recorded, {{0x1000000, 20 * MiB, 7}}),
                       [](uint32_t) { return std::vector<Frame>{python_frame("x", "/src/x.py", 1)}; });
  CHECK(recorded == before);
  CHECK(cudaleak::render::tensor_origin(recorded.live_tensors[0]) == "from train_step (train.py:12)");

  AllocatorDevice d = unrecorded_view();
  attribute_by_segment(d, blocks_by_owner(d, {{0x1000000, 20 * MiB, 7}}),
                       [](uint32_t) { return std::vector<Frame>{python_frame("load", "/src/data.py", 5)}; });
  REQUIRE(d.live_tensors.size() == 2);
  CHECK(d.live_tensors[0].bytes == 20 * MiB);
  CHECK(cudaleak::render::tensor_origin(d.live_tensors[0]) == "in segments reserved by load (data.py:5)");
  CHECK(d.live_tensors[1].bytes == 10 * MiB);
  CHECK(d.live_tensors[1].stack.empty());
  CHECK(cudaleak::render::tensor_origin(d.live_tensors[1]).find("lines PyTorch did not record") != std::string::npos);
}

TEST_CASE(
    "failed calls of PyTorch's allocator are attempts of its out-of-memory and a retry of the same size ends the one "
    "before",
    "[oom][story]") {
  using cudaleak::oom::is_attempt;
  OomEvent failed;
  failed.api = "cudaMalloc";
  failed.device = 0;
  failed.request_bytes = 40 * GiB;
  failed.time_ns = 1'000'000'000;
  OomEvent pytorch = failed;
  pytorch.has_pytorch = true;
  pytorch.time_ns = 1'500'000'000;
  CHECK(is_attempt(failed, "PyTorch caching allocator", pytorch, ""));
  CHECK(is_attempt(failed, "", pytorch, ""));
  CHECK_FALSE(is_attempt(failed, "CuPy memory pool", pytorch, ""));  // CuPy's failure is not PyTorch's
  OomEvent other_device = pytorch;
  other_device.device = 1;
  CHECK_FALSE(is_attempt(failed, "", other_device, ""));
  OomEvent much_later = pytorch;
  much_later.time_ns = failed.time_ns + cudaleak::oom::kRetryWindowNs + 1;
  CHECK_FALSE(is_attempt(failed, "", much_later, ""));
  // XLA raises after its BFC allocator waited 10 s for frees, retrying its
  // pool's growth: its failed calls of 10.7 s before are its attempts.
  OomEvent xla = failed;
  xla.has_jax = true;
  xla.time_ns = failed.time_ns + 10'700'000'000;
  CHECK(is_attempt(failed, "XLA BFC allocator", xla, ""));
  CHECK(is_attempt(failed, "", xla, ""));
  xla.time_ns = failed.time_ns + cudaleak::oom::kRetryWindowNs + cudaleak::oom::kXlaWaitNs + 1;
  CHECK_FALSE(is_attempt(failed, "", xla, ""));

  OomEvent retry = failed;
  retry.time_ns = 1'200'000'000;
  CHECK(is_attempt(failed, "CuPy memory pool", retry, "CuPy memory pool"));
  CHECK_FALSE(is_attempt(failed, "", retry, ""));  // no allocator: each failure reached the program
  retry.request_bytes = GiB;
  CHECK_FALSE(is_attempt(failed, "CuPy memory pool", retry, "CuPy memory pool"));
}

TEST_CASE("a version 1 report's PyTorch failure takes the failed calls before it as its attempts", "[oom][story]") {
  OomEvent first, second, pytorch, later;
  first.api = second.api = "cudaMalloc";
  first.time_ns = 100;
  second.time_ns = 200;
  first.request_bytes = second.request_bytes = 4 * GiB;
  pytorch.has_pytorch = true;
  pytorch.api = "PyTorch caching allocator";
  pytorch.time_ns = 300;
  later.api = "cudaMalloc";
  later.time_ns = 400;
  std::vector<OomEvent> events = {first, second, pytorch, later};
  cudaleak::oom::fold_attempts(events);
  REQUIRE(events.size() == 2);
  CHECK(events[0].has_pytorch);
  REQUIRE(events[0].attempts.size() == 2);
  CHECK(events[0].attempts[0].time_ns == 100);
  CHECK(events[0].attempts[1].time_ns == 200);
  CHECK(events[0].attempts[1].request_bytes == 4 * GiB);
  CHECK(events[1].time_ns == 400);
}

TEST_CASE("another allocator's reservation is named beside PyTorch's own view, with its settings", "[oom][story]") {
  OomEvent e;
  e.has_pytorch = true;
  e.api = "PyTorch caching allocator";
  e.request_bytes = 31 * GiB;
  e.device_info = true;
  e.free_bytes = GiB;
  e.total_bytes = 80 * GiB;
  e.nvml = "ok";
  OomSite xla;
  xla.kind = Kind::Vmm;
  xla.api = "cuMemCreate";
  xla.where = "warm_up_jax (script.py:4)";
  xla.bytes = 59 * GiB;
  xla.count = 1;
  xla.stack = {native_frame("stream_executor::gpu::GpuDriver::VmmAllocate", "libjax.so"),
               python_frame("warm_up_jax", "/s/script.py", 4)};
  OomSite torch_segments = xla;
  torch_segments.kind = Kind::Device;
  torch_segments.where = "step (script.py:9)";
  torch_segments.bytes = 10 * GiB;
  torch_segments.stack = {native_frame("c10::cuda::CUDACachingAllocator::Native::malloc", "libc10_cuda.so")};
  e.top_sites = {xla, torch_segments};
  auto d = said_causes(e);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].cause == Cause::HeldByCache);
  CHECK(d[0].message.find("the XLA BFC allocator holds 59.0 GiB of vmm memory in 1 segment it reserved for warm_up_jax "
                          "(script.py:4)") == 0);
  CHECK(d[0].message.find("XLA_PYTHON_CLIENT_MEM_FRACTION") != std::string::npos);
  for (const auto& x : d)
    CHECK(x.message.find("PyTorch caching allocator holds") == std::string::npos);  // its view explains it
}

TEST_CASE("Triton's kernels are a cache and Inductor's generated code is not the user's line", "[oom][story]") {
  std::vector<Frame> load = {
      native_frame("cuModuleLoad", "libcuda.so.1"),
      python_frame("StaticallyLaunchedTritonKernel.load_kernel",
                   "/v/lib/python3.12/site-packages/torch/_inductor/runtime/static_triton_launcher.py", 144),
      python_frame("step", "/src/train.py", 15)};
  CHECK(cudaleak::gate::caching_allocator_of(load) == "Triton kernel cache");
  std::vector<Frame> segment = {python_frame("Runner.call", "/tmp/torchinductor_root/cp/cpexli.py", 102),
                                python_frame("step", "/src/train.py", 15)};
  const Frame* f = cudaleak::report::user_frame(segment);
  REQUIRE(f);
  CHECK(f->function == "step");
}

TEST_CASE("a few MiB stuck in the cache beside a full device is not called fragmentation", "[oom][story]") {
  OomEvent e;
  e.has_pytorch = true;
  e.request_bytes = 128 * MiB;
  e.device_info = true;
  e.free_bytes = 124 * MiB;
  e.total_bytes = 80 * GiB;
  e.nvml = "ok";
  e.pytorch.reserved = e.pytorch.allocated = 78 * GiB;
  e.pytorch.free = e.pytorch.free_in_pinned_segments = 6 * MiB;
  e.pytorch.largest_free_block = 2 * MiB;
  e.pytorch.pinned_segments = 4;
  TensorGroup kept;
  kept.bytes = 78 * GiB;
  kept.count = 622;
  kept.by_segment = true;
  kept.stack = {python_frame("step", "/src/graph.py", 21)};
  e.pytorch.live_tensors = {kept};
  auto d = said_causes(e);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].cause == Cause::LiveTensors);
  for (const auto& x : d) CHECK(x.cause != Cause::Fragmentation);
  // A real share of the reservation stuck in segments, with no line whose
  // growth would have used it up, is.
  e.pytorch.allocated = 60 * GiB;
  e.pytorch.free = e.pytorch.free_in_pinned_segments = 18 * GiB;
  TensorGroup weights = kept, activations = kept;
  weights.bytes = 40 * GiB, weights.count = 1;
  weights.stack = {python_frame("load_weights", "/src/model.py", 5)};
  activations.bytes = 20 * GiB, activations.count = 2;
  e.pytorch.live_tensors = {weights, activations};
  CHECK(said_causes(e)[0].cause == Cause::Fragmentation);
}

TEST_CASE("a line whose tensors grew until the device was full comes before the fragmentation it left",
          "[oom][story]") {
  // An inference server keeping each request's KV cache: 76.2 GiB live of
  // 78.4 GiB reserved, 2.1 GiB free in segments (2.7%), the next request
  // fits in no free piece. expandable_segments would fail a few requests later.
  OomEvent e;
  e.has_pytorch = true;
  e.request_bytes = 1 * GiB;
  e.device_info = true;
  e.free_bytes = 300 * MiB;
  e.total_bytes = 80 * GiB;
  e.nvml = "ok";
  e.pytorch.reserved = 78 * GiB + 410 * MiB;
  e.pytorch.allocated = 76 * GiB + 205 * MiB;
  e.pytorch.free = e.pytorch.free_in_pinned_segments = 2 * GiB + 100 * MiB;
  e.pytorch.largest_free_block = 512 * MiB;
  e.pytorch.pinned_segments = 150;
  TensorGroup cache;
  cache.bytes = e.pytorch.allocated;
  cache.count = 76;
  cache.stack = {python_frame("update", "/usr/lib/python3/dist-packages/transformers/cache_utils.py", 147),
                 python_frame("serve_request", "/srv/app/server.py", 31)};
  e.pytorch.live_tensors = {cache};
  auto d = said_causes(e);
  REQUIRE(d.size() == 2);
  CHECK(d[0].cause == Cause::LiveTensors);
  CHECK(d[1].cause == Cause::Fragmentation);
  CHECK(d[1].message.find("(2.7% of the reservation); it is not why memory ran out: at about 1.0 GiB a tensor, "
                          "that space holds 2 more of the tensors") != std::string::npos);
  CHECK(d[1].message.find("(76 so far); expandable_segments would only delay the failure") != std::string::npos);
  CHECK(d[1].message.find("Fix: PYTORCH_CUDA_ALLOC_CONF") == std::string::npos);
  // With the pace of PyTorch's reservations known, the time it would have bought.
  OomSite segments{Kind::Device,
                   "cudaMalloc",
                   "serve_request (server.py:31)",
                   e.pytorch.reserved,
                   150,
                   1'000'000'000,
                   79'400'000'000,
                   {python_frame("malloc", "/x/torch/cuda/memory.py", 1)}};
  segments.stack.front().function = "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc";
  segments.stack.front().python = false;
  e.top_sites = {segments};
  d = said_causes(e);
  REQUIRE(d.size() == 2);
  CHECK(d[1].message.find(" of its growth; expandable_segments would only delay") != std::string::npos);
  // A two-rank FSDP job: 594.5 MiB free of 138.0 GiB reserved (0.4%) is no
  // first cause even where no single line dominates.
  e.top_sites.clear();
  e.pytorch.reserved = 138 * GiB;
  e.pytorch.allocated = 138 * GiB - 595 * MiB;
  e.pytorch.free = e.pytorch.free_in_pinned_segments = 595 * MiB;
  e.request_bytes = 600 * MiB;
  e.free_bytes = 10 * MiB;
  cache.count = 2;
  e.pytorch.live_tensors = {cache};
  d = said_causes(e);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].cause != Cause::Fragmentation);
  CHECK(d.back().cause == Cause::Fragmentation);
  CHECK(d.back().message.find("(0.4% of the reservation); it is not why memory ran out") != std::string::npos);
}

TEST_CASE("live-tensor groups of one line, told apart only by deeper frames, are told as one", "[oom][story]") {
  OomEvent e;
  e.has_pytorch = true;
  e.request_bytes = 768 * MiB;
  e.device_info = true;
  e.free_bytes = 100 * MiB;
  e.total_bytes = 80 * GiB;
  e.nvml = "ok";
  e.pytorch.reserved = e.pytorch.allocated = 12 * GiB;
  TensorGroup a, b;
  a.bytes = b.bytes = 6 * GiB;
  a.count = b.count = 34;
  a.stack = {python_frame("serve_request", "/srv/app/server.py", 16),
             python_frame("<module>", "/srv/app/server.py", 40)};
  b.stack = {python_frame("serve_request", "/srv/app/server.py", 16), python_frame("main", "/srv/app/server.py", 44)};
  e.pytorch.live_tensors = {a, b};
  auto d = said_causes(e);
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].cause == Cause::LiveTensors);
  CHECK(d[0].message.find("12.0 GiB in 68 tensors from serve_request (server.py:16)") != std::string::npos);
  CHECK(cudaleak::test::occurrences(d[0].message, "serve_request") == 1);
}
