// Graphs of the simulated driver: creation, cloning, stream capture,
// instantiation, and allocation nodes whose memory is allocated when the node
// is added (the real driver reserves the address then) and freed by a free
// node, cuMemFree, or destroying a graph that was never instantiated.
#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {

void* new_graph(State& sim) {
  CUcontext ctx = current_context();
  void* g = new_handle(Object::Graph, ctx ? device_of(ctx) : 0, nullptr);
  std::lock_guard lock(sim.mutex);
  sim.graphs[g];
  return g;
}

CUresult add_allocation(State& sim, CUgraph graph, size_t bytes, int device, CUdeviceptr* dptr) {
  void* p = nullptr;
  if (CUresult r = sim.allocate(device, bytes, nullptr, true, &p); r != CUDA_SUCCESS) return r;
  *dptr = CUdeviceptr(p);
  std::lock_guard lock(sim.mutex);
  sim.graphs[graph].allocations.push_back(uintptr_t(p));
  return CUDA_SUCCESS;
}

CUresult instantiate(CUgraphExec* exec, CUgraph graph) {
  auto& sim = State::get();
  if (!exec || !valid(graph, Object::Graph)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *exec = reinterpret_cast<CUgraphExec>(new_handle(Object::GraphExec, device_of(ctx), ctx));
  std::lock_guard lock(sim.mutex);
  sim.graphs[graph].instantiated = true;
  return CUDA_SUCCESS;
}

CUresult begin_capture(CUstream stream) {
  auto& sim = State::get();
  if (!valid(stream, Object::Stream)) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  void* g = new_graph(sim);
  std::lock_guard lock(sim.mutex);
  sim.capturing[stream] = g;
  return CUDA_SUCCESS;
}

CUresult end_capture(CUstream stream, CUgraph* graph) {
  auto& sim = State::get();
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  auto it = sim.capturing.find(stream);
  if (it == sim.capturing.end()) return CUDA_ERROR_ILLEGAL_STATE;
  *graph = static_cast<CUgraph>(it->second);
  sim.capturing.erase(it);
  return CUDA_SUCCESS;
}

CUresult capture_info(CUstream stream, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph) {
  auto& sim = State::get();
  if (!status) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  auto it = sim.capturing.find(stream);
  *status = it == sim.capturing.end() ? CU_STREAM_CAPTURE_STATUS_NONE : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  if (id) *id = it == sim.capturing.end() ? 0 : uint64_t(uintptr_t(it->second));
  if (graph) *graph = it == sim.capturing.end() ? nullptr : static_cast<CUgraph>(it->second);
  return CUDA_SUCCESS;
}

}  // namespace

namespace simcuda {
// The graph `stream` is being captured into (nullptr: none); used by the
// stream-ordered allocator, whose allocations become allocation nodes.
void* capture_graph_of(CUstream stream) {
  auto& sim = State::get();
  std::lock_guard lock(sim.mutex);
  auto it = sim.capturing.find(stream);
  return it == sim.capturing.end() ? nullptr : it->second;
}
void add_to_graph(void* graph, uintptr_t allocation) {
  auto& sim = State::get();
  std::lock_guard lock(sim.mutex);
  sim.graphs[graph].allocations.push_back(allocation);
}
}  // namespace simcuda

SIM_EXPORT CUresult cuGraphCreate(CUgraph* graph, unsigned int) {
  SIM_ENTRY("cuGraphCreate");
  if (!graph) return CUDA_ERROR_INVALID_VALUE;
  *graph = static_cast<CUgraph>(new_graph(sim));
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuGraphClone(CUgraph* clone, CUgraph original) {
  SIM_ENTRY("cuGraphClone");
  if (!clone || !valid(original, Object::Graph)) return CUDA_ERROR_INVALID_VALUE;
  *clone = static_cast<CUgraph>(new_graph(sim));
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuGraphDestroy(CUgraph graph) {
  SIM_ENTRY("cuGraphDestroy");
  if (!valid(graph, Object::Graph)) return CUDA_ERROR_INVALID_VALUE;
  reinterpret_cast<Handle*>(graph)->alive = false;
  State::Graph g;
  {
    std::lock_guard lock(sim.mutex);
    g = sim.graphs[graph];
    sim.graphs.erase(graph);
  }
  // Memory of a graph that never ran was never handed to anyone.
  if (!g.instantiated)
    for (uintptr_t a : g.allocations) sim.release(a);
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuGraphAddMemAllocNode(CUgraphNode* node, CUgraph graph, const CUgraphNode*, size_t,
                                           CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  SIM_ENTRY("cuGraphAddMemAllocNode");
  if (!node || !params || !valid(graph, Object::Graph)) return CUDA_ERROR_INVALID_VALUE;
  *node = reinterpret_cast<CUgraphNode>(new_handle(Object::Graph, 0, nullptr));
  return add_allocation(sim, graph, params->bytesize, params->poolProps.location.id, &params->dptr);
}
SIM_EXPORT CUresult cuGraphAddMemFreeNode(CUgraphNode* node, CUgraph graph, const CUgraphNode*, size_t,
                                          CUdeviceptr dptr) {
  SIM_ENTRY("cuGraphAddMemFreeNode");
  if (!node || !valid(graph, Object::Graph)) return CUDA_ERROR_INVALID_VALUE;
  *node = reinterpret_cast<CUgraphNode>(new_handle(Object::Graph, 0, nullptr));
  return sim.release(dptr);
}
SIM_EXPORT CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long) {
  SIM_ENTRY("cuGraphInstantiateWithFlags");
  return instantiate(exec, graph);
}
SIM_EXPORT CUresult cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph, CUDA_GRAPH_INSTANTIATE_PARAMS*) {
  SIM_ENTRY("cuGraphInstantiateWithParams");
  return instantiate(exec, graph);
}
SIM_EXPORT CUresult cuGraphLaunch(CUgraphExec exec, CUstream) {
  SIM_ENTRY("cuGraphLaunch");
  return valid(exec, Object::GraphExec) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
SIM_EXPORT CUresult cuGraphExecDestroy(CUgraphExec exec) {
  SIM_ENTRY("cuGraphExecDestroy");
  if (!valid(exec, Object::GraphExec)) return CUDA_ERROR_INVALID_VALUE;
  reinterpret_cast<Handle*>(exec)->alive = false;
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuStreamBeginCapture_v2(CUstream stream, CUstreamCaptureMode) {
  SIM_ENTRY("cuStreamBeginCapture_v2");
  return begin_capture(stream);
}
SIM_EXPORT CUresult cuStreamEndCapture(CUstream stream, CUgraph* graph) {
  SIM_ENTRY("cuStreamEndCapture");
  return end_capture(stream, graph);
}
SIM_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream stream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                              CUgraph* graph, const CUgraphNode**, size_t*) {
  SIM_ENTRY("cuStreamGetCaptureInfo_v2");
  return capture_info(stream, status, id, graph);
}
