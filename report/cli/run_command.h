// `cudaleak run [options] -- PROGRAM [ARGS...]`: runs a program with the
// preload library and returns its exit status unchanged.
#pragma once
#include <cstdint>
#include <map>
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
  std::string python_dir;        // put first on PYTHONPATH; empty = leave PYTHONPATH alone
  bool pytorch_stacks = false;   // CUDALEAK_PYTORCH_STACKS=1 for cudaleak_torch.py
  int pytorch_stacks_at = 90;    // CUDALEAK_PYTORCH_STACKS_AT, percent of the device
  // --junit FILE, --sarif FILE: each file format's path by its name (output_formats.h).
  std::map<std::string, std::string, std::less<>> ci_files;
  std::string annotations;       // --annotations github|gitlab
  std::string annotations_path;  // --annotations-output FILE (github: stdout; gitlab: gl-code-quality-report.json)
  std::string source_root;       // --source-root DIR: SARIF locations relative to it
  int error_exitcode = 0;        // as passed to the processes, for the tree's verdict
  int gate_error_exitcode = 125;
};

// --simulated-gpu-memory: a decimal number of bytes, optionally with a
// fraction and a unit (B, K or KiB, M or MiB, G or GiB), as "512MiB" or
// "1.5GiB". Returns the problem, empty when `bytes` was set.
std::string parse_memory_size(const std::string& text, uint64_t& bytes);

// Runs the program and waits for the whole process tree it starts (the
// launcher is their subreaper), then gates on every process that used CUDA.
// Returns the status for the launcher to exit with: the program's own, or
// error_exitcode / gate_error_exitcode when a process of the tree failed the
// gate; 2, before the program starts, when a suppression or baseline file
// cannot be read or parsed. A program killed by a signal makes this process
// die of the same signal.
int run_program(const RunSettings& settings);

}  // namespace cudaleak::cli
