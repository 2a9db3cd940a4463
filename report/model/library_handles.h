// NVIDIA library handles as users name them: the object a create function
// makes and the function that destroys it (kind library_handle).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace cudaleak::report {

struct LibraryObject {
  std::string_view object;   // "cuBLAS handle"
  std::string_view destroy;  // "cublasDestroy"
};

// The object made by `create_api` (cublasCreate_v2, cufftPlan1d, ncclCommInitRank, ...).
std::optional<LibraryObject> library_object(std::string_view create_api);

// "3 cuBLAS handles" / "1 cuFFT plan"; the API itself when it is not known.
std::string count_objects(std::string_view create_api, unsigned long long count);
// "cuBLAS handles": for handles whose number is not known.
std::string plural_objects(std::string_view create_api);

// A function that creates a library handle (plain name): the create
// functions cudaleak interposes (interpose/driver/hook_table.h) and cuFFT's
// plan makers. A frame of one in a stack means the resource was made for a
// handle, which is how handles of statically linked libraries are found.
bool is_library_create(std::string_view function);

// The library an object file is (libnccl.so.2: "nccl", libcublasLt.so.13:
// "cublasLt"), as the prefix of its create functions; empty for any other.
std::string_view library_of_module(std::string_view module_path);
// Whether a handle made by `create_api` is one of `library`'s (as
// library_of_module names it): cuBLASLt's handles are not cuBLAS's.
bool handle_of_library(std::string_view create_api, std::string_view library);
// A library function that hands memory to its caller (ncclMemAlloc,
// cufftXtMalloc): what it makes is the program's, not a handle's.
bool gives_memory_to_caller(std::string_view function);

}  // namespace cudaleak::report
