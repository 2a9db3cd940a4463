// What counts as CUDA's own code in a stack: frames inside NVIDIA's libraries
// and frames named like a public CUDA API. Used for API attribution, leak site
// identity and suggested suppressions.
#pragma once
#include <string>

#include "report.h"

namespace cudaleak::report {

// cudaMalloc, cuMemAlloc_v2, cublasCreate_v2, cudnnCreate, ncclCommInitRank
// (template arguments and parameter lists ignored).
bool is_cuda_api_name(const std::string& function);
// libcudart*, libcuda*, libcublas*, libcudnn*, libnccl*, libnv* (and cudaleak itself).
bool in_cuda_library(const std::string& module_path);
bool is_cuda_frame(const Frame& frame);
// "cudaMalloc<float>(float**, unsigned long)" -> "cudaMalloc"
std::string plain_name(const std::string& function);

}  // namespace cudaleak::report
