# Graphs, executable graphs, textures, surfaces and arrays made through
# libcudart (tests/e2e/programs/runtime_objects.cpp, linked as nvcc -cudart
# shared links) are tracked: leaked, the two graphs (one built, one captured),
# the executable graph, the texture, the surface and three arrays (2D, 3D,
# mipmapped); the graph memory its free node gave back is not.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/runtime_objects leak
# CHECK: SUMMARY: cudaleak:
# RUN: %expr %t/r.json \
# RUN:   'count("graph") == 2 and count("graph_exec") == 1 and count("texture") == 1 and count("surface") == 1' \
# RUN:   'count("array") == 3 and count("graph_memory") == 0 and count("stream") == 0 and count("device") == 0' \
# RUN:   'all(any(g["api"].startswith(api) for g in r["leaks"]) for api in ["cudaGraphCreate", "cudaStreamEndCapture", "cudaGraphInstantiate", "cudaCreateTextureObject", "cudaCreateSurfaceObject", "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocMipmappedArray"])'
# CHECK-COUNT(3): holds:
# Destroyed: nothing of these kinds is left.
# RUN: %run -o %t/clean.json -- %build/tests/e2e/runtime_objects clean
# CHECK-RE: \Aall destroyed\n
# RUN: %expr %t/clean.json 'all(count(kind) == 0 for kind in ["graph", "graph_exec", "texture", "surface", "array", "graph_memory", "stream", "device"])'
# CHECK: holds:
