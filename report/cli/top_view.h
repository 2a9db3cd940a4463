// The interactive view of `cudaleak top` (ncurses): the frame of
// report/render/top_text.h redrawn every `interval_ms`; arrows or j/k select
// a site (its stack shown below), `g` sorts by growth, `b` by live bytes,
// `q` quits.
#pragma once
#include <vector>

#include "report/render/top_text.h"

namespace cudaleak::cli {

int run_top_view(const std::vector<int>& pids, int interval_ms, render::TopTextOptions options);

}  // namespace cudaleak::cli
