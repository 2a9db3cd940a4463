// CUDA graphs: graphs (created, cloned, captured), executable graphs (every
// instantiate variant) and the memory of graph allocation nodes.
#include <atomic>
#include <tuple>

#include "interpose/hooks/graph_capture.h"
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

std::atomic<bool> g_capture_begun{false};

template <HookId id, typename... Args>
CUresult begin_capture(Args... args) {
  g_capture_begun.store(true, std::memory_order_relaxed);
  Hook<id> hook;
  return hook.real(args...);
}

template <HookId id>
CUresult end_capture(CUstream stream, CUgraph* graph) {
  Hook<id> hook;
  CUresult r = hook.real(stream, graph);
  // Capturing into an existing graph (cuStreamBeginCaptureToGraph) hands back
  // that graph: its record is replaced, the count stays one.
  if (r == CUDA_SUCCESS && hook.tracking() && graph && *graph) hook.created(as_handle(*graph), 0, current_placement());
  return r;
}

template <HookId id, typename... Args>
CUresult instantiate(CUgraphExec* exec, CUgraph graph, Args... args) {
  Hook<id> hook;
  CUresult r = hook.real(exec, graph, args...);
  if (r == CUDA_SUCCESS && hook.tracking() && exec) {
    hook.created(as_handle(*exec), 0, current_placement());
    tracker::graph_instantiated(as_handle(graph));
  }
  return r;
}

// An allocation node's memory: its address is fixed when the node is added.
template <HookId id>
void record_graph_memory(const Hook<id>& hook, CUgraph graph, CUdeviceptr dptr, size_t bytes,
                         const CUmemLocation& location) {
  tracker::Placement where = current_placement();
  if (location.type == CU_MEM_LOCATION_TYPE_DEVICE) where.device = location.id;
  hook.created_graph_memory(dptr, bytes, where, as_handle(graph));
}

template <HookId id, typename... Deps>
CUresult add_node(CUgraphNode* node, CUgraph graph, Deps... deps_then_params) {
  Hook<id> hook;
  CUgraphNodeParams* params = std::get<sizeof...(Deps) - 1>(std::tuple<Deps...>(deps_then_params...));
  if (params && params->type == CU_GRAPH_NODE_TYPE_MEM_FREE && hook.tracking())
    return hook.release(params->free.dptr, node, graph, deps_then_params...);
  CUresult r = hook.real(node, graph, deps_then_params...);
  if (r == CUDA_SUCCESS && hook.tracking() && params && params->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC)
    record_graph_memory(hook, graph, params->alloc.dptr, params->alloc.bytesize, params->alloc.poolProps.location);
  return r;
}

}  // namespace

namespace cudaleak {

uint64_t capturing_graph(CUstream stream, bool per_thread) {
  if (!g_capture_begun.load(std::memory_order_relaxed)) return 0;
  static std::atomic<PFN_cuStreamGetCaptureInfo_v11030> info{nullptr};
  auto fn = tracker::cached_driver_function(info, "cuStreamGetCaptureInfo", 11030);
  if (!fn) return 0;
  if (per_thread && !stream) stream = CU_STREAM_PER_THREAD;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  CUgraph graph = nullptr;
  if (fn(stream, &status, nullptr, &graph, nullptr, nullptr) != CUDA_SUCCESS) return 0;
  return status == CU_STREAM_CAPTURE_STATUS_ACTIVE ? as_handle(graph) : 0;
}

}  // namespace cudaleak

CUDALEAK_EXPORT CUresult CUDAAPI cuGraphCreate(CUgraph* graph, unsigned int flags) {
  return create_into_first<HookId::cuGraphCreate>(graph, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphClone(CUgraph* clone, CUgraph original) {
  return create_into_first<HookId::cuGraphClone>(clone, original);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphDestroy(CUgraph graph) {
  Hook<HookId::cuGraphDestroy> hook;
  CUresult r = hook.release(as_handle(graph), graph);
  if (r == CUDA_SUCCESS && hook.tracking()) tracker::graph_destroyed(as_handle(graph));
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCapture(CUstream stream) {
  return begin_capture<HookId::cuStreamBeginCapture>(stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCapture_ptsz(CUstream stream) {
  return begin_capture<HookId::cuStreamBeginCapture_ptsz>(stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCapture_v2(CUstream stream, CUstreamCaptureMode mode) {
  return begin_capture<HookId::cuStreamBeginCapture_v2>(stream, mode);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCapture_v2_ptsz(CUstream stream, CUstreamCaptureMode mode) {
  return begin_capture<HookId::cuStreamBeginCapture_v2_ptsz>(stream, mode);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCaptureToGraph(CUstream stream, CUgraph graph, const CUgraphNode* deps,
                                                             const CUgraphEdgeData* edges, size_t count,
                                                             CUstreamCaptureMode mode) {
  return begin_capture<HookId::cuStreamBeginCaptureToGraph>(stream, graph, deps, edges, count, mode);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamBeginCaptureToGraph_ptsz(CUstream stream, CUgraph graph,
                                                                  const CUgraphNode* deps, const CUgraphEdgeData* edges,
                                                                  size_t count, CUstreamCaptureMode mode) {
  return begin_capture<HookId::cuStreamBeginCaptureToGraph_ptsz>(stream, graph, deps, edges, count, mode);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamEndCapture(CUstream stream, CUgraph* graph) {
  return end_capture<HookId::cuStreamEndCapture>(stream, graph);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamEndCapture_ptsz(CUstream stream, CUgraph* graph) {
  return end_capture<HookId::cuStreamEndCapture_ptsz>(stream, graph);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGraphInstantiate(CUgraphExec* exec, CUgraph graph, CUgraphNode* error_node,
                                                    char* log, size_t log_size) {
  return instantiate<HookId::cuGraphInstantiate>(exec, graph, error_node, log, log_size);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphInstantiate_v2(CUgraphExec* exec, CUgraph graph, CUgraphNode* error_node,
                                                       char* log, size_t log_size) {
  return instantiate<HookId::cuGraphInstantiate_v2>(exec, graph, error_node, log, log_size);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph,
                                                             unsigned long long flags) {
  return instantiate<HookId::cuGraphInstantiateWithFlags>(exec, graph, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph,
                                                              CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  return instantiate<HookId::cuGraphInstantiateWithParams>(exec, graph, params);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphInstantiateWithParams_ptsz(CUgraphExec* exec, CUgraph graph,
                                                                   CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  return instantiate<HookId::cuGraphInstantiateWithParams_ptsz>(exec, graph, params);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec exec) {
  return release_first<HookId::cuGraphExecDestroy>(exec);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps,
                                                        size_t count, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  Hook<HookId::cuGraphAddMemAllocNode> hook;
  CUresult r = hook.real(node, graph, deps, count, params);
  check_out_of_memory(hook, r, params ? params->bytesize : 0);
  if (r == CUDA_SUCCESS && hook.tracking() && params)
    record_graph_memory(hook, graph, params->dptr, params->bytesize, params->poolProps.location);
  return r;
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps,
                                                       size_t count, CUdeviceptr dptr) {
  // The free is counted when the node is added: from then on the graph owns it.
  Hook<HookId::cuGraphAddMemFreeNode> hook;
  return hook.release(dptr, node, graph, deps, count, dptr);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphAddNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps, size_t count,
                                                CUgraphNodeParams* params) {
  return add_node<HookId::cuGraphAddNode>(node, graph, deps, count, params);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuGraphAddNode_v2(CUgraphNode* node, CUgraph graph, const CUgraphNode* deps,
                                                   const CUgraphEdgeData* edges, size_t count,
                                                   CUgraphNodeParams* params) {
  return add_node<HookId::cuGraphAddNode_v2>(node, graph, deps, edges, count, params);
}
