// Stream capture, as the stream-ordered allocator hooks need it: memory
// allocated on a capturing stream becomes a graph allocation node.
#pragma once
#include "interpose/driver/cuda_api.h"

namespace cudaleak {

// The graph `stream` is being captured into, or 0. Costs nothing until the
// program has begun a capture (cuStreamBeginCapture is hooked); then one
// driver query per stream-ordered allocation. `per_thread`: the call was the
// _ptsz variant, where stream 0 means the per-thread default stream.
uint64_t capturing_graph(CUstream stream, bool per_thread);

}  // namespace cudaleak
