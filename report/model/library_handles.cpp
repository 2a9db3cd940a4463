#include "library_handles.h"

#include <array>
#include <utility>

namespace cudaleak::report {

namespace {
// Longest prefix first: cublasLt before cublas, cusolverDn before cusolver.
constexpr std::array<std::pair<std::string_view, LibraryObject>, 9> kObjects{{
    {"cublasLt", {"cuBLASLt handle", "cublasLtDestroy"}},
    {"cublas", {"cuBLAS handle", "cublasDestroy"}},
    {"cudnn", {"cuDNN handle", "cudnnDestroy"}},
    {"cufft", {"cuFFT plan", "cufftDestroy"}},
    {"cusparse", {"cuSPARSE handle", "cusparseDestroy"}},
    {"cusolverDn", {"cuSOLVER dense handle", "cusolverDnDestroy"}},
    {"cusolverSp", {"cuSOLVER sparse handle", "cusolverSpDestroy"}},
    {"curand", {"cuRAND generator", "curandDestroyGenerator"}},
    {"nccl", {"NCCL communicator", "ncclCommDestroy"}},
}};
}  // namespace

std::optional<LibraryObject> library_object(std::string_view create_api) {
  for (const auto& [prefix, object] : kObjects)
    if (create_api.starts_with(prefix)) return object;
  return std::nullopt;
}

std::string count_objects(std::string_view create_api, unsigned long long count) {
  auto object = library_object(create_api);
  std::string name = object ? std::string(object->object) : std::string(create_api) + " handle";
  return std::to_string(count) + " " + name + (count == 1 ? "" : "s");
}

}  // namespace cudaleak::report
