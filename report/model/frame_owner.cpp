#include "report/model/frame_owner.h"

#include <string_view>

#include "report/model/cuda_frames.h"

namespace cudaleak::report {

namespace {

bool starts_with_any(std::string_view text, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (text.starts_with(p)) return true;
  return false;
}

// `file` with a '/' in front, so that a relative "thrust/fill.h" and an
// absolute ".../include/thrust/fill.h" are searched alike for "/thrust/".
bool has_segment(const std::string& rooted, std::string_view segment) {
  return rooted.find(segment) != std::string::npos;
}

// ".../cuda/include/", ".../cuda-12.4/include/", ".../cuda13/include/": a
// directory named for the toolkit holding an include directory.
bool under_toolkit_include(const std::string& rooted) {
  for (size_t at = rooted.find("/cuda"); at != std::string::npos; at = rooted.find("/cuda", at + 1)) {
    size_t end = rooted.find('/', at + 1);
    if (end == std::string::npos) return false;
    std::string_view dir(rooted.data() + at + 5, end - at - 5);  // after "/cuda"
    bool version = dir.find_first_not_of("-.0123456789") == std::string_view::npos;
    if (version && rooted.compare(end, 9, "/include/") == 0) return true;
  }
  return false;
}

// The runtime's headers that hold code compiled into programs (templates,
// inline functions): known by name also where the path says nothing.
bool is_runtime_header_name(std::string_view base) {
  for (std::string_view name :
       {"cuda_runtime.h", "cuda_runtime_api.h", "cuda_device_runtime_api.h", "cuda_fp16.h", "cuda_fp16.hpp",
        "cuda_bf16.h", "cuda_bf16.hpp", "cuda_fp8.h", "cuda_fp8.hpp", "cuda_awbarrier.h", "cuda_pipeline.h",
        "cuda_pipeline_primitives.h", "cuda_texture_types.h", "cuda_surface_types.h", "driver_functions.h",
        "vector_functions.h", "vector_functions.hpp", "cooperative_groups.h", "cuda_occupancy.h"})
    if (base == name) return true;
  return false;
}

// Header-only CUDA libraries compiled into a program without line
// information: only their namespace names them.
bool in_cuda_header_namespace(const std::string& function) {
  std::string_view name = function;
  if (auto space = name.find(' '); space != std::string_view::npos && space < name.find_first_of("<(:"))
    name.remove_prefix(space + 1);  // a template instance's return type
  return starts_with_any(name, {"thrust::", "cub::", "cuda::", "cuda_cub::", "cooperative_groups::"});
}

bool is_python_file(std::string_view file) {
  return file.ends_with(".py") || file.starts_with("<frozen ") || file.starts_with("<eval_with_key>");
}

FrameOwner python_owner(const Frame& f) {
  const std::string& file = f.file;
  // PyTorch's own files wherever it lies (a source checkout, an editable
  // install), and the code it generates: Inductor's output modules, FX graphs.
  if (file.find("/torch/") != std::string::npos || file.find("/torchinductor_") != std::string::npos ||
      file.starts_with("<eval_with_key>"))
    return FrameOwner::Framework;
  if (file.find("/cudaleak/python/") != std::string::npos || basename(file).starts_with("cudaleak_"))
    return FrameOwner::Cudaleak;
  if (is_installed_python(f)) return FrameOwner::InstalledPython;
  return FrameOwner::User;
}

bool is_interpreter(std::string_view module) { return starts_with_any(module, {"python", "libpython", "_ctypes."}); }

// A framework's native code: its libraries by name, any extension module
// installed under site-packages (torch's _C, CuPy's Cython modules, jaxlib),
// and the namespaces of code that a framework's headers compile into the
// program (RMM) or a static link leaves without its library's name.
bool is_framework(const Frame& f) {
  const std::string m = basename(f.module);
  const std::string& path = f.module;
  if (starts_with_any(m, {"libtorch", "libc10", "libcaffe2", "libjax", "libxla", "libcupy", "librmm", "libtensorflow"}))
    return true;
  if (path.find("/site-packages/") != std::string::npos || path.find("/dist-packages/") != std::string::npos)
    return true;
  const std::string_view function = f.function;
  if (starts_with_any(function, {"c10::", "at::", "torch::", "rmm::", "xla::", "stream_executor::", "tsl::",
                                 "tensorflow::", "cupy::", "cupy_"}))
    return true;
  // The caching allocators' own code (gate/caching.cpp names them), also
  // where a static link or a test's stand-in puts it in the program.
  for (std::string_view marker : {"CUDACachingAllocator::", "CachingHostAllocator", "BFCAllocator::", "cupy_4cuda_"})
    if (function.find(marker) != std::string_view::npos) return true;
  return false;
}

}  // namespace

bool in_cuda_headers(const std::string& file) {
  if (file.empty()) return false;
  const std::string rooted = file.front() == '/' ? file : "/" + file;
  if (under_toolkit_include(rooted)) return true;
  // The toolkit's per-architecture layout (/usr/local/cuda/targets/x86_64-linux/include, conda's too).
  if (auto targets = rooted.find("/targets/");
      targets != std::string::npos && rooted.find("/include/", targets) != std::string::npos)
    return true;
  for (std::string_view segment :
       {"/thrust/", "/cub/", "/cuda/std/", "/cuda/__", "/nv/target", "/crt/", "/cooperative_groups/"})
    if (has_segment(rooted, segment)) return true;
  return is_runtime_header_name(basename(file));
}

bool is_python_code(const Frame& f) { return f.python || (f.module.empty() && is_python_file(f.file)); }

bool is_installed_python(const Frame& f) {
  const std::string& file = f.file;
  return file.find("/site-packages/") != std::string::npos || file.find("/dist-packages/") != std::string::npos ||
         file.find("/lib/python3.") != std::string::npos || file.find("/lib64/python3.") != std::string::npos ||
         file.starts_with("<frozen ");
}

bool is_system_frame(const Frame& f) {
  if (is_python_code(f)) return false;
  std::string m = basename(f.module);
  if (starts_with_any(m, {"libc.so", "libm.so", "ld-linux", "libstdc++", "libgcc_s", "libpthread", "libdl.so",
                          "libffi.so"}))
    return true;
  // Code of the system's headers compiled into the program (std::function's
  // invoker, an inlined std::vector): the compiler's, not the program's, and
  // it moves with the compiler's version.
  const std::string& file = f.file;
  if (file.starts_with("/usr/include/") || file.find("/include/c++/") != std::string::npos) return true;
  return f.function == "_start" || f.function == "__libc_start_main" || f.function == "__libc_start_call_main" ||
         f.function == "ffi_call";
}

FrameOwner owner_of(const Frame& f) {
  if (is_python_code(f)) return python_owner(f);
  if (basename(f.module).starts_with("libcudaleak")) return FrameOwner::Cudaleak;
  // By file first: cudaMalloc<float> of cuda_runtime.h is also named like the API.
  if (in_cuda_headers(f.file) || in_cuda_header_namespace(f.function)) return FrameOwner::CudaHeaders;
  if (is_cuda_frame(f)) return FrameOwner::Cuda;
  if (is_system_frame(f)) return FrameOwner::System;
  if (is_interpreter(basename(f.module))) return FrameOwner::Interpreter;
  if (is_framework(f)) return FrameOwner::Framework;
  return FrameOwner::User;
}

const char* owner_name(FrameOwner owner) {
  switch (owner) {
    case FrameOwner::User: return "user";
    case FrameOwner::Cuda: return "cuda";
    case FrameOwner::CudaHeaders: return "cuda_headers";
    case FrameOwner::System: return "system";
    case FrameOwner::Interpreter: return "interpreter";
    case FrameOwner::InstalledPython: return "installed_python";
    case FrameOwner::Framework: return "framework";
    case FrameOwner::Cudaleak: return "cudaleak";
  }
  return "user";
}

std::vector<const Frame*> user_frames(const std::vector<Frame>& stack) {
  std::vector<const Frame*> python, native;
  for (const Frame& f : stack)
    if (owner_of(f) == FrameOwner::User) (is_python_code(f) ? python : native).push_back(&f);
  return python.empty() ? native : python;
}

std::vector<const Frame*> program_frames(const std::vector<Frame>& stack) {
  std::vector<const Frame*> out = user_frames(stack);
  if (!out.empty()) return out;
  bool python = false;
  for (const Frame& f : stack) python |= is_python_code(f);
  for (const Frame& f : stack) {
    FrameOwner owner = owner_of(f);
    if (python ? is_python_code(f) && owner != FrameOwner::Cudaleak : owner == FrameOwner::Framework) out.push_back(&f);
  }
  return out;
}

const Frame* user_frame(const std::vector<Frame>& stack) {
  for (const Frame* f : program_frames(stack))
    if (!f->function.empty()) return f;
  return nullptr;
}

}  // namespace cudaleak::report
