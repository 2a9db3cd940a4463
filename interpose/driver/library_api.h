// Create and destroy entry points of NVIDIA's libraries, declared here with
// the C ABI each library exports (status codes are C enums: int, 0 = success;
// handles are opaque pointers, cuFFT plans are ints). Their headers are not
// included: cuDNN and NCCL are not part of the toolkit, and including cuBLAS's
// header would clash with the exported wrappers of the same names.
#pragma once
#include <cstddef>

namespace cudaleak::libapi {

using Status = int;
struct NcclUniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};

using PFN_create = Status (*)(void** handle);
using PFN_destroy = Status (*)(void* handle);
using PFN_curandCreateGenerator = Status (*)(void** generator, int type);
// cuRAND's calls that take a generator first (curand.h): what they make belongs to it.
using PFN_curandGenerate = Status (*)(void* generator, unsigned* out, size_t n);
using PFN_curandGenerateLongLong = Status (*)(void* generator, unsigned long long* out, size_t n);
using PFN_curandGenerateUniform = Status (*)(void* generator, float* out, size_t n);
using PFN_curandGenerateUniformDouble = Status (*)(void* generator, double* out, size_t n);
using PFN_curandGenerateNormal = Status (*)(void* generator, float* out, size_t n, float mean, float stddev);
using PFN_curandGenerateNormalDouble = Status (*)(void* generator, double* out, size_t n, double mean, double stddev);
using PFN_curandGeneratePoisson = Status (*)(void* generator, unsigned* out, size_t n, double lambda);
using PFN_curandSetSeed = Status (*)(void* generator, unsigned long long value);  // seed, offset
using PFN_cufftCreate = Status (*)(int* plan);
using PFN_cufftPlan1d = Status (*)(int* plan, int nx, int type, int batch);
using PFN_cufftPlan2d = Status (*)(int* plan, int nx, int ny, int type);
using PFN_cufftPlan3d = Status (*)(int* plan, int nx, int ny, int nz, int type);
using PFN_cufftPlanMany = Status (*)(int* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                                     int ostride, int odist, int type, int batch);
using PFN_cufftDestroy = Status (*)(int plan);
using PFN_ncclCommInitRank = Status (*)(void** comm, int nranks, NcclUniqueId id, int rank);
using PFN_ncclCommInitRankConfig = Status (*)(void** comm, int nranks, NcclUniqueId id, int rank, void* config);
using PFN_ncclCommInitAll = Status (*)(void** comms, int ndev, const int* devlist);
using PFN_ncclCommSplit = Status (*)(void* comm, int color, int key, void** newcomm, void* config);
using PFN_ncclCommInitRankScalable = Status (*)(void** newcomm, int nranks, int myrank, int nId, NcclUniqueId* commIds,
                                                void* config);

}  // namespace cudaleak::libapi
