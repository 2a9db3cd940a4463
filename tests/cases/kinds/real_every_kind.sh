# Every CUDA object kind beyond memory, streams and events on a real GPU
# (tests/gpu/kinds/kinds.cu, nvcc's default static cudart): in `leak` each
# is counted exactly (100 captured graphs and 2 more, 2 executable graphs,
# 12 MiB of graph memory in 2 allocations, a module, a library, a texture, a
# surface, an IPC mapping) with no note; in `clean` nothing is left.
# REQUIRES: gpu, nvcc
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -O2 -o %t/kinds %root/tests/gpu/kinds/kinds.cu -lcuda
# RUN: %run -o %t/leak/r.%p.json -- %t/kinds leak
# RUN: %expr %t/leak \
# RUN:   'len(reports) == 1' \
# RUN:   '[count(k) for k in ("graph", "graph_exec", "graph_memory", "module", "library", "texture", "surface", "ipc_mapping")] == [102, 2, 2, 1, 1, 1, 1, 1]' \
# RUN:   'size("graph_memory") == 12 << 20' \
# RUN:   'len(r.get("notes", [])) == 0'
# CHECK-COUNT(4): holds:
# RUN: %run -o %t/clean/r.%p.json -- %t/kinds clean
# RUN: %expr %t/clean 'len(reports) == 1 and summary["leaked_count"] == 0 and len(r.get("notes", [])) == 0'
# CHECK: holds:
