// Handles of NVIDIA's libraries (cuBLAS, cuBLASLt, cuDNN, cuFFT, cuSPARSE,
// cuSOLVER, cuRAND, NCCL), interposed by their exported create and destroy
// functions, in the shape of the driver hooks (hook.h). Each call opens a
// library scope (tracker::LibraryCall): the streams, events and memory the
// library makes for the handle are recorded as belonging to it. Calls a
// library makes into another library (cuSOLVER creating its cuBLAS handle)
// stay inside the outer handle.
#include <atomic>

#include "interpose/hooks/hook.h"
#include "interpose/base/log.h"

using namespace cudaleak;
using libapi::Status;

namespace cudaleak::detail {

void say_library_missing(HookId id) {
  static std::atomic<bool> said[kHookCount];
  if (!said[static_cast<int>(id)].exchange(true))
    log_message("%s was called but %s is not loaded; returning an error", hook_name(id), hook_info(id).library);
}

}  // namespace cudaleak::detail

// A library whose create takes only the address of the new handle and whose
// destroy takes only the handle: its two rows and one line here.
#define CUDALEAK_HANDLE_FUNCTIONS(create, destroy)                                                   \
  CUDALEAK_EXPORT Status create(void** handle) { return create_into_first<HookId::create>(handle); } \
  CUDALEAK_EXPORT Status destroy(void* handle) { return release_first<HookId::destroy>(handle); }
CUDALEAK_HANDLE_FUNCTIONS(cublasCreate_v2, cublasDestroy_v2)
CUDALEAK_HANDLE_FUNCTIONS(cublasLtCreate, cublasLtDestroy)
CUDALEAK_HANDLE_FUNCTIONS(cudnnCreate, cudnnDestroy)
CUDALEAK_HANDLE_FUNCTIONS(cusparseCreate, cusparseDestroy)
CUDALEAK_HANDLE_FUNCTIONS(cusolverDnCreate, cusolverDnDestroy)
CUDALEAK_HANDLE_FUNCTIONS(cusolverSpCreate, cusolverSpDestroy)
#undef CUDALEAK_HANDLE_FUNCTIONS

CUDALEAK_EXPORT Status cufftCreate(int* plan) { return create_into_first<HookId::cufftCreate>(plan); }
CUDALEAK_EXPORT Status cufftPlan1d(int* plan, int nx, int type, int batch) {
  return create_into_first<HookId::cufftPlan1d>(plan, nx, type, batch);
}
CUDALEAK_EXPORT Status cufftPlan2d(int* plan, int nx, int ny, int type) {
  return create_into_first<HookId::cufftPlan2d>(plan, nx, ny, type);
}
CUDALEAK_EXPORT Status cufftPlan3d(int* plan, int nx, int ny, int nz, int type) {
  return create_into_first<HookId::cufftPlan3d>(plan, nx, ny, nz, type);
}
CUDALEAK_EXPORT Status cufftPlanMany(int* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                                     int ostride, int odist, int type, int batch) {
  return create_into_first<HookId::cufftPlanMany>(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type,
                                                  batch);
}
CUDALEAK_EXPORT Status cufftDestroy(int plan) { return release_first<HookId::cufftDestroy>(plan); }

CUDALEAK_EXPORT Status curandCreateGenerator(void** generator, int type) {
  return create_into_first<HookId::curandCreateGenerator>(generator, type);
}
CUDALEAK_EXPORT Status curandCreateGeneratorHost(void** generator, int type) {
  return create_into_first<HookId::curandCreateGeneratorHost>(generator, type);
}
CUDALEAK_EXPORT Status curandDestroyGenerator(void* generator) {
  return release_first<HookId::curandDestroyGenerator>(generator);
}

// cuRAND allocates a generator's state in its first curandGenerate*, and
// may again when the seed or offset changes: calls on the generator's behalf.
#define CUDALEAK_CURAND_USE(name, params, args) \
  CUDALEAK_EXPORT Status name params { return use_first<HookId::name> args; }
CUDALEAK_CURAND_USE(curandGenerate, (void* g, unsigned* out, size_t n), (g, out, n))
CUDALEAK_CURAND_USE(curandGenerateLongLong, (void* g, unsigned long long* out, size_t n), (g, out, n))
CUDALEAK_CURAND_USE(curandGenerateUniform, (void* g, float* out, size_t n), (g, out, n))
CUDALEAK_CURAND_USE(curandGenerateUniformDouble, (void* g, double* out, size_t n), (g, out, n))
CUDALEAK_CURAND_USE(curandGenerateNormal, (void* g, float* out, size_t n, float mean, float sd), (g, out, n, mean, sd))
CUDALEAK_CURAND_USE(curandGenerateNormalDouble, (void* g, double* out, size_t n, double mean, double sd),
                    (g, out, n, mean, sd))
CUDALEAK_CURAND_USE(curandGenerateLogNormal, (void* g, float* out, size_t n, float mean, float sd),
                    (g, out, n, mean, sd))
CUDALEAK_CURAND_USE(curandGenerateLogNormalDouble, (void* g, double* out, size_t n, double mean, double sd),
                    (g, out, n, mean, sd))
CUDALEAK_CURAND_USE(curandGeneratePoisson, (void* g, unsigned* out, size_t n, double lambda), (g, out, n, lambda))
CUDALEAK_CURAND_USE(curandGenerateSeeds, (void* g), (g))
CUDALEAK_CURAND_USE(curandSetPseudoRandomGeneratorSeed, (void* g, unsigned long long seed), (g, seed))
CUDALEAK_CURAND_USE(curandSetGeneratorOffset, (void* g, unsigned long long offset), (g, offset))
#undef CUDALEAK_CURAND_USE

CUDALEAK_EXPORT Status ncclCommInitRank(void** comm, int nranks, libapi::NcclUniqueId id, int rank) {
  return create_into_first<HookId::ncclCommInitRank>(comm, nranks, id, rank);
}
CUDALEAK_EXPORT Status ncclCommInitRankConfig(void** comm, int nranks, libapi::NcclUniqueId id, int rank,
                                              void* config) {
  return create_into_first<HookId::ncclCommInitRankConfig>(comm, nranks, id, rank, config);
}
CUDALEAK_EXPORT Status ncclCommInitRankScalable(void** comm, int nranks, int rank, int ids,
                                                libapi::NcclUniqueId* unique_ids, void* config) {
  return create_into_first<HookId::ncclCommInitRankScalable>(comm, nranks, rank, ids, unique_ids, config);
}
CUDALEAK_EXPORT Status ncclCommInitAll(void** comms, int ndev, const int* devlist) {
  // One communicator per device, all from one call.
  Hook<HookId::ncclCommInitAll> hook;
  Status s = hook.real(comms, ndev, devlist);
  if (s == 0 && hook.tracking() && comms)
    for (int i = 0; i < ndev; ++i) hook.created(as_handle(comms[i]));
  return s;
}
CUDALEAK_EXPORT Status ncclCommSplit(void* comm, int color, int key, void** newcomm, void* config) {
  Hook<HookId::ncclCommSplit> hook;
  Status s = hook.real(comm, color, key, newcomm, config);
  // NCCL_SPLIT_NOCOLOR gives no communicator (*newcomm == NULL).
  if (s == 0 && hook.tracking() && newcomm && *newcomm) hook.created(as_handle(*newcomm));
  return s;
}
CUDALEAK_EXPORT Status ncclCommDestroy(void* comm) { return release_first<HookId::ncclCommDestroy>(comm); }
CUDALEAK_EXPORT Status ncclCommAbort(void* comm) { return release_first<HookId::ncclCommAbort>(comm); }
