// One resource of every kind cudaleak tracks beyond memory, streams and
// events, made through the driver API, plus library handles (the stand-in
// cuBLAS and cuSOLVER). `leak` leaves them alive at exit; `clean` releases
// every one. Each step checks its result: the program fails loudly rather
// than leaving the test to guess.
#include <cuda.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" int cublasCreate_v2(void** handle);
extern "C" int cublasDestroy_v2(void* handle);
extern "C" int cublasLtCreate(void** handle);
extern "C" int cublasLtDestroy(void* handle);
extern "C" int cusolverDnCreate(void** handle);
extern "C" int cusolverDnDestroy(void* handle);

#include "../../common/primary_context.h"

struct Graphs {
  CUgraph created = nullptr, cloned = nullptr, captured = nullptr;
  CUgraphExec exec = nullptr;
  CUdeviceptr node_memory = 0, captured_memory = 0;
};

Graphs make_graphs(CUdevice dev) {
  Graphs g;
  CHECK(cuGraphCreate(&g.created, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS params{};
  params.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  params.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  params.bytesize = 1 << 20;
  CUgraphNode node;
  CHECK(cuGraphAddMemAllocNode(&node, g.created, nullptr, 0, &params));
  g.node_memory = params.dptr;
  CHECK(cuGraphClone(&g.cloned, g.created));
  // A graph that is never instantiated takes its allocation node's memory with it.
  CUgraph scratch;
  CHECK(cuGraphCreate(&scratch, 0));
  params.dptr = 0;
  CHECK(cuGraphAddMemAllocNode(&node, scratch, nullptr, 0, &params));
  CHECK(cuGraphDestroy(scratch));
  // Capture: an allocation made on the capturing stream is graph memory.
  CUstream stream;
  CHECK(cuStreamCreate(&stream, 0));
  CHECK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuMemAllocAsync(&g.captured_memory, 64 << 10, stream));
  CHECK(cuStreamEndCapture(stream, &g.captured));
  CHECK(cuStreamDestroy(stream));
  // Instantiated once, the allocation node's memory outlives the executable graph.
  CUgraphExec once;
  CHECK(cuGraphInstantiate(&once, g.created, 0));
  CHECK(cuGraphExecDestroy(once));
  CHECK(cuGraphInstantiate(&g.exec, g.captured, 0));
  return g;
}

void release(Graphs& g) {
  CHECK(cuGraphExecDestroy(g.exec));
  CHECK(cuMemFree(g.node_memory));
  CHECK(cuMemFree(g.captured_memory));
  CHECK(cuGraphDestroy(g.created));
  CHECK(cuGraphDestroy(g.cloned));
  CHECK(cuGraphDestroy(g.captured));
}

void* open_solver() {
  void* handle = nullptr;
  CHECK(cublasCreate_v2(&handle));
  return handle;
}

int main(int argc, char** argv) {
  bool leak = argc > 1 && std::strcmp(argv[1], "leak") == 0;
  CUdevice dev = use_primary_context();

  Graphs graphs = make_graphs(dev);

  static const char image[] = "fatbin stand-in";
  CUmodule module;
  CHECK(cuModuleLoadData(&module, image));
  CUlibrary library;
  CHECK(cuLibraryLoadData(&library, image, nullptr, nullptr, 0, nullptr, nullptr, 0));

  CUarray array;
  CUDA_ARRAY_DESCRIPTOR desc{64, 64, CU_AD_FORMAT_FLOAT, 1};
  CHECK(cuArrayCreate(&array, &desc));
  CUDA_RESOURCE_DESC resource{};
  resource.resType = CU_RESOURCE_TYPE_ARRAY;
  resource.res.array.hArray = array;
  CUDA_TEXTURE_DESC texture_desc{};
  CUtexObject texture;
  CHECK(cuTexObjectCreate(&texture, &resource, &texture_desc, nullptr));
  CUsurfObject surface;
  CHECK(cuSurfObjectCreate(&surface, &resource));

  // IPC within one process: the legacy handle, a pool pointer, a VMM handle.
  CUdeviceptr exported;
  CHECK(cuMemAlloc(&exported, 256 << 10));
  CUipcMemHandle ipc;
  CHECK(cuIpcGetMemHandle(&ipc, exported));
  CUdeviceptr opened;
  CHECK(cuIpcOpenMemHandle(&opened, ipc, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
  CUmemPoolPtrExportData pool_data;
  CHECK(cuMemPoolExportPointer(&pool_data, exported));
  CUdeviceptr imported;
  CHECK(cuMemPoolImportPointer(&imported, nullptr, &pool_data));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle vmm, vmm_imported;
  CHECK(cuMemCreate(&vmm, 2 << 20, &prop, 0));
  int fd = -1;
  CHECK(cuMemExportToShareableHandle(&fd, vmm, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemImportFromShareableHandle(&vmm_imported, reinterpret_cast<void*>(intptr_t(fd)),
                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));

  // A pool exported and imported again: the imported pool is this process's to destroy.
  CUmemPoolProps pool_props{};
  pool_props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  pool_props.location = {CU_MEM_LOCATION_TYPE_DEVICE, dev};
  pool_props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemoryPool pool_exported, pool_imported;
  CHECK(cuMemPoolCreate(&pool_exported, &pool_props));
  int pool_fd = -1;
  CHECK(cuMemPoolExportToShareableHandle(&pool_fd, pool_exported, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemPoolImportFromShareableHandle(&pool_imported, reinterpret_cast<void*>(intptr_t(pool_fd)),
                                           CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

  // External memory and a semaphore from file descriptors.
  int pipe_fds[2];
  CHECK(pipe(pipe_fds));
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC memory_desc{};
  memory_desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  memory_desc.handle.fd = pipe_fds[0];
  memory_desc.size = 8 << 20;
  CUexternalMemory external;
  CHECK(cuImportExternalMemory(&external, &memory_desc));
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer_desc{};
  buffer_desc.size = 1 << 20;
  CUdeviceptr mapped;
  CHECK(cuExternalMemoryGetMappedBuffer(&mapped, external, &buffer_desc));
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC semaphore_desc{};
  semaphore_desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  semaphore_desc.handle.fd = pipe_fds[1];
  CUexternalSemaphore semaphore;
  CHECK(cuImportExternalSemaphore(&semaphore, &semaphore_desc));

  // Library handles: three cuBLAS handles from one place, one destroyed,
  // and a cuSOLVER handle that owns a cuBLAS handle of its own.
  void* blas[4];
  for (void*& h : blas) h = open_solver();
  CHECK(cublasDestroy_v2(blas[3]));
  void* solver = nullptr;
  CHECK(cusolverDnCreate(&solver));
  // The same cuBLASLt handle twice, destroyed once: still one alive.
  void* lt[2];
  for (void*& h : lt) CHECK(cublasLtCreate(&h));
  CHECK(cublasLtDestroy(lt[0]));

  if (!leak) {
    release(graphs);
    CHECK(cuModuleUnload(module));
    CHECK(cuLibraryUnload(library));
    CHECK(cuTexObjectDestroy(texture));
    CHECK(cuSurfObjectDestroy(surface));
    CHECK(cuIpcCloseMemHandle(opened));
    CHECK(cuMemFree(imported));
    CHECK(cuMemRelease(vmm_imported));
    CHECK(cuMemPoolDestroy(pool_imported));
    CHECK(cuMemFree(mapped));
    CHECK(cuDestroyExternalMemory(external));
    CHECK(cuDestroyExternalSemaphore(semaphore));
    for (int i = 0; i < 3; ++i) CHECK(cublasDestroy_v2(blas[i]));
    CHECK(cusolverDnDestroy(solver));
    CHECK(cublasLtDestroy(lt[1]));
  }
  // Made for the exports above; released in both modes.
  CHECK(cuArrayDestroy(array));
  CHECK(cuMemPoolDestroy(pool_exported));
  CHECK(cuMemFree(exported));
  CHECK(cuMemRelease(vmm));
  std::puts(leak ? "leaked one of each" : "released everything");
  return 0;
}
