#include "common/private_library.h"

#include <dlfcn.h>

#include <string>

namespace cudaleak {

std::string own_directory() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&own_directory), &info) || !info.dli_fname) return ".";
  std::string path = info.dli_fname;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

void* open_private_library(const char* soname, std::initializer_list<const char*> dependencies) {
  if (void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return h;
  // Beside the preload library (lib/), or beside the launcher (bin/ -> ../lib/).
  for (std::string dir : {own_directory() + "/cudaleak-deps/", own_directory() + "/../lib/cudaleak-deps/"}) {
    for (const char* dep : dependencies) {
      if (!dlopen(dep, RTLD_NOW | RTLD_LOCAL)) dlopen((dir + dep).c_str(), RTLD_NOW | RTLD_LOCAL);
    }
    if (void* h = dlopen((dir + soname).c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  }
  return nullptr;
}

}  // namespace cudaleak
