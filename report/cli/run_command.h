// `cudaleak run [options] -- PROGRAM [ARGS...]`: runs a program with the
// preload library and returns its exit status unchanged.
#pragma once
#include <string>
#include <vector>

namespace cudaleak::cli {

struct RunSettings {
  std::vector<std::string> command;
  std::vector<std::pair<std::string, std::string>> options;  // CUDALEAK_OPTIONS entries
  bool simulated_gpu = false;
  std::string simulated_memory;  // e.g. "512MiB"
  std::string library_path;      // libcudaleak.so to preload
  std::string simcuda_dir;       // fake libcuda.so.1 / libcudart.so.13
};

// Runs the program; returns the status for the launcher to exit with. A
// program killed by a signal makes this process die of the same signal.
int run_program(const RunSettings& settings);

}  // namespace cudaleak::cli
