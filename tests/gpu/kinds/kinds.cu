// Every CUDA object kind beyond memory, streams and events, on a real GPU,
// through the runtime API where it has one. `leak` leaves one or more of each
// alive; `clean` releases everything. tests/cases/kinds/real_every_kind.sh
// asserts the counts.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../../common/check_call.h"

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

static const char kPtx[] = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry noop() { ret; }
)";

constexpr int kCapturedGraphs = 100;

int main(int argc, char** argv) {
  bool leak = argc > 1 && std::strcmp(argv[1], "leak") == 0;
  const int n = 1 << 16;
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  // A graph captured on every iteration, as jacobiCudaGraphs does; leaked each time in `leak`.
  for (int i = 0; i < kCapturedGraphs; ++i) {
    cudaGraph_t graph;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    scale<<<n / 256, 256, 0, stream>>>(x, n);
    CHECK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaGraphExecDestroy(exec));
    if (!leak) CHECK(cudaGraphDestroy(graph));
  }

  // An allocation node in a graph that runs: its memory outlives the graph.
  cudaGraph_t built;
  CHECK(cudaGraphCreate(&built, 0));
  cudaMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location = {cudaMemLocationTypeDevice, 0};
  alloc.bytesize = 8 << 20;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddMemAllocNode(&node, built, nullptr, 0, &alloc));
  cudaGraphExec_t built_exec;
  CHECK(cudaGraphInstantiate(&built_exec, built, 0));
  CHECK(cudaGraphLaunch(built_exec, stream));

  // An allocation made while capturing: graph memory too.
  cudaGraph_t captured;
  void* captured_memory = nullptr;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync(&captured_memory, 4 << 20, stream));
  CHECK(cudaStreamEndCapture(stream, &captured));
  cudaGraphExec_t captured_exec;
  CHECK(cudaGraphInstantiate(&captured_exec, captured, 0));
  CHECK(cudaGraphLaunch(captured_exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  // A module and a library loaded from PTX.
  CHECK(cuInit(0));
  CUmodule module;
  CHECK(cuModuleLoadData(&module, kPtx));
  cudaLibrary_t library;
  CHECK(cudaLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0));

  // Texture and surface objects over an array.
  cudaArray_t array;
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocArray(&array, &format, 64, 64, cudaArraySurfaceLoadStore));
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture_desc{};
  texture_desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t texture;
  CHECK(cudaCreateTextureObject(&texture, &resource, &texture_desc, nullptr));
  cudaSurfaceObject_t surface;
  CHECK(cudaCreateSurfaceObject(&surface, &resource));

  // A VMM allocation exported as a file descriptor and imported again.
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t granularity = 0;
  CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle vmm, imported;
  CHECK(cuMemCreate(&vmm, granularity, &prop, 0));
  int fd = -1;
  CHECK(cuMemExportToShareableHandle(&fd, vmm, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(cuMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t(fd)),
                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));

  if (!leak) {
    CHECK(cudaGraphExecDestroy(built_exec));
    CHECK(cudaGraphExecDestroy(captured_exec));
    CHECK(cudaFree(alloc.dptr));
    CHECK(cudaFree(captured_memory));
    CHECK(cudaGraphDestroy(built));
    CHECK(cudaGraphDestroy(captured));
    CHECK(cuModuleUnload(module));
    CHECK(cudaLibraryUnload(library));
    CHECK(cudaDestroyTextureObject(texture));
    CHECK(cudaDestroySurfaceObject(surface));
    CHECK(cuMemRelease(imported));
  }
  CHECK(cuMemRelease(vmm));
  CHECK(cudaFreeArray(array));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(x));
  std::printf("%s\n", leak ? "left objects alive" : "released everything");
  return 0;
}
