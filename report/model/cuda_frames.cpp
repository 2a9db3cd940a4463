#include "report/model/cuda_frames.h"

#include <string_view>

#include <cctype>

namespace cudaleak::report {

std::string plain_name(const std::string& function) {
  // "(anonymous namespace)::f()" is f's name, not the start of its parameters.
  static constexpr std::string_view anonymous = "(anonymous namespace)";
  size_t end = function.find_first_of("(<");
  while (end != std::string::npos && function.compare(end, anonymous.size(), anonymous) == 0)
    end = function.find_first_of("(<", end + anonymous.size());
  std::string name = end == std::string::npos ? function : function.substr(0, end);
  // A template instance is demangled with its return type in front; an
  // operator's name has a space of its own ("operator new").
  size_t space = name.rfind(' ');
  if (space != std::string::npos && name.find("operator") == std::string::npos &&
      name.find("(anonymous namespace)") == std::string::npos)
    name.erase(0, space + 1);
  return name;
}

// ^(cu[a-z]*|nccl)[A-Z][A-Za-z0-9_]*$, without std::regex: this runs in the
// exit report, after atexit handlers have destroyed function-local statics.
bool is_cuda_api_name(const std::string& function) {
  std::string name = plain_name(function);
  size_t i = 0;
  if (name.rfind("nccl", 0) == 0) {
    i = 4;
  } else if (name.rfind("cu", 0) == 0) {
    i = 2;
    while (i < name.size() && std::islower(static_cast<unsigned char>(name[i]))) ++i;
  } else {
    return false;
  }
  if (i >= name.size() || !std::isupper(static_cast<unsigned char>(name[i]))) return false;
  for (; i < name.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(name[i])) && name[i] != '_') return false;
  return true;
}

bool in_cuda_library(const std::string& module) {
  std::string base = basename(module);
  return base.rfind("libcu", 0) == 0 || base.rfind("libnccl", 0) == 0 || base.rfind("libnv", 0) == 0 ||
         base.rfind("libsanitizer", 0) == 0;  // the Compute Sanitizer API (device_heap's launch callbacks)
}

bool is_simulated_cuda_library(const std::string& module) {
  auto slash = module.rfind('/');
  if (slash == std::string::npos) return false;
  std::string dir = basename(module.substr(0, slash));
  std::string base = module.substr(slash + 1);
  if (dir != "simcuda") return false;
  for (const char* name : {"libcuda.so", "libcudart.so", "libnvidia-ml.so"})
    if (base.rfind(name, 0) == 0) return true;
  return false;
}

bool is_cuda_frame(const Frame& f) {
  // Static cudart's internal functions are local symbols named libcudart_static_<hash>.
  // nvcc's launch code compiled into the program: the kernel's stub
  // (__device_stub__..., in a .cudafe1.stub.c) and cudart's inline helper.
  const std::string& name = f.function;
  return in_cuda_library(f.module) || is_cuda_api_name(name) || name.rfind("libcudart_static_", 0) == 0 ||
         name.rfind("__device_stub__", 0) == 0 || name.rfind("__cudaLaunchKernel_helper", 0) == 0 ||
         std::string_view(f.file).ends_with(".cudafe1.stub.c");
}

std::string basename(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_library_api_name(const std::string& function) {
  if (!is_cuda_api_name(function)) return false;
  if (function.rfind("nccl", 0) == 0) return true;
  size_t lower = 2;
  while (std::islower(static_cast<unsigned char>(function[lower]))) ++lower;
  return lower > 2 && function.compare(0, lower, "cuda") != 0;
}

bool is_runtime_own_load(const std::vector<Frame>& stack) {
  if (stack.empty()) return false;
  const Frame& caller = stack.front();
  bool by_runtime = in_cuda_library(caller.module) || caller.function.rfind("libcudart_static_", 0) == 0 ||
                    caller.function.rfind("__cuda", 0) == 0 || caller.function.find("cudart::") != std::string::npos;
  // A statically linked library's code is the program's own: its loads are
  // known by the library call they happen in (cufftPlan1d loading cuFFT's kernels).
  for (const Frame& f : stack) by_runtime = by_runtime || (!f.python && is_library_api_name(f.function));
  if (!by_runtime) return false;
  for (const Frame& f : stack) {
    std::string name = plain_name(f.function);
    if (name == "cudaLibraryLoadData" || name == "cudaLibraryLoadFromFile") return false;
  }
  return true;
}

bool is_program_entry(const Frame& f) { return f.python ? f.function == "<module>" : f.function == "main"; }

}  // namespace cudaleak::report
