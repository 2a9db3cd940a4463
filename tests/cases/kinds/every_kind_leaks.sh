# Every kind beyond memory, streams and events, leaked once each by
# tests/e2e/programs/every_kind.cpp (simulated driver, fake cuBLAS and
# cuSOLVER): each is found once, with its API and the program's line;
# imported memory counts what it keeps alive, external memory is listed.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/every_kind leak
# CHECK: SUMMARY: cudaleak:
# RUN: %expr %t/r.json \
# RUN:   'count("graph") == 3' \
# RUN:   'count("graph_exec") == 1 and count("module") == 1 and count("texture") == 1 and count("surface") == 1' \
# RUN:   'count("library") == 1' \
# RUN:   'count("ipc_mapping") == 3 and count("pool") == 1' \
# RUN:   'count("external_memory") == 1 and count("external_semaphore") == 1' \
# RUN:   'all(len(leaks(kind, api=api)) == 1 and group(kind, api)["count"] == 1 and (stack_has(group(kind, api), "main") or stack_has(group(kind, api), "make_graphs")) for kind, api in [("graph", "cuGraphCreate"), ("graph", "cuGraphClone"), ("graph", "cuStreamEndCapture"), ("graph_exec", "cuGraphInstantiateWithFlags"), ("module", "cuModuleLoadData"), ("library", "cuLibraryLoadData"), ("texture", "cuTexObjectCreate"), ("surface", "cuSurfObjectCreate"), ("ipc_mapping", "cuIpcOpenMemHandle_v2"), ("ipc_mapping", "cuMemPoolImportPointer"), ("ipc_mapping", "cuMemImportFromShareableHandle"), ("pool", "cuMemPoolImportFromShareableHandle"), ("external_semaphore", "cuImportExternalSemaphore")])' \
# RUN:   'group("ipc_mapping", "cuIpcOpenMemHandle_v2")["bytes"] == 256 << 10' \
# RUN:   'group("external_memory", "cuImportExternalMemory")["bytes"] == 8 << 20' \
# RUN:   'group("device", "cuExternalMemoryGetMappedBuffer")["bytes"] == 1 << 20'
# CHECK-COUNT(9): holds:
