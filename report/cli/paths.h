// Where the launcher finds what it preloads: beside itself, as laid out by the
// build (build/bin/cudaleak, build/lib/libcudaleak.so, build/lib/cudaleak/simcuda/).
#pragma once
#include <string>

namespace cudaleak::cli {
std::string self_directory();
std::string preload_library_path();
// sitecustomize.py and cudaleak_torch.py, for PYTHONPATH.
std::string python_directory();
std::string simcuda_directory();
}  // namespace cudaleak::cli
