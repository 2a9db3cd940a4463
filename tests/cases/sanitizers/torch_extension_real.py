# A PyTorch C++ extension built with -fsanitize=address (or, given "thread"
# after the build directory, -fsanitize=thread), loaded into a Python that
# preloads that sanitizer's runtime (as such extensions are tested): it keeps a
# CUDA tensor in a static vector and cudaMallocs 1 MiB it never frees. Prints
# what it did; under cudaleak it must print and end exactly the same, on a
# real GPU, with no sanitizer complaint the run alone does not have, and the
# ASan build's leak told at keep_and_leak. Each extension is built once first
# (g++ and ninja under a preloaded sanitizer runtime are not what is
# compared), then run alone and traced with its runtime preloaded.
# REQUIRES: gpu, torch
# ENV: ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
# RUN: mkdir -p %t/asan_build %t/tsan_build; %python %s %t/asan_build > /dev/null 2>&1; %python %s %t/tsan_build thread > /dev/null 2>&1; echo built
# CHECK: built
# RUN: RUN_PRELOAD=$(gcc -print-file-name=libasan.so) %root/tests/cases/tools/beside_sanitizer.sh %t/asan_extension keep_and_leak %run -o %t/asan.%p.json -- %python %s %t/asan_build
# CHECK: asan_extension: same status (
# CHECK: asan_extension: same stdout
# CHECK-COUNT(3): asan_extension: no new '
# CHECK: asan_extension: cudaleak's text says 'keep_and_leak'
# CHECK-NONE: differs
# RUN: RUN_PRELOAD=$(gcc -print-file-name=libtsan.so) %root/tests/cases/tools/beside_sanitizer.sh %t/tsan_extension "" %run -o %t/tsan.%p.json -- %python %s %t/tsan_build thread
# CHECK: tsan_extension: same status (
# CHECK: tsan_extension: same stdout
# CHECK-COUNT(3): tsan_extension: no new '
# CHECK-NONE: differs
import sys

import torch
from torch.utils.cpp_extension import load_inline

SOURCE = r"""
#include <torch/extension.h>
#include <cuda_runtime_api.h>
#include <vector>

static std::vector<at::Tensor> kept;

int64_t keep_and_leak(int64_t n) {
  kept.push_back(at::empty({n}, at::TensorOptions().dtype(at::kFloat).device(at::kCUDA)));
  void* p = nullptr;
  cudaMalloc(&p, 1 << 20);  // LINE:extension_leak
  return p != nullptr ? n : -1;
}
"""

sanitizer = sys.argv[2] if len(sys.argv) > 2 else "address"
ext = load_inline(
    name="asan_extension" if sanitizer == "address" else "tsan_extension",
    cpp_sources=SOURCE,
    functions=["keep_and_leak"],
    extra_cflags=["-fsanitize=" + sanitizer, "-fno-omit-frame-pointer", "-g", "-O1"],
    extra_ldflags=["-fsanitize=" + sanitizer, "-L/usr/local/cuda/lib64", "-lcudart"],
    extra_include_paths=["/usr/local/cuda/include"],
    build_directory=sys.argv[1] if len(sys.argv) > 1 else None,
    verbose=False,
)
print("extension returned", ext.keep_and_leak(1 << 18))
torch.cuda.synchronize()
print("done")

