#include "cuda_frames.h"

#include <cctype>

namespace cudaleak::report {

std::string plain_name(const std::string& function) {
  auto end = function.find_first_of("(<");
  return end == std::string::npos ? function : function.substr(0, end);
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
  auto slash = module.rfind('/');
  std::string base = slash == std::string::npos ? module : module.substr(slash + 1);
  return base.rfind("libcu", 0) == 0 || base.rfind("libnccl", 0) == 0 || base.rfind("libnv", 0) == 0;
}

bool is_cuda_frame(const Frame& f) {
  // Static cudart's internal functions are local symbols named libcudart_static_<hash>.
  return in_cuda_library(f.module) || is_cuda_api_name(f.function) || f.function.rfind("libcudart_static_", 0) == 0;
}

}  // namespace cudaleak::report
