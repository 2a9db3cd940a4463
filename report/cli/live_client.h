// `cudaleak top`'s side of the live socket (interpose/runtime/live_server.h):
// which processes on this host serve one, and one frame from each. Also
// NVML's view of the devices, loaded when present.
#pragma once
#include <string>
#include <vector>

#include "report/render/top_text.h"

namespace cudaleak::cli {

// Pids serving a live socket, from /proc/net/unix, in order.
std::vector<int> live_pids();
// One frame of `pid`; `problem` set when there is none.
render::LiveProcess fetch_frame(int pid);
// Every device NVML lists, with its processes; empty without NVML.
std::vector<render::GpuUsage> gpu_usage();

}  // namespace cudaleak::cli
