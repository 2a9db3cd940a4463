// Whose code a frame is (report/model/frame_owner.h), and the places that
// name "the user's line" with it: suggested suppressions, sites, the OOM
// "where", per-tensor lines, --by function and the text's stacks.
#include <catch2/catch.hpp>

#include "report/analyze/views.h"
#include "report/gate/rule_set.h"
#include "report/gate/site.h"
#include "report/gate/suppressions.h"
#include "report/model/frame_owner.h"
#include "report/model/place_name.h"
#include "report/render/tensor_words.h"
#include "report/render/text_report.h"
#include "tests/unit/report_frames.h"

using namespace cudaleak;
using namespace cudaleak::report;
using namespace cudaleak::render;
using cudaleak::test::native_frame;
using cudaleak::test::python_frame;

namespace {

Frame with_file(Frame f, const std::string& file, int line) {
  f.file = file;
  f.line = line;
  return f;
}

// What `cudaMalloc(&float_ptr, n)` of an -O0 -g program goes through: the
// runtime's cudaMalloc, its template wrapper in cuda_runtime.h, the program.
std::vector<Frame> through_the_wrapper(const std::string& function, const std::string& file, int line) {
  return {native_frame("cudaMalloc", "/usr/local/cuda/lib64/libcudart.so.13"),
          with_file(native_frame("cudaError cudaMalloc<float>(float**, unsigned long)", "/home/u/app"),
                    "/usr/local/cuda/targets/x86_64-linux/include/cuda_runtime.h", 879),
          with_file(native_frame(function, "/home/u/app"), file, line),
          with_file(native_frame("main", "/home/u/app"), "/home/u/app.cu", 40)};
}

LeakGroup device_leak(std::vector<Frame> stack) {
  LeakGroup g = test::group_of(Kind::Device, "cudaMalloc", 1);
  g.bytes = 4096;
  g.stack = std::move(stack);
  return g;
}

// A per-tensor stack as PyTorch hands it over: files and lines, no language.
Frame tensor_frame(const std::string& function, const std::string& file, int line) {
  Frame f = python_frame(function, file, line);
  f.python = false;
  return f;
}

}  // namespace

TEST_CASE("frames: CUDA's template wrapper in cuda_runtime.h is the toolkit's, wherever it is installed", "[frames]") {
  const auto stack = through_the_wrapper("fill_buffers(int)", "/home/u/app.cu", 12);
  CHECK(owner_of(stack[0]) == FrameOwner::Cuda);
  CHECK(owner_of(stack[1]) == FrameOwner::CudaHeaders);
  CHECK(owner_of(stack[2]) == FrameOwner::User);
  CHECK(owner_of(stack[3]) == FrameOwner::User);
  for (const char* file : {"/usr/local/cuda-12.4/include/cuda_runtime.h", "cuda_runtime.h",
                           "/opt/conda/targets/x86_64-linux/include/cuda_runtime.h", "/usr/include/thrust/fill.h",
                           "thrust/detail/vector_base.inl", "/opt/cuda/include/cub/device/device_reduce.cuh",
                           "/usr/local/cuda/include/cuda/std/__memory/allocator.h", "crt/host_runtime.h"})
    CHECK(in_cuda_headers(file));
  for (const char* file : {"/home/u/app.cu", "/home/u/cuda_helpers.h", "/src/cudaleak/include/cudaleak.h"})
    CHECK_FALSE(in_cuda_headers(file));
  // Without line information: a header library's namespace names it.
  CHECK(owner_of(native_frame("void thrust::detail::fill<int>(int*, int)", "/home/u/app")) == FrameOwner::CudaHeaders);
  CHECK(user_frame(stack) == &stack[2]);
}

TEST_CASE("frames: installed Python, the standard library, libffi and the interpreter are library frames", "[frames]") {
  const Frame cache = python_frame("DynamicCache.update", "/usr/lib/python3/dist-packages/transformers/cache_utils.py",
                                   147);
  const Frame site = python_frame("Linear.forward", "/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py",
                                  125);
  const Frame stdlib = python_frame("Thread.run", "/usr/lib/python3.12/threading.py", 1010);
  const Frame frozen = python_frame("_run_module_as_main", "<frozen runpy>", 198);
  const Frame user = python_frame("serve_request", "/srv/app/server.py", 31);
  const Frame ffi = native_frame("ffi_call", "/lib/x86_64-linux-gnu/libffi.so.8");
  CHECK(owner_of(cache) == FrameOwner::InstalledPython);
  CHECK(owner_of(site) == FrameOwner::Framework);  // PyTorch's own files, wherever installed
  CHECK(owner_of(stdlib) == FrameOwner::InstalledPython);
  CHECK(owner_of(frozen) == FrameOwner::InstalledPython);
  CHECK(owner_of(user) == FrameOwner::User);
  CHECK(owner_of(ffi) == FrameOwner::System);
  CHECK(owner_of(native_frame("_PyEval_EvalFrameDefault", "/usr/bin/python3.12")) == FrameOwner::Interpreter);
  CHECK(owner_of(
            native_frame("at::native::empty_cuda", "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so")) ==
        FrameOwner::Framework);
  // PyTorch's per-tensor stacks carry no language: the file says Python.
  CHECK(owner_of(tensor_frame("update", "/usr/lib/python3/dist-packages/transformers/cache_utils.py", 147)) ==
        FrameOwner::InstalledPython);
  std::vector<Frame> stack = {native_frame("cudaMalloc", "/usr/lib/libcudart.so.13"), ffi, cache, site, user, stdlib};
  CHECK(user_frame(stack)->function == "serve_request");
}

TEST_CASE("frames: a stack with no line of the user's never names libffi or the interpreter", "[frames]") {
  // The failing request of one FSDP rank, its Python frames not read.
  const std::vector<Frame> stack = {
      native_frame("cuMemAlloc_v2", "/usr/lib/libcuda.so.1"),
      native_frame("c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc",
                   "/venv/lib/python3.12/site-packages/torch/lib/libc10_cuda.so"),
      native_frame("ffi_call", "/lib/x86_64-linux-gnu/libffi.so.8"),
      native_frame("_PyObject_MakeTpCall", "/usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0"),
      native_frame("__libc_start_main", "/lib/x86_64-linux-gnu/libc.so.6")};
  REQUIRE(user_frame(stack) != nullptr);
  CHECK(user_frame(stack)->function.str().starts_with("c10::cuda::"));
  CHECK(report::where_of(stack, "cudaMalloc").find("ffi_call") == std::string::npos);
  const std::vector<Frame> only_runtime = {native_frame("cuMemAlloc_v2", "/usr/lib/libcuda.so.1"),
                                           native_frame("ffi_call", "/lib/x86_64-linux-gnu/libffi.so.8")};
  CHECK(report::where_of(only_runtime, "cuMemAlloc") == "cuMemAlloc");
}

TEST_CASE("frames: a suggested rule names the user's function, never CUDA's template wrapper", "[frames][gate]") {
  const LeakGroup mine = device_leak(through_the_wrapper("fill_buffers(int)", "/home/u/app.cu", 12));
  const std::string rule = gate::suggest_rule(mine);
  CHECK(rule == "leak:fill_buffers kind:device");
  CHECK(rule.find("cudaMalloc<float>") == std::string::npos);
  // Pasted into a file, it hides this leak and not a new one of another
  // program that goes through the same wrapper.
  gate::RuleSetBuilder b;
  b.add_text(rule + "\n", "gen.supp");
  const gate::RuleSet rules = b.build();
  CHECK(rules.first_match(mine) == 0);
  const LeakGroup other = device_leak(through_the_wrapper("load_batch(int)", "/home/v/loader.cu", 30));
  CHECK(rules.first_match(other) == rules.size());
  // Sites (baselines) and --by function follow the user's frame too.
  CHECK(gate::site_of(mine).find("cuda_runtime.h") == std::string::npos);
  CHECK(gate::site_of(mine).find("fill_buffers(int) @ app.cu:12") != std::string::npos);
  CHECK(allocation_frame(mine)->function == "fill_buffers(int)");
}

TEST_CASE("frames: a leak with library frames alone gets no rule, and says why", "[frames][gate]") {
  const LeakGroup theirs = device_leak(
      {native_frame("cudaMalloc", "/usr/lib/libcudart.so.13"),
       with_file(native_frame("cudaError cudaMalloc<float>(float**, unsigned long)", "/opt/lib/libsolver.so"),
                 "/usr/local/cuda/include/cuda_runtime.h", 879),
       native_frame("ffi_call", "/lib/x86_64-linux-gnu/libffi.so.8")});
  const std::string rule = gate::suggest_rule(theirs);
  CHECK(rule.starts_with("# no rule for device from cudaMalloc"));
  gate::RuleSetBuilder b;
  b.add_text(rule + "\n", "gen.supp");
  CHECK(b.build().size() == 0);  // a comment: pasted, it hides nothing
}

TEST_CASE("frames: a per-tensor line names the user's line past the library's", "[frames][oom]") {
  TensorGroup g;
  g.bytes = 64 << 20;
  g.count = 2;
  g.stack = {tensor_frame("update", "/usr/lib/python3/dist-packages/transformers/cache_utils.py", 147),
             tensor_frame("forward", "/usr/lib/python3/dist-packages/transformers/models/llama/modeling_llama.py", 300),
             tensor_frame("serve_request", "/srv/app/server.py", 31)};
  CHECK(render::tensor_group_text(g) == "64.0 MiB in 2 tensors from serve_request (server.py:31)");
  g.stack.pop_back();  // PyTorch kept too few frames to reach the program
  CHECK(render::tensor_group_text(g) ==
        "64.0 MiB in 2 tensors from update (cache_utils.py:147) (library code: no line of the program among the "
        "frames recorded)");
}

TEST_CASE("frames: static cudart's internal functions show as the entry point the program called", "[frames][text]") {
  Report r;
  LeakGroup g = device_leak({native_frame("libcudart_static_4d8b33a1c2e5f7", "/home/u/app"),
                             native_frame("libcudart_static_9a0b1c2d3e4f50", "/home/u/app"),
                             native_frame("cudaMalloc", "/home/u/app"),
                             with_file(native_frame("fill_buffers(int)", "/home/u/app"), "/home/u/app.cu", 12),
                             with_file(native_frame("main", "/home/u/app"), "/home/u/app.cu", 40)});
  r.leaks.push_back(g);
  TextOptions options;
  std::string text = render_text(r, options);
  CHECK(text.find("libcudart_static_") == std::string::npos);
  CHECK(text.find("... 2 frames inside static cudart ...") != std::string::npos);
  CHECK(text.find("#2 0x0 in cudaMalloc (app)") != std::string::npos);
  // No public entry point on the stack: the API the group is attributed to.
  r.leaks[0].stack.erase(r.leaks[0].stack.begin() + 1, r.leaks[0].stack.begin() + 3);
  text = render_text(r, options);
  CHECK(text.find("libcudart_static_") == std::string::npos);
  CHECK(text.find("#0 0x0 in cudaMalloc [static cudart] (app)") != std::string::npos);
  options.full_stacks = true;  // every frame as it was
  CHECK(render_text(r, options).find("libcudart_static_4d8b33a1c2e5f7") != std::string::npos);
}
