// What counts as CUDA's own code in a stack: frames inside NVIDIA's libraries
// and frames named like a public CUDA API. Used for API attribution; whose
// code a frame is (the user's or a library's) is report/model/frame_owner.h's.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::report {

// cudaMalloc, cuMemAlloc_v2, cublasCreate_v2, cudnnCreate, ncclCommInitRank
// (template arguments and parameter lists ignored).
bool is_cuda_api_name(const std::string& function);
// The API of one of NVIDIA's libraries (cublasCreate_v2, cufftPlan1d,
// cudnnCreate, ncclCommInitRank), not the runtime's or the driver's.
bool is_library_api_name(const std::string& function);
// libcudart*, libcuda*, libcublas*, libcudnn*, libnccl*, libnv* (and cudaleak itself).
bool in_cuda_library(const std::string& module_path);
// The simulated GPU's libcuda.so.1, libcudart.so.13 and libnvidia-ml.so.1
// (tests/simcuda), known by their directory, simcuda (build/lib/cudaleak/simcuda,
// lib/cudaleak/simcuda installed). Symbolized as NVIDIA's libraries are, by
// symbol only, never with their source file and line: a stack under the
// simulated GPU reads as it does on a real one (`cudaMalloc (libcudart.so.13)`).
bool is_simulated_cuda_library(const std::string& module_path);
bool is_cuda_frame(const Frame& frame);
// "cudaMalloc<float>(float**, unsigned long)" -> "cudaMalloc"; a template
// instance's return type goes too ("cudaError cudaMalloc<float>(...)").
std::string plain_name(const std::string& function);
// Where the program starts (C main, a Python module's top level): outward
// from here nothing names the program's code.
bool is_program_entry(const Frame& frame);
// "path/to/file.py" -> "file.py"
std::string basename(const std::string& path);

// A module or library loaded by the CUDA runtime for its own device code
// (cudart's lazy loading, a CUDA library's embedded runtime): the load was
// made by runtime or library code (the innermost frame) or inside a call of a
// library's API (a statically linked library), and no frame is the runtime's
// explicit load API (cudaLibraryLoadData, cudaLibraryLoadFromFile).
bool is_runtime_own_load(const std::vector<Frame>& stack);

}  // namespace cudaleak::report
