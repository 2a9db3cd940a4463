#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "report/model/summary.h"
#include "report/capture/crash_report.h"
#include "report/model/json_io.h"
#include "report/gate/caching.h"
#include "report/model/cuda_frames.h"
#include "report/model/function_names.h"
#include "tests/unit/report_frames.h"
#include "report/gate/site.h"
#include "common/frame_tags.h"
#include "report/render/text_report.h"
#include "report/model/builder.h"
#include "report/render/text_report.h"
#include "report/model/library_handles.h"
#include "interpose/driver/hook_table.h"

using cudaleak::test::python_frame;
using namespace cudaleak;
using namespace cudaleak::report;

namespace {

// Synthetic symbols: each ip names a function in a module.
class FakeResolver : public FrameResolver {
 public:
  std::map<uint64_t, std::pair<std::string, std::string>> names;
  std::map<uint64_t, std::string> inlined_into;  // ip -> function it was inlined into
  std::vector<Frame> resolve(uint64_t ip, bool) override {
    Frame f;
    if (auto it = names.find(ip); it != names.end()) {
      f.function = it->second.first;
      f.module = it->second.second;
    }
    if (auto it = inlined_into.find(ip); it != inlined_into.end()) {
      Frame outer = f;
      outer.function = it->second;
      f.inlined = true;
      return {f, outer};
    }
    return {f};
  }
};

struct Fixture {
  std::map<uint32_t, std::vector<uint64_t>> stacks;
  FakeResolver resolver;
  StackLookup lookup = [this](uint32_t id) -> std::span<const uint64_t> { return stacks[id]; };
};

// Names for the records below live here: a record carries indices.
RawSnapshot names;

Record resource(Kind kind, uint32_t stack, uint64_t bytes, uint64_t seq, const char* hook = "cuMemAlloc_v2") {
  Record r;
  r.kind = kind;
  r.stack_id = stack;
  r.bytes = bytes;
  r.sequence = seq;
  r.handle = 0x7000 + seq;
  r.device = 0;
  r.api = names.intern(hook);
  return r;
}

// build_report over `snap` with the names its records index.
Report build_named(RawSnapshot snap, const StackLookup& stacks, FrameResolver* resolver, const BuildOptions& options) {
  snap.names = names.names;
  return build_report(snap, stacks, resolver, options);
}

}  // namespace

TEST_CASE("resources group by kind and stack, biggest first, with totals", "[report]") {
  Fixture fx;
  fx.stacks[1] = {0x10, 0x20};
  fx.stacks[2] = {0x30};
  RawSnapshot snap;
  for (int i = 0; i < 3; ++i) snap.resources.push_back(resource(Kind::Device, 1, 100, 10 + i));
  snap.resources.push_back(resource(Kind::Device, 2, 1000, 5));
  snap.resources.push_back(resource(Kind::Stream, 2, 0, 6, "cuStreamCreate"));
  Report r = build_named(snap, fx.lookup, &fx.resolver, BuildOptions{2});
  REQUIRE(r.leaks.size() == 3);
  CHECK(r.leaks[0].bytes == 1000);
  CHECK(r.leaks[1].bytes == 300);
  CHECK(r.leaks[1].count == 3);
  CHECK(r.leaks[1].allocations.size() == 2);  // capped
  CHECK(r.leaks[1].allocations[0].record.sequence == 10);
  CHECK(r.leaks[2].kind == Kind::Stream);
  CHECK(r.summary.leaked_bytes == 1300);
  CHECK(r.summary.leaked_count == 5);
  CHECK(r.summary.by_kind[Kind::Device].count == 4);
  CHECK(r.summary.by_kind[Kind::Stream].count == 1);
}

TEST_CASE("address-space kinds are listed but not added to leaked bytes", "[report]") {
  Fixture fx;
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Vmm, 0, 4096, 1, "cuMemCreate"));
  snap.resources.push_back(resource(Kind::VaReservation, 0, 4096, 2, "cuMemAddressReserve"));
  snap.resources.push_back(resource(Kind::Mapping, 0, 4096, 3, "cuMemMap"));
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  CHECK(r.summary.leaked_bytes == 4096);
  CHECK(r.summary.by_kind[Kind::Mapping].bytes == 4096);
}

TEST_CASE("the api is the outermost CUDA API frame before the program's own code", "[report]") {
  std::vector<Frame> stack = {{1, "/usr/lib/libcudart.so.13", "cudart::internal(int)", "", 0},
                              {2, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
                              {3, "/app/prog", "load_model(int)", "", 0},
                              {4, "/app/prog", "cudaHelperNamedLikeAnApi", "", 0}};
  CHECK(outermost_api(stack, "cuMemAlloc_v2") == "cudaMalloc");
  std::vector<Frame> cublas = {{1, "/x/libcublas.so.13", "", "", 0},
                               {2, "/x/libcublas.so.13", "cublasCreate_v2", "", 0},
                               {3, "/app/prog", "main", "", 0}};
  CHECK(outermost_api(cublas, "cuMemAlloc_v2") == "cublasCreate_v2");
  std::vector<Frame> driver = {{1, "/app/prog", "main", "", 0}};
  CHECK(outermost_api(driver, "cuMemAlloc_v2") == "cuMemAlloc_v2");
  CHECK(outermost_api({}, "cuStreamCreate") == "cuStreamCreate");
  std::vector<Frame> templated = {{1, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
                                  {2, "/app/prog", "cudaMalloc<float>(float**, unsigned long)", "", 0},
                                  {3, "/app/prog", "step", "", 0}};
  CHECK(outermost_api(templated, "cuMemAlloc_v2") == "cudaMalloc");
  std::vector<Frame> nccl = {{1, "/x/libnccl.so.2", "ncclCommInitRank", "", 0}, {2, "/app/prog", "main", "", 0}};
  CHECK(outermost_api(nccl, "cuMemCreate") == "ncclCommInitRank");
  std::vector<Frame> lookalikes = {{1, "/app/prog", "cuda", "", 0},
                                   {2, "/app/prog", "curious", "", 0},
                                   {3, "/app/prog", "cu_Foo", "", 0}};
  CHECK(outermost_api(lookalikes, "cuMemAlloc_v2") == "cuMemAlloc_v2");
}

TEST_CASE("an ip inside inlined code expands into one frame per function", "[report]") {
  Fixture fx;
  fx.stacks[1] = {0x10, 0x20};
  fx.resolver.names[0x10] = {"process_batch(int)", "/app/prog"};
  fx.resolver.inlined_into[0x10] = "main";
  fx.resolver.names[0x20] = {"__libc_start_main", "/lib/libc.so.6"};
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Device, 1, 8, 1));
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  auto& stack = r.leaks.at(0).stack;
  REQUIRE(stack.size() == 3);
  CHECK(stack[0].function == "process_batch(int)");
  CHECK(stack[0].inlined);
  CHECK(stack[1].function == "main");
  CHECK_FALSE(stack[1].inlined);
  CHECK(stack[0].ip == stack[1].ip);
  CHECK(from_json(to_json(r)).leaks[0].stack[0].inlined);
}

TEST_CASE("torn-down resources form their own groups, marked with the teardown", "[report]") {
  Fixture fx;
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Device, 0, 64, 1));
  Record torn = resource(Kind::Device, 0, 64, 2);
  torn.teardown = names.intern("context_destroy");
  snap.resources.push_back(torn);
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  REQUIRE(r.leaks.size() == 2);
  int marked = 0;
  for (const auto& g : r.leaks) marked += g.released_by == "context_destroy";
  CHECK(marked == 1);
}

TEST_CASE("JSON round trip keeps every field", "[report][json]") {
  Fixture fx;
  fx.stacks[1] = {0xdeadbeef00ull};
  fx.resolver.names[0xdeadbeef00ull] = {"main", "/app/prog"};
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Pinned, 1, 2048, 1, "cuMemHostAlloc"));
  snap.notes.push_back(RawNote{NoteType::UnknownRelease, "cuMemFree_v2", 0x1234, 1, 1, 3});
  snap.notes_total = 3;
  snap.primary_contexts.push_back(PrimaryContext{0, 1, 0, 0, 1});
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  r.reason = Reason::Exit;
  r.process = Process{42, 1, "/app/prog", {"/app/prog", "--x"}, -1, 1'700'000'000'123'456'789ull, "42-1-ff"};
  r.modules.push_back(Module{"/app/prog", 0x400000, "abcd"});
  r.timeline.marks = {TimelineMark{7, MarkType::Checkpoint, "epoch 1", 0}, TimelineMark{9, MarkType::Snapshot, "", 0}};
  r.timeline.kinds = {Kind::Device};
  DeviceTimeline& lane = r.timeline.devices.emplace_back();
  lane.points = {TimelinePoint{5, {300}, 300}, TimelinePoint{9, {100}, 300}};
  lane.sites = {TimelineSite{Kind::Device, "cudaMalloc", "main", 200, {Frame{0x10, "/app/prog", "main", "", 0}}},
                TimelineSite{Kind::Device, "cudaMalloc", "step", 100, {}}};
  lane.site_points = {{{0, 200}, {1, 100}}, {{1, 100}}};
  Report back = from_json(to_json(r));
  CHECK(back.timeline.devices == r.timeline.devices);
  CHECK(back.process.start_unix_ns == 1'700'000'000'123'456'789ull);
  CHECK(back.process.run_id == "42-1-ff");
  CHECK(back.timeline.marks == r.timeline.marks);
  CHECK(back.reason == Reason::Exit);
  CHECK(back.process.argv == std::vector<std::string>{"/app/prog", "--x"});
  REQUIRE(back.leaks.size() == 1);
  CHECK(back.leaks[0].kind == Kind::Pinned);
  CHECK(back.leaks[0].api == "cuMemHostAlloc");
  CHECK(back.leaks[0].stack[0].ip == 0xdeadbeef00ull);
  CHECK(back.leaks[0].stack[0].function == "main");
  CHECK(back.leaks[0].allocations[0].record.handle == 0x7001);
  CHECK(back.summary.by_kind.at(Kind::Pinned).bytes == 2048);
  CHECK(back.notes.at(0).type == NoteType::UnknownRelease);
  CHECK(back.notes.at(0).count == 3);
  CHECK(back.notes_total == 3);
  CHECK(back.primary_contexts.at(0).outstanding == 1);
  CHECK(back.modules.at(0).build_id == "abcd");
}

TEST_CASE("a python section with only some of its fields survives a round trip", "[report][json]") {
  // Found by fuzzing: {"frames": true} without a version was read, then left
  // out when written, and read back as frames false.
  Report r;
  r.reason = Reason::Exit;
  r.python.frames = true;
  CHECK(from_json(to_json(r)).python == r.python);
  r.python = PythonInfo{};
  CHECK(to_json(r).find("\"python\"") == std::string::npos);  // nothing set: no section
}

TEST_CASE("the reader refuses a timeline whose points name sites it lacks", "[report][json]") {
  Report r;
  r.timeline.kinds = {Kind::Device};
  DeviceTimeline& lane = r.timeline.devices.emplace_back();
  lane.points = {TimelinePoint{5, {300}, 300}};
  lane.sites = {TimelineSite{Kind::Device, "cudaMalloc", "main", 300, {}}};
  lane.site_points = {{{0, 300}}};
  CHECK_NOTHROW(from_json(to_json(r)));
  lane.site_points = {{{1, 300}}};
  CHECK_THROWS_WITH(from_json(to_json(r)), Catch::Contains("$.timeline.devices[0].site_points: names site 1 of 1"));
  lane.site_points = {{{0, 300}}, {}};
  CHECK_THROWS_WITH(from_json(to_json(r)), Catch::Contains("has 2 lists for 1 points"));
}

TEST_CASE("the reader takes no more stack frames or timeline points than cudaleak writes", "[report][json]") {
  Report r;
  LeakGroup& g = r.leaks.emplace_back();
  g.bytes = g.count = 1;
  g.stack.resize(256 * 65, Frame{0x1000, "m", "f", "f.cu", 1});
  CHECK_NOTHROW(from_json(to_json(r)));
  g.stack.resize(256 * 65 + 1, Frame{0x1000, "m", "f", "f.cu", 1});
  CHECK_THROWS_WITH(from_json(to_json(r)), Catch::Contains("$.leaks[0].stack: has more than 16640 elements"));
  r.leaks.clear();
  r.timeline.kinds = {Kind::Device};
  DeviceTimeline& lane = r.timeline.devices.emplace_back();
  lane.points.assign(1025, TimelinePoint{5, {300}, 300});
  CHECK_THROWS_WITH(from_json(to_json(r)),
                    Catch::Contains("$.timeline.devices[0].points: has more than 1024 elements"));
}

TEST_CASE("the reader refuses what is not a report it understands", "[report][json]") {
  CHECK_THROWS_WITH(from_json("{\"format\": \"cudaleak-report\", \"form"), Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(from_json("{\"hello\": 1}"), Catch::Contains("not a cudaleak report"));
  CHECK_THROWS_WITH(from_json("{\"format\": \"cudaleak-report\", \"format_version\": 99}"),
                    Catch::Contains("newer than this cudaleak reads"));
  CHECK_THROWS_WITH(from_json("{\"format\": \"cudaleak-report\", \"format_version\": 1}"),
                    Catch::Contains("malformed report"));
}

TEST_CASE("text summary: groups with stacks and one SUMMARY line", "[report][text]") {
  Fixture fx;
  fx.stacks[1] = {0x10};
  fx.resolver.names[0x10] = {"train_step(int)", "/app/prog"};
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Device, 1, 3 << 20, 1));
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  r.reason = Reason::Exit;
  r.process.pid = 7;
  std::string text = render_text(r, TextOptions{10, 16, "out.json"});
  CHECK(text.find("==7==cudaleak: detected CUDA resource leaks") != std::string::npos);
  CHECK(text.find("3.0 MiB of device memory in 1 allocation never freed, created by cuMemAlloc_v2") !=
        std::string::npos);
  CHECK(text.find("in train_step(int)") != std::string::npos);
  CHECK(text.find("SUMMARY: cudaleak: 3.0 MiB leaked in 1 resource (device: 1 / 3.0 MiB). Report: out.json\n") !=
        std::string::npos);
}

TEST_CASE("text summary: with no leak, what is alive beside is named as what it is", "[report][text]") {
  Report r;
  r.reason = Reason::Exit;
  r.process.pid = 7;
  LeakGroup cached = cudaleak::test::group_of(Kind::Device, "cuMemAlloc_v2", 6);
  cached.bytes = 6 << 20;
  cached.cached_by = "numba memory manager";
  r.leaks = {cached};
  r.summary = cudaleak::report::summarize(r.leaks);
  std::string text = render_text(r, {});
  CHECK(text.find("no CUDA resources leaked (apart from what caching allocators hold, listed below)\n") !=
        std::string::npos);
  CHECK(text.find("6.0 MiB in 6 blocks: numba memory manager") != std::string::npos);
  CHECK(text.find("suppressed") == std::string::npos);

  LeakGroup suppressed = cached;
  suppressed.cached_by.clear();
  suppressed.suppressed_by = "leak:load_plugin";
  r.leaks = {suppressed};
  r.summary = cudaleak::report::summarize(r.leaks);
  CHECK(render_text(r, {}).find("no CUDA resources leaked (apart from suppressed ones)\n") != std::string::npos);

  r.leaks = {suppressed, cached};
  r.summary = cudaleak::report::summarize(r.leaks);
  CHECK(render_text(r, {}).find("(apart from suppressed ones and what caching allocators hold, listed below)") !=
        std::string::npos);

  r.leaks.clear();
  r.summary = cudaleak::report::summarize(r.leaks);
  CHECK(render_text(r, {}).find("no CUDA resources leaked\n") != std::string::npos);
}

TEST_CASE("text summary: a zero-byte allocation is 0 B, only an imported one is of unknown size", "[report][text]") {
  Fixture fx;
  fx.stacks[1] = {0x10};
  fx.resolver.names[0x10] = {"main", "/app/prog"};
  RawSnapshot snap;
  snap.resources.push_back(resource(Kind::Pinned, 1, 0, 1));
  snap.resources.push_back(resource(Kind::IpcMapping, 1, 0, 2));
  Report r = build_named(snap, fx.lookup, &fx.resolver, {});
  std::string text = render_text(r, {});
  CHECK(text.find("0 B of pinned memory in 1 allocation never freed") != std::string::npos);
  CHECK(text.find("1 allocation of IPC-mapped memory of unknown size never freed") != std::string::npos);
}

TEST_CASE("leak sites keep the program's own frames up to main, without CUDA or libc", "[report][site]") {
  LeakGroup g;
  g.kind = Kind::Device;
  g.stack = {{1, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
             {2, "/app/prog", "cudaMalloc<float>", "/usr/local/cuda/include/cuda_runtime.h", 879},
             {2, "/app/prog", "step", "/src/app/loop.cu", 8},
             {2, "/app/prog", "main", "/src/app/loop.cu", 16},
             {3, "/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_call_main", "libc_start_call_main.h", 58},
             {4, "/app/prog", "_start", "", 0}};
  CHECK(cudaleak::gate::site_of(g) == "device | step @ loop.cu:8 | main @ loop.cu:16");
  // Another build at other addresses, on a machine with another libc: the same site.
  for (auto& f : g.stack) f.ip += 0x1000;
  g.stack[4].line = 74;
  CHECK(cudaleak::gate::site_of(g) == "device | step @ loop.cu:8 | main @ loop.cu:16");
  // Code of the system's C++ headers inlined into the program moves with the
  // compiler: not part of the site.
  g.stack.insert(g.stack.begin() + 2, {{2, "/app/prog", "std::__invoke_impl<void, void (*&)()>",
                                        "/usr/include/c++/12/bits/invoke.h", 61, true},
                                       {2, "/app/prog", "std::_Function_handler<void ()>::_M_invoke",
                                        "/usr/include/c++/12/bits/std_function.h", 290}});
  CHECK(cudaleak::gate::site_of(g) == "device | step @ loop.cu:8 | main @ loop.cu:16");
}

TEST_CASE("the simulated GPU's libraries are known by their directory, as CUDA's own code", "[report][site]") {
  using cudaleak::report::is_simulated_cuda_library;
  CHECK(is_simulated_cuda_library("/work/build/lib/cudaleak/simcuda/libcudart.so.13"));
  CHECK(is_simulated_cuda_library("/usr/lib/cudaleak/simcuda/libcuda.so.1"));
  CHECK(is_simulated_cuda_library("/opt/cudaleak/bin/../lib/cudaleak/simcuda/libnvidia-ml.so.1"));
  CHECK_FALSE(is_simulated_cuda_library("/usr/local/cuda/lib64/libcudart.so.13"));  // NVIDIA's
  CHECK_FALSE(is_simulated_cuda_library("/work/build/lib/cudaleak/simcuda/libprogram.so"));
  CHECK_FALSE(is_simulated_cuda_library("libcudart.so.13"));
  CHECK(cudaleak::report::in_cuda_library("/work/build/lib/cudaleak/simcuda/libcudart.so.13"));
  LeakGroup g;
  g.kind = Kind::Device;
  g.stack = {{1, "/work/build/lib/cudaleak/simcuda/libcudart.so.13", "cudaMalloc", "", 0},
             {2, "/app/prog", "step", "/src/app/loop.cu", 8},
             {2, "/app/prog", "main", "/src/app/loop.cu", 16}};
  CHECK(cudaleak::gate::site_of(g) == "device | step @ loop.cu:8 | main @ loop.cu:16");
}

TEST_CASE("caching allocators are recognised by their own frames only", "[report][caching]") {
  LeakGroup torch;
  torch.stack = {{1, "/x/libcudart.so.13", "cudaMalloc", "", 0},
                 {2, "/x/libc10_cuda.so",
                  "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc(int)", "", 0}};
  CHECK(cudaleak::gate::caching_allocator_of(torch) == "PyTorch caching allocator");
  LeakGroup cupy;
  cupy.stack = {{1, "/x/memory.so", "__pyx_f_4cupy_4cuda_6memory_10SingleDeviceMemoryPool__malloc", "", 0}};
  CHECK(cudaleak::gate::caching_allocator_of(cupy) == "CuPy memory pool");
  LeakGroup numba;  // numba-cuda's memory manager, as its Python frames read on the H100
  const std::string driver_py = "/v/site-packages/numba_cuda/numba/cuda/cudadrv/driver.py";
  numba.stack = {{1, "/x/cydriver.cpython-312-x86_64-linux-gnu.so", "", "", 0},
                 python_frame("NumbaCUDAMemoryManager.memalloc.<locals>.allocator", driver_py, 893),
                 python_frame("HostOnlyCUDAMemoryManager._attempt_allocation", driver_py, 735),
                 python_frame("step", "/src/train.py", 15)};
  CHECK(cudaleak::gate::caching_allocator_of(numba) == "numba memory manager");
  numba.stack[2].function = "_attempt_allocation";  // Python 3.10 and before: the code's name alone
  CHECK(cudaleak::gate::caching_allocator_of(numba) == "numba memory manager");
  numba.stack[2].file = "/app/my_pool.py";  // a method of that name elsewhere is no allocator of numba's
  CHECK(cudaleak::gate::caching_allocator_of(numba).empty());
  LeakGroup user;
  user.stack = {{1, "/app/ext.so", "my_extension::allocate_workspace()", "", 0}, {2, "/app/prog", "main", "", 0}};
  CHECK(cudaleak::gate::caching_allocator_of(user).empty());
}

TEST_CASE("model: a module or library the CUDA runtime loads for its own code is told from the program's load") {
  using cudaleak::report::Frame;
  using cudaleak::report::is_runtime_own_load;
  Frame program{0x10, "/opt/app/solver", "load_kernels", "solver.cpp", 12};
  Frame main_frame{0x20, "/opt/app/solver", "main", "main.cpp", 3};
  Frame shared_cudart{0x30, "/usr/local/cuda/lib64/libcudart.so.13", "", "", 0};
  Frame static_cudart{0x40, "/opt/app/solver", "libcudart_static_4f3a", "", 0};
  Frame explicit_api{0x50, "/opt/app/solver", "cudaLibraryLoadData", "", 0};
  Frame cublas{0x60, "/usr/lib/libcublasLt.so.13", "", "", 0};
  CHECK_FALSE(is_runtime_own_load({program, main_frame}));           // cuModuleLoadData by the program
  CHECK(is_runtime_own_load({shared_cudart, program, main_frame}));  // lazy loading inside a launch
  CHECK(is_runtime_own_load({static_cudart, program, main_frame}));
  CHECK(is_runtime_own_load({cublas, program, main_frame}));                    // a library's embedded runtime
  CHECK_FALSE(is_runtime_own_load({static_cudart, explicit_api, main_frame}));  // cudaLibraryLoadData
  CHECK_FALSE(is_runtime_own_load({}));
}

TEST_CASE("text stacks: a template instance's name past 160 characters keeps its scope and function",
          "[report][text]") {
  using cudaleak::report::readable_function_name;
  CHECK(readable_function_name("std::vector<int, std::allocator<int> >::push_back(int const&)") ==
        "std::vector<int, std::allocator<int> >::push_back(int const&)");  // short: as it is
  const std::string lambda = "{lambda(at::Tensor&, at::Tensor&, ncclComm*, c10::cuda::CUDAStream&)#1}";
  const std::string collective =
      "c10::intrusive_ptr<c10d::Work, c10::detail::intrusive_target_default_null_type<c10d::Work> > "
      "c10d::ProcessGroupNCCL::collective<c10d::ProcessGroupNCCL::allreduce_impl(at::Tensor&, char const*, "
      "c10d::AllreduceOptions const&)::" +
      lambda +
      ">(at::Tensor&, at::Tensor&, c10d::OpType, bool, char const*, bool) "
      "[clone .constprop.0]";
  CHECK(readable_function_name(collective) ==
        "c10::intrusive_ptr<...> c10d::ProcessGroupNCCL::collective<...>(...) [clone .constprop.0]");
  const std::string ops =
      "c10d::ops::(anonymous namespace)::allreduce_CUDA(c10::ArrayRef<at::Tensor>, "
      "c10::intrusive_ptr<c10d::ProcessGroup, c10::detail::intrusive_target_default_null_type<"
      "c10d::ProcessGroup> > const&, bool, long)";
  CHECK(readable_function_name(ops, 60) == "c10d::ops::(anonymous namespace)::allreduce_CUDA(...)");
  CHECK(readable_function_name("ns::Matrix<float, 4>::operator()(int, int) const", 20) ==
        "ns::Matrix<...>::operator()(...) const");
  CHECK(readable_function_name("ns::Stream& ns::operator<<(ns::Stream&, std::vector<int> const&)", 20) ==
        "ns::Stream& ns::operator<<(...)");
  CHECK(readable_function_name("f(std::function<void (int)> g, decltype(x->y) z)", 10) == "f(...)");
  CHECK(readable_function_name("cut<short(", 5) == "cut<short(");  // brackets that never close: as it is
  // Brackets matched by kind; "<" and ">" inside parentheses are comparisons.
  CHECK(readable_function_name("std::enable_if<((3)>(0)), int>::type ns::pos<3>(int)", 10) ==
        "std::enable_if<...>::type ns::pos<...>(...)");
  // A bracket that opens the name itself is kept, its inside shortened.
  CHECK(readable_function_name("void (*ns::get_handler<int>(int))(int)", 10) ==
        "void (*ns::get_handler<...>(...))(...)");
  CHECK(readable_function_name("<ns::Foo<u8> as core::ops::drop::Drop>::drop", 10) ==
        "<ns::Foo<...> as core::ops::drop::Drop>::drop");
  // An operator's characters are its name, and only the word operator makes one.
  CHECK(readable_function_name("ns::foo<&ns::operator< >(int)", 10) == "ns::foo<...>(...)");
  CHECK(readable_function_name("ns::apply_operator<ns::Vec<int> >(int)", 10) == "ns::apply_operator<...>(...)");
  CHECK(readable_function_name("ns::operator->*(ns::P<int>, int)", 10) == "ns::operator->*(...)");

  // In a report: the short name in the text, the whole one in --full-stacks.
  Report r;
  r.process.pid = 1;
  LeakGroup g = cudaleak::test::group_of(Kind::Event, "cudaEventCreateWithFlags", 5);
  g.stack = {{0x10, "/v/libtorch_cuda.so", collective, "", 0}, {0x20, "/app/train", "main", "train.cc", 9}};
  r.leaks = {g};
  std::string text = render_text(r, {});
  CHECK(
      text.find("#0 0x10 in c10::intrusive_ptr<...> c10d::ProcessGroupNCCL::collective<...>(...) [clone .constprop.0] "
                "(libtorch_cuda.so)\n") != std::string::npos);
  TextOptions full;
  full.full_stacks = true;
  CHECK(render_text(r, full).find(lambda) != std::string::npos);
}

TEST_CASE("text stacks: the program's own line is shown even past the frame limit", "[report][text]") {
  Report r;
  r.process.pid = 1;
  LeakGroup g = cudaleak::test::group_of(Kind::Event, "cudaEventCreateWithFlags", 2);
  for (int i = 0; i < 20; ++i)
    g.stack.push_back({uint64_t(0x100 + i), "/v/libtorch_cpu.so", "c10d::Reducer::step" + std::to_string(i), "", 0});
  g.stack.push_back(
      python_frame("DistributedDataParallel.__init__", "/v/site-packages/torch/nn/parallel/distributed.py", 881));
  g.stack.push_back(python_frame("<module>", "/work/ddp_job.py", 19));
  r.leaks = {g};
  TextOptions options;
  options.max_frames = 16;
  std::string text = render_text(r, options);
  CHECK(text.find("#14 0x10e in c10d::Reducer::step14 (libtorch_cpu.so)\n    ... 6 frames ...\n"
                  "    #21 [python] in <module> /work/ddp_job.py:19\n") != std::string::npos);
  CHECK(text.find("step15") == std::string::npos);
  // One frame between the limit and the program's: shown, not counted.
  g.stack.erase(g.stack.begin() + 15, g.stack.begin() + 20);
  r.leaks = {g};
  text = render_text(r, options);
  CHECK(text.find("frames ...") == std::string::npos);
  CHECK(text.find("#15 [python] in DistributedDataParallel.__init__") != std::string::npos);
  CHECK(text.find("#16 [python] in <module> /work/ddp_job.py:19") != std::string::npos);
  // Within the limit, every frame as before.
  g.stack.erase(g.stack.begin() + 4, g.stack.begin() + 15);
  r.leaks = {g};
  text = render_text(r, options);
  CHECK(text.find("frames ...") == std::string::npos);
  CHECK(text.find("#4 [python] in DistributedDataParallel.__init__") != std::string::npos);
  CHECK(text.find("#5 [python] in <module> /work/ddp_job.py:19") != std::string::npos);
}

TEST_CASE("text stacks: runs inside a CUDA library become one line and the C runtime below main is left out",
          "[report]") {
  Report r;
  r.process.pid = 1;
  LeakGroup g = cudaleak::test::group_of(Kind::LibraryHandle, "cublasCreate_v2", 1);
  const std::string cublas = "/usr/local/cuda/lib64/libcublas.so.13";
  g.stack = {{0x10, cublas, "cublasLtInternal", "", 0},
             {0x11, cublas + ".0.96", "cublasInit", "", 0},
             {0x12, cublas, "cublasSetup", "", 0},
             {0x13, cublas, "cublasCreate_v2", "", 0},
             {0x20, "/app/solver", "open_solver", "solver.cu", 4},
             {0x21, "/app/solver", "main", "solver.cu", 9},
             {0x30, "/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_main", "", 0},
             {0x31, "/app/solver", "_start", "", 0}};
  r.leaks = {g};
  std::string text = render_text(r, {});
  CHECK(text.find("    ... 3 frames in libcublas.so.13 ...\n    #3 0x13 in cublasCreate_v2 (libcublas.so.13)\n") !=
        std::string::npos);
  CHECK(text.find("cublasInit") == std::string::npos);
  CHECK(text.find("#5 0x21 in main solver.cu:9") != std::string::npos);
  CHECK(text.find("__libc_start_main") == std::string::npos);
  CHECK(text.find("_start") == std::string::npos);

  TextOptions full;
  full.full_stacks = true;
  std::string all = render_text(r, full);
  CHECK(all.find("frames in") == std::string::npos);
  CHECK(all.find("#1 0x11 in cublasInit (libcublas.so.13.0.96)") != std::string::npos);
  CHECK(all.find("#7 0x31 in _start (solver)") != std::string::npos);

  // A Python program: nothing outward of the script's top level (the interpreter).
  LeakGroup p;
  p.kind = Kind::Device;
  p.api = "cudaMalloc";
  p.count = 1;
  p.bytes = 64;
  Frame step{1, "", "step", "train.py", 7};
  step.python = true;
  Frame module{2, "", "<module>", "train.py", 12};
  module.python = true;
  p.stack = {{0x40, "/usr/lib/libcudart.so.13", "cudaMalloc", "", 0},
             step,
             module,
             {0x50, "/usr/bin/python3.12", "Py_RunMain", "", 0},
             {0x51, "/usr/bin/python3.12", "main", "", 0}};
  r.leaks = {p};
  std::string py = render_text(r, {});
  CHECK(py.find("<module> train.py:12") != std::string::npos);
  CHECK(py.find("Py_RunMain") == std::string::npos);
}

TEST_CASE("library handles: every interposed create function names its object and is found in stacks") {
  int creates = 0;
#define CHECK_CREATE(symbol, library, pfn, role, space)           \
  if (std::string_view(#role) == "Create") {                      \
    INFO(#symbol);                                                \
    ++creates;                                                    \
    CHECK(cudaleak::report::is_library_create(#symbol));          \
    CHECK(cudaleak::report::library_object(#symbol).has_value()); \
    CHECK(cudaleak::report::is_library_api_name(#symbol));        \
  }
  CUDALEAK_LIBRARY_HOOKS(CHECK_CREATE)
#undef CHECK_CREATE
  CHECK(creates >= 17);
  CHECK(cudaleak::report::is_library_create("cufftMakePlan1d"));  // what cufftCreate'd plans are made by
  CHECK(!cudaleak::report::is_library_create("cublasSgemm_v2"));
  CHECK(!cudaleak::report::is_library_api_name("cudaMalloc"));
  CHECK(!cudaleak::report::is_library_api_name("cuMemAlloc_v2"));
  CHECK(!cudaleak::report::is_library_api_name("cudaLibraryLoadData"));
  CHECK(cudaleak::report::is_library_api_name("cufftPlan1d"));
  CHECK(cudaleak::report::is_library_api_name("ncclCommInitRank"));
}

TEST_CASE("a crash capture with a stack longer than cudaleak records is refused, not symbolized", "[report][json]") {
  std::ifstream in(std::string(CUDALEAK_FUZZ_CORPUS) + "/crash_capture/crash_after_leak.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE_NOTHROW(cudaleak::capture::parse_crash_capture(text));
  const std::string row = "[1,139651235035267,93958500458700,139651233161802,139651233161989,93958500458849]";
  size_t at = text.find(row);
  REQUIRE(at != std::string::npos);
  std::string long_row = "[1";
  for (int i = 0; i < 2000; ++i) long_row += ",139651235035267";
  long_row += "]";
  std::string hostile = text;
  hostile.replace(at, row.size(), long_row);
  CHECK_THROWS_WITH(cudaleak::capture::parse_crash_capture(hostile),
                    Catch::Contains("$.stacks[0]: expected a list of 1 to 1025 fields, got 2001"));
}

namespace {
std::string corpus_capture(const std::string& name) {
  std::ifstream in(std::string(CUDALEAK_FUZZ_CORPUS) + "/crash_capture/" + name);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

TEST_CASE("crash captures of version 1 (no column names) still read, with and without scopes", "[report][json]") {
  std::string v1 = corpus_capture("crash_after_leak.json");
  REQUIRE(v1.find("\"format_version\":1") != std::string::npos);
  auto c = cudaleak::capture::parse_crash_capture(v1);
  REQUIRE(c.snapshot.resources.size() == 1);
  CHECK(c.snapshot.resources[0].bytes == 1048576);
  CHECK(c.snapshot.resources[0].stack_id == 1);
  // Captures written before library scopes had 12 fields a resource.
  const std::string row13 = ",\"\",0]";
  size_t at = v1.find(row13);
  REQUIRE(at != std::string::npos);
  std::string twelve = v1;
  twelve.replace(at, row13.size(), ",\"\"]");
  auto old = cudaleak::capture::parse_crash_capture(twelve);
  REQUIRE(old.snapshot.resources.size() == 1);
  CHECK(old.snapshot.resources[0].scope == 0);
}

TEST_CASE("crash captures name their columns: any order, unknown ones skipped, newer versions refused",
          "[report][json]") {
  std::string v1 = corpus_capture("crash_after_leak.json");
  const std::string row =
      "[\"device\",\"cuMemAlloc_v2\",139651220131856,1048576,1,770005,93958644348656,0,1,4532,0,\"\",0]";
  REQUIRE(v1.find(row) != std::string::npos);
  // Version 2 with the resource columns reversed and one this reader does not know.
  std::string v2 = v1;
  v2.replace(v2.find("\"format_version\":1"), 18, "\"format_version\":2");
  v2.replace(
      v2.find(row), row.size(),
      "[\"later\",0,\"\",0,4532,1,0,93958644348656,770005,1,1048576,139651220131856,\"cuMemAlloc_v2\",\"device\"]");
  v2.replace(v2.find("\n\"resources\""), 1,
             "\"columns\":{\"resources\":[\"future\",\"scope\",\"released_by\",\"device\",\"thread\",\"stack\","
             "\"stream\",\"context\",\"time_ns\",\"sequence\",\"bytes\",\"handle\",\"api\",\"kind\"],"
             "\"notes\":[\"type\",\"hook\",\"handle\",\"result\",\"stack\",\"count\"],"
             "\"python_frames\":[\"id\",\"file\",\"function\",\"line\"],\"marks\":[\"type\",\"name\",\"time_ns\"]},\n");
  auto c = cudaleak::capture::parse_crash_capture(v2);
  REQUIRE(c.snapshot.resources.size() == 1);
  const auto& r = c.snapshot.resources[0];
  CHECK(r.kind == Kind::Device);
  CHECK(r.bytes == 1048576);
  CHECK(r.handle == 139651220131856ull);
  CHECK(r.thread == 4532);
  CHECK(r.stack_id == 1);
  CHECK(c.snapshot.hook_of(r) == std::string("cuMemAlloc_v2"));

  std::string no_bytes = v2;
  no_bytes.replace(no_bytes.find("\"bytes\","), 8, "\"bites\",");
  CHECK_THROWS_WITH(cudaleak::capture::parse_crash_capture(no_bytes), Catch::Contains("no column \"bytes\""));
  std::string newer = v2;
  newer.replace(newer.find("\"format_version\":2"), 18, "\"format_version\":9");
  CHECK_THROWS_WITH(cudaleak::capture::parse_crash_capture(newer),
                    Catch::Contains("format_version 9 is newer than this cudaleak reads (2); use a newer cudaleak"));
}

TEST_CASE("device-side allocations group by kernel above the launch's host stack", "[report][device_heap]") {
  Fixture fx;
  fx.resolver.names[0x20] = {"main", "/app/prog"};
  // Device frames share the interned table with Python frames, under their own tag.
  std::vector<Frame> table(2);
  table[0].function = "keep_blocks(bool)";
  table[1].function = "odd_sizes()";
  auto resolver = with_python_frames(borrow(fx.resolver), table);
  fx.stacks[1] = {device_frame_ip(1), 0x20};
  fx.stacks[2] = {device_frame_ip(2), 0x20};
  RawSnapshot snap;
  for (int i = 0; i < 3; ++i) snap.resources.push_back(resource(Kind::DeviceHeap, 1, 4096, 1 + i, "malloc"));
  snap.resources.push_back(resource(Kind::DeviceHeap, 2, 1000, 4, "malloc"));
  Report r = build_named(snap, fx.lookup, resolver.get(), {});
  REQUIRE(r.leaks.size() == 2);
  CHECK(r.leaks[0].kind == Kind::DeviceHeap);
  CHECK(r.leaks[0].count == 3);
  CHECK(r.leaks[0].bytes == 12288);
  REQUIRE(r.leaks[0].stack.size() == 2);
  CHECK(r.leaks[0].stack[0].function == "keep_blocks(bool)");
  CHECK(r.leaks[0].stack[0].module == "[device]");
  CHECK_FALSE(r.leaks[0].stack[0].python);
  CHECK(r.leaks[0].stack[1].function == "main");
  CHECK(r.leaks[1].stack[0].function == "odd_sizes()");
  CHECK(r.summary.leaked_bytes == 13288);
  CHECK(r.summary.by_kind[Kind::DeviceHeap].count == 4);
  CHECK(kind_name(Kind::DeviceHeap) == "device_heap");
  CHECK(kind_from_name("device_heap") == Kind::DeviceHeap);
  CHECK(kind_dies_with_context(Kind::DeviceHeap));
}

TEST_CASE("words: sizes, durations and counts come from one helper each, in the unit a reader expects",
          "[report][words]") {
  using cudaleak::count_of;
  using cudaleak::format_bytes;
  using cudaleak::format_duration;
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(1023) == "1023 B");
  CHECK(format_bytes(1024) == "1.0 KiB");
  CHECK(format_bytes((1ull << 30) - 1) == "1.0 GiB");  // was "1024.0 MiB"
  CHECK(format_bytes((1ull << 20) - 1) == "1.0 MiB");
  CHECK(format_bytes(512ull << 20) == "512.0 MiB");
  CHECK(format_bytes(3ull << 50) == "3.0 PiB");  // never "3072.0 TiB"
  CHECK(format_bytes(UINT64_MAX) == "16.0 EiB");
  uint64_t sum = UINT64_MAX - 5;
  cudaleak::add_saturating(sum, 10);  // a file's sizes near 2^64 never wrap to a small total
  CHECK(sum == UINT64_MAX);
  cudaleak::add_saturating(sum = 1, 2);
  CHECK(sum == 3);
  CHECK(format_duration(0) == "0 ns");
  CHECK(format_duration(850) == "850 ns");
  CHECK(format_duration(1'500) == "1.5 us");
  CHECK(format_duration(999'990) == "1.0 ms");  // never "1000.0 us"
  CHECK(format_duration(12'500'000) == "12.5 ms");
  CHECK(format_duration(2'500'000'000) == "2.50 s");
  CHECK(format_duration(185'000'000'000) == "3 min 05 s");
  CHECK(count_of(1, "leak group", "leak groups") == "1 leak group");
  CHECK(count_of(2, "leak group", "leak groups") == "2 leak groups");
  CHECK(count_of(0, "resource", "resources") == "0 resources");
}

TEST_CASE("summary: sizes near 2^64 in a file add up to the largest value, not a small one", "[report][words]") {
  std::vector<cudaleak::report::LeakGroup> groups(2);
  for (auto& g : groups) g.kind = cudaleak::Kind::Device, g.bytes = 1ull << 63, g.count = 1;
  const auto s = cudaleak::report::summarize(groups);
  CHECK(s.leaked_bytes == UINT64_MAX);
  CHECK(s.leaked_count == 2);
}

TEST_CASE("CuPy's pinned pool keeps the event a copy from pinned memory records, and only that", "[report][caching]") {
  // The stack as it read on an H200 (cupy.asarray of a cupyx.zeros_pinned buffer).
  LeakGroup event;
  event.kind = Kind::Event;
  event.stack = {
      {1, "/x/runtime.cpython-312-x86_64-linux-gnu.so", "cudaEventCreateWithFlags", "", 0},
      {2, "/x/stream.cpython-312-x86_64-linux-gnu.so", "__pyx_pf_4cupy_4cuda_6stream_5Event___init__", "", 0},
      {3, "/x/stream.cpython-312-x86_64-linux-gnu.so", "__pyx_pw_4cupy_4cuda_6stream_11_BaseStream_25record", "", 0},
      {4, "/x/core.cpython-312-x86_64-linux-gnu.so",
       "__pyx_f_4cupy_5_core_4core__array_default(_object*, _object*, _object*, _object*, long, int)", "", 0},
      python_frame("<module>", "/src/copy.py", 10)};
  CHECK(cudaleak::gate::caching_allocator_of(event) == "CuPy pinned memory pool");
  // The same frame above device memory the pool was bypassed for is the program's.
  LeakGroup memory = event;
  memory.kind = Kind::Device;
  CHECK(cudaleak::gate::caching_allocator_of(memory).empty());
  // An event the program records itself (stream.record()) stays its own.
  LeakGroup own = event;
  own.stack.erase(own.stack.begin() + 3);
  CHECK(cudaleak::gate::caching_allocator_of(own).empty());
}
