// Handles of NVIDIA's libraries (cuBLAS, cuBLASLt, cuDNN, cuFFT, cuSPARSE,
// cuSOLVER, cuRAND, NCCL), interposed by their exported create and destroy
// functions. Each create opens a library scope (tracker::LibraryCall): the
// streams, events and memory the library makes for the handle are recorded
// as belonging to it. Calls a library makes into another library (cuSOLVER
// creating its cuBLAS handle) stay inside the outer handle.
#include <atomic>

#include "interpose/hooks/hook.h"
#include "interpose/base/log.h"

using namespace cudaleak;
using libapi::Status;

namespace {

template <HookId id>
using LibraryFn = typename HookTraits<id>::Fn;

// The library's own function; nullptr only when the library is not loaded
// (our export was reached without it, e.g. through a stale function pointer).
template <HookId id>
LibraryFn<id> real_library_function() {
  ensure_initialized();
  note_cuda_seen();
  auto fn = reinterpret_cast<LibraryFn<id>>(real_function(id));
  if (!fn) {
    static std::atomic<bool> said{false};
    if (!said.exchange(true))
      log_message("%s was called but %s is not loaded; returning an error", hook_name(id), hook_info(id).library);
  }
  return fn;
}

// What each library returns for "not initialized" (its headers' values).
constexpr Status missing_library_status(Space space) {
  switch (space) {
    case Space::Cudnn: return 1001;  // CUDNN_STATUS_NOT_INITIALIZED
    case Space::Cufft: return 5;     // CUFFT_INTERNAL_ERROR
    case Space::Curand: return 203;  // CURAND_STATUS_INITIALIZATION_FAILED
    case Space::Nccl: return 3;      // ncclInternalError
    default: return 1;               // CUBLAS/CUSPARSE/CUSOLVER_STATUS_NOT_INITIALIZED
  }
}

// Some libraries hand the same handle out again while it is alive (cuBLASLt
// returns one reference-counted context): a second create is a reference,
// and the handle lives until as many destroys.
template <HookId id>
void record_handle(uint64_t handle) {
  tracker::reference_or_create(id, Kind::LibraryHandle, HookTraits<id>::space, handle);
}

// A create whose first argument receives the handle.
template <HookId id, typename Out, typename... Args>
Status create_first(Out* out, Args... args) {
  static_assert(HookTraits<id>::role == HookRole::Create);
  auto fn = real_library_function<id>();
  if (!fn) return missing_library_status(HookTraits<id>::space);
  tracker::LibraryCall call;
  Status s = fn(out, args...);
  if (s == 0 && out && call.outermost() && tracking_enabled()) record_handle<id>(as_handle(*out));
  return s;
}

template <HookId id, typename Handle>
Status destroy(Handle handle) {
  static_assert(HookTraits<id>::role == HookRole::Release);
  auto fn = real_library_function<id>();
  if (!fn) return missing_library_status(HookTraits<id>::space);
  tracker::LibraryCall call;
  if (!handle || !call.outermost() || !tracking_enabled()) return fn(handle);
  Status s = fn(handle);
  if (s == 0) tracker::reference_dropped(id, HookTraits<id>::space, as_handle(handle), CUDA_SUCCESS);
  return s;
}

}  // namespace

CUDALEAK_EXPORT Status cublasCreate_v2(void** handle) { return create_first<HookId::cublasCreate_v2>(handle); }
CUDALEAK_EXPORT Status cublasDestroy_v2(void* handle) { return destroy<HookId::cublasDestroy_v2>(handle); }
CUDALEAK_EXPORT Status cublasLtCreate(void** handle) { return create_first<HookId::cublasLtCreate>(handle); }
CUDALEAK_EXPORT Status cublasLtDestroy(void* handle) { return destroy<HookId::cublasLtDestroy>(handle); }
CUDALEAK_EXPORT Status cudnnCreate(void** handle) { return create_first<HookId::cudnnCreate>(handle); }
CUDALEAK_EXPORT Status cudnnDestroy(void* handle) { return destroy<HookId::cudnnDestroy>(handle); }
CUDALEAK_EXPORT Status cusparseCreate(void** handle) { return create_first<HookId::cusparseCreate>(handle); }
CUDALEAK_EXPORT Status cusparseDestroy(void* handle) { return destroy<HookId::cusparseDestroy>(handle); }
CUDALEAK_EXPORT Status cusolverDnCreate(void** handle) { return create_first<HookId::cusolverDnCreate>(handle); }
CUDALEAK_EXPORT Status cusolverDnDestroy(void* handle) { return destroy<HookId::cusolverDnDestroy>(handle); }
CUDALEAK_EXPORT Status cusolverSpCreate(void** handle) { return create_first<HookId::cusolverSpCreate>(handle); }
CUDALEAK_EXPORT Status cusolverSpDestroy(void* handle) { return destroy<HookId::cusolverSpDestroy>(handle); }

CUDALEAK_EXPORT Status cufftCreate(int* plan) { return create_first<HookId::cufftCreate>(plan); }
CUDALEAK_EXPORT Status cufftPlan1d(int* plan, int nx, int type, int batch) {
  return create_first<HookId::cufftPlan1d>(plan, nx, type, batch);
}
CUDALEAK_EXPORT Status cufftPlan2d(int* plan, int nx, int ny, int type) {
  return create_first<HookId::cufftPlan2d>(plan, nx, ny, type);
}
CUDALEAK_EXPORT Status cufftPlan3d(int* plan, int nx, int ny, int nz, int type) {
  return create_first<HookId::cufftPlan3d>(plan, nx, ny, nz, type);
}
CUDALEAK_EXPORT Status cufftPlanMany(int* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                                     int ostride, int odist, int type, int batch) {
  return create_first<HookId::cufftPlanMany>(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                                             batch);
}
CUDALEAK_EXPORT Status cufftDestroy(int plan) { return destroy<HookId::cufftDestroy>(plan); }

CUDALEAK_EXPORT Status curandCreateGenerator(void** generator, int type) {
  return create_first<HookId::curandCreateGenerator>(generator, type);
}
CUDALEAK_EXPORT Status curandCreateGeneratorHost(void** generator, int type) {
  return create_first<HookId::curandCreateGeneratorHost>(generator, type);
}
CUDALEAK_EXPORT Status curandDestroyGenerator(void* generator) {
  return destroy<HookId::curandDestroyGenerator>(generator);
}

CUDALEAK_EXPORT Status ncclCommInitRank(void** comm, int nranks, libapi::NcclUniqueId id, int rank) {
  return create_first<HookId::ncclCommInitRank>(comm, nranks, id, rank);
}
CUDALEAK_EXPORT Status ncclCommInitRankConfig(void** comm, int nranks, libapi::NcclUniqueId id, int rank,
                                              void* config) {
  return create_first<HookId::ncclCommInitRankConfig>(comm, nranks, id, rank, config);
}
CUDALEAK_EXPORT Status ncclCommInitRankScalable(void** comm, int nranks, int rank, int ids,
                                                libapi::NcclUniqueId* unique_ids, void* config) {
  return create_first<HookId::ncclCommInitRankScalable>(comm, nranks, rank, ids, unique_ids, config);
}
CUDALEAK_EXPORT Status ncclCommInitAll(void** comms, int ndev, const int* devlist) {
  // One communicator per device, all from one call.
  auto fn = real_library_function<HookId::ncclCommInitAll>();
  if (!fn) return missing_library_status(Space::Nccl);
  tracker::LibraryCall call;
  Status s = fn(comms, ndev, devlist);
  if (s == 0 && comms && call.outermost() && tracking_enabled())
    for (int i = 0; i < ndev; ++i) record_handle<HookId::ncclCommInitAll>(as_handle(comms[i]));
  return s;
}
CUDALEAK_EXPORT Status ncclCommSplit(void* comm, int color, int key, void** newcomm, void* config) {
  auto fn = real_library_function<HookId::ncclCommSplit>();
  if (!fn) return missing_library_status(Space::Nccl);
  tracker::LibraryCall call;
  Status s = fn(comm, color, key, newcomm, config);
  // NCCL_SPLIT_NOCOLOR gives no communicator (*newcomm == NULL).
  if (s == 0 && newcomm && *newcomm && call.outermost() && tracking_enabled())
    record_handle<HookId::ncclCommSplit>(as_handle(*newcomm));
  return s;
}
CUDALEAK_EXPORT Status ncclCommDestroy(void* comm) { return destroy<HookId::ncclCommDestroy>(comm); }
CUDALEAK_EXPORT Status ncclCommAbort(void* comm) { return destroy<HookId::ncclCommAbort>(comm); }
