// The runtime API's graphs, textures, surfaces and arrays, as a program calls
// them (through libcudart, which calls the driver): `leak` leaves one of each,
// `clean` destroys them all. Under the simulated GPU, its libcudart.so.13.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstring>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t e = (call);                                                      \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e));     \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

int main(int argc, char** argv) {
  const bool leak = argc > 1 && std::strcmp(argv[1], "leak") == 0;
  const cudaChannelFormatDesc format = {32, 0, 0, 0, cudaChannelFormatKindFloat};

  // A graph built node by node, with an allocation node; and one captured from a stream.
  cudaGraph_t built, captured;
  CHECK(cudaGraphCreate(&built, 0));
  cudaMemAllocNodeParams alloc{};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = 1 << 20;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddMemAllocNode(&node, built, nullptr, 0, &alloc));
  cudaGraphNode_t free_node;
  CHECK(cudaGraphAddMemFreeNode(&free_node, built, &node, 1, alloc.dptr));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamEndCapture(stream, &captured));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  cudaGraph_t clone;
  CHECK(cudaGraphClone(&clone, built));

  // Arrays, and a texture and a surface over them.
  cudaArray_t array2d, array3d;
  CHECK(cudaMallocArray(&array2d, &format, 64, 64, cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&array3d, &format, cudaExtent{16, 16, 4}, 0));
  cudaMipmappedArray_t mipmapped;
  CHECK(cudaMallocMipmappedArray(&mipmapped, &format, cudaExtent{64, 64, 0}, 4, 0));
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array2d;
  cudaTextureDesc sampling{};
  sampling.readMode = cudaReadModeElementType;
  cudaTextureObject_t texture;
  CHECK(cudaCreateTextureObject(&texture, &resource, &sampling, nullptr));
  cudaSurfaceObject_t surface;
  CHECK(cudaCreateSurfaceObject(&surface, &resource));

  // An IPC handle of a buffer (opened by another process; exporting makes nothing).
  void* buffer;
  CHECK(cudaMalloc(&buffer, 4096));
  cudaIpcMemHandle_t handle;
  CHECK(cudaIpcGetMemHandle(&handle, buffer));
  CHECK(cudaFree(buffer));

  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaGraphDestroy(clone));
  if (leak) {
    std::puts("left: a graph, an executable graph, a texture, a surface, three arrays");
    return 0;
  }
  CHECK(cudaDestroySurfaceObject(surface));
  CHECK(cudaDestroyTextureObject(texture));
  CHECK(cudaFreeMipmappedArray(mipmapped));
  CHECK(cudaFreeArray(array3d));
  CHECK(cudaFreeArray(array2d));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaGraphDestroy(built));
  std::puts("all destroyed");
  return 0;
}
