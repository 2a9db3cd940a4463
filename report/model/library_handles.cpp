#include "report/model/library_handles.h"

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

namespace {
std::string object_name(std::string_view create_api) {
  auto object = library_object(create_api);
  return object ? std::string(object->object) : std::string(create_api) + " handle";
}

constexpr std::array<std::string_view, 24> kCreates{"cublasCreate_v2",
                                                    "cublasCreate",
                                                    "cublasLtCreate",
                                                    "cudnnCreate",
                                                    "cufftCreate",
                                                    "cufftPlan1d",
                                                    "cufftPlan2d",
                                                    "cufftPlan3d",
                                                    "cufftPlanMany",
                                                    "cufftMakePlan1d",
                                                    "cufftMakePlan2d",
                                                    "cufftMakePlan3d",
                                                    "cufftMakePlanMany",
                                                    "cufftMakePlanMany64",
                                                    "cusparseCreate",
                                                    "cusolverDnCreate",
                                                    "cusolverSpCreate",
                                                    "curandCreateGenerator",
                                                    "curandCreateGeneratorHost",
                                                    "ncclCommInitRank",
                                                    "ncclCommInitRankConfig",
                                                    "ncclCommInitRankScalable",
                                                    "ncclCommInitAll",
                                                    "ncclCommSplit"};
}  // namespace

std::string count_objects(std::string_view create_api, unsigned long long count) {
  return std::to_string(count) + " " + object_name(create_api) + (count == 1 ? "" : "s");
}

std::string plural_objects(std::string_view create_api) { return object_name(create_api) + "s"; }

bool is_library_create(std::string_view function) {
  for (std::string_view name : kCreates)
    if (function == name) return true;
  return false;
}

std::string_view library_of_module(std::string_view module_path) {
  std::string_view base = module_path.substr(module_path.rfind('/') + 1);
  if (!base.starts_with("lib")) return {};
  base.remove_prefix(3);
  // Longest first, as kObjects; cuDNN ships as several objects (libcudnn_ops, ...).
  for (std::string_view library : {"cublasLt", "cublas", "cudnn", "cufft", "cusparse", "cusolver", "curand", "nccl"}) {
    if (!base.starts_with(library)) continue;
    const char next = base.size() > library.size() ? base[library.size()] : '\0';
    if (next == '.' || next == '_' || next == '\0' || (library == "cufft" && next == 'w')) return library;
  }
  return {};
}

bool handle_of_library(std::string_view create_api, std::string_view library) {
  if (library.empty() || !create_api.starts_with(library)) return false;
  return library != "cublas" || !create_api.starts_with("cublasLt");
}

bool gives_memory_to_caller(std::string_view function) {
  for (std::string_view name : {"ncclMemAlloc", "cufftXtMalloc", "cublasXtMalloc", "cublasAlloc"})
    if (function == name) return true;
  return false;
}

}  // namespace cudaleak::report
