#include "report/cli/paths.h"

#include <unistd.h>

#include <cstdlib>

namespace cudaleak::cli {

std::string self_directory() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string path(buf, size_t(n));
  return path.substr(0, path.rfind('/'));
}

std::string preload_library_path() {
  if (const char* lib = std::getenv("CUDALEAK_LIBRARY")) return lib;  // an installed layout may differ
  return self_directory() + "/../lib/libcudaleak.so";
}

std::string python_directory() { return self_directory() + "/../lib/cudaleak/python"; }

std::string simcuda_directory() { return self_directory() + "/../lib/cudaleak/simcuda"; }

}  // namespace cudaleak::cli
