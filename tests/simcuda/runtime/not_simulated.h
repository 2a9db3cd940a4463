// What a runtime function the simulation does not model does (exports.cpp):
// print the one line once, set the error cudaGetLastError returns, and return
// cudaErrorNotSupported. Declared without CUDA headers for exports.cpp.
#pragma once

namespace simrt {
int not_simulated(const char* function);  // cudaErrorNotSupported
}  // namespace simrt
