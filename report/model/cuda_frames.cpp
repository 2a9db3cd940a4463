#include "cuda_frames.h"

#include <regex>

namespace cudaleak::report {

std::string plain_name(const std::string& function) {
  auto end = function.find_first_of("(<");
  return end == std::string::npos ? function : function.substr(0, end);
}

bool is_cuda_api_name(const std::string& function) {
  static const std::regex api("^(cu[a-z]*|nccl)[A-Z][A-Za-z0-9_]*$");
  return std::regex_match(plain_name(function), api);
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
